import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import HTTPAdapter

@Suite("Mapping transfer outcomes to results and errors")
struct ResponseInterpreterTests {
    private let interpreter = ResponseInterpreter(
        displayURL: "https://cdn.example.com/c.json", configuration: HTTPFetcher.Configuration(), now: fixedNow)

    private func error(_ outcome: TransferOutcome) -> FetchError? {
        do throws(FetchError) {
            let result = try interpreter.result(for: outcome, request: FetchRequest())
            Issue.record("expected an error, got \(result)")
            return nil
        } catch {
            return error
        }
    }

    private func failure(_ code: Int) -> TransferOutcome {
        TransferOutcome(
            head: nil, body: Data(), failure: TransportFailure(domain: "NSURLErrorDomain", code: code, description: "x"),
            abort: nil)
    }

    @Test(
        "URL error codes map to kinds and advice",
        arguments: [
            (-1001, FetchError.Kind.timeout, RetryAdvice.backoff), (-1003, .transport, .backoff), (-1004, .transport, .backoff),
            (-1005, .transport, .backoff), (-1009, .transport, .backoff), (-1200, .transport, .backoff),
            (-1, .transport, .backoff),
            (-1007, .redirectLoop, .doNotRetry), (-1002, .other, .doNotRetry), (-999, .cancelled, .doNotRetry),
        ])
    func urlErrorCodes(code: Int, kind: FetchError.Kind, retry: RetryAdvice) {
        let mapped = error(failure(code))
        #expect(mapped?.kind == kind)
        #expect(mapped?.retry == retry)
    }

    @Test("a 206 is not accepted as a payload")
    func partialContentIsRefused() {
        let mapped = error(TransferOutcome(head: ResponseHead(status: 206), body: Data("{}".utf8), failure: nil, abort: nil))
        #expect(mapped?.kind == .httpStatus(206))
        #expect(mapped?.retry == .doNotRetry)
    }

    @Test("a 3xx that was not followed is a non-retryable status error")
    func unfollowedRedirect() {
        let mapped = error(TransferOutcome(head: ResponseHead(status: 300), body: Data(), failure: nil, abort: .status))
        #expect(mapped?.kind == .httpStatus(300))
        #expect(mapped?.retry == .doNotRetry)
    }

    @Test("a 500 with Retry-After is retried at that time")
    func serverErrorWithRetryAfter() {
        var head = ResponseHead(status: 500)
        head.retryAfter = "60"
        let mapped = error(TransferOutcome(head: head, body: Data(), failure: nil, abort: .status))
        #expect(mapped?.kind == .httpStatus(500))
        #expect(mapped?.retry == .after(fixedNow.addingTimeInterval(60)))
    }

    @Test("a failure after a complete body is still reported, not returned as a payload")
    func failureAfterCompleteBody() {
        let outcome = TransferOutcome(
            head: ResponseHead(status: 200, contentLength: 2), body: Data("{}".utf8),
            failure: TransportFailure(domain: "NSURLErrorDomain", code: -1005, description: "lost"), abort: nil)
        #expect(error(outcome)?.kind == .transport)
    }

    @Test("a content-encoded body is not compared with its Content-Length")
    func encodedBodySkipsLengthCheck() throws {
        var head = ResponseHead(status: 200, contentType: "application/json", contentLength: 10)
        head.contentEncoding = "gzip"
        let result = try interpreter.result(
            for: TransferOutcome(head: head, body: Data("{\"a\":1}".utf8), failure: nil, abort: nil), request: FetchRequest())
        #expect(modifiedPayload(result)?.bytes == Data("{\"a\":1}".utf8))
    }
}
