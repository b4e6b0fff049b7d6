import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import TestSupport
import Testing

/// The HTTP fetcher against the in-process `TestHTTPServer`, driven directly.
@Suite("HTTPFetcher against the in-process config server")
struct HTTPFetcherServerTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A fetcher of `server`; its 30 s timeout is never reached by a working test, only on a loaded machine.
    private static func fetcher(_ server: TestHTTPServer, _ change: (inout HTTPFetcher.Configuration) -> Void = { _ in }) throws
        -> HTTPFetcher
    {
        var configuration = HTTPFetcher.Configuration(timeout: 30, maxBodySize: 256 * 1024, now: { now })
        change(&configuration)
        return try HTTPFetcher(url: server.url(), configuration: configuration)
    }

    private static func failure(_ fetcher: HTTPFetcher, _ validators: Validators = .none) async -> FetchError? {
        do throws(FetchError) {
            let result = try await fetcher.fetch(FetchRequest(validators: validators))
            Issue.record("expected a failure, got \(result)")
            return nil
        } catch {
            return error
        }
    }

    @Test("200 with validators, then 304 without a body, then a change gives a new ETag and a 200")
    func conditionalCycle() async throws {
        try await TestHTTPServer.with { server in
            let first = server.publish(#"{"greeting":"hello"}"#)
            let fetcher = try Self.fetcher(server)

            guard case .modified(let payload) = try await fetcher.fetch(FetchRequest()) else {
                Issue.record("first fetch should be modified")
                return
            }
            #expect(payload.bytes == first.body)
            #expect(payload.validators.etag == first.etag)
            #expect(payload.validators.lastModified == TestHTTPServer.httpDate(first.lastModified))

            let again = try await fetcher.fetch(FetchRequest(validators: payload.validators))
            #expect(again == .notModified(payload.validators))

            let second = server.publish(#"{"greeting":"bonjour"}"#)
            guard case .modified(let changed) = try await fetcher.fetch(FetchRequest(validators: payload.validators)) else {
                Issue.record("fetch after the change should be modified")
                return
            }
            #expect(changed.bytes == second.body)
            #expect(changed.validators.etag == second.etag)
            #expect(changed.validators.etag != payload.validators.etag)

            // Every fetch reached the server, with the validators it was given and nothing else.
            let requests = server.requests
            #expect(requests.map(\.status) == [200, 304, 200])
            #expect(requests.map { $0.headers["if-none-match"] } == [nil, first.etag, first.etag])
        }
    }

    @Test("If-Modified-Since alone gives a 304 from the server")
    func lastModifiedAlone() async throws {
        try await TestHTTPServer.with { server in
            let document = server.publish(#"{"a":1}"#)
            let validators = Validators(lastModified: TestHTTPServer.httpDate(document.lastModified))
            let result = try await Self.fetcher(server).fetch(FetchRequest(validators: validators))
            #expect(result == .notModified(Validators(etag: document.etag, lastModified: validators.lastModified)))
            #expect(server.requests.map(\.status) == [304])
        }
    }

    @Test("repeated unconditional fetches all reach the server: no cache answers for it")
    func noCacheAnswers() async throws {
        try await TestHTTPServer.with { server in
            server.publish(#"{"a":1}"#, cacheControl: "public, max-age=86400")
            let fetcher = try Self.fetcher(server)
            for _ in 0..<4 { _ = try await fetcher.fetch(FetchRequest()) }
            #expect(server.requests.map(\.status) == [200, 200, 200, 200])
        }
    }

    @Test(
        "each injected fault gives the typed error a scheduler needs",
        arguments: [
            (TestHTTPServer.Fault.status(500), FetchError.Kind.httpStatus(500), RetryAdvice.backoff),
            (.status(503, retryAfter: "120"), .rateLimited(status: 503), .after(now.addingTimeInterval(120))),
            (
                .status(503, retryAfter: "Fri, 15 Jan 2027 09:00:00 GMT"), .rateLimited(status: 503),
                .after(Date(timeIntervalSince1970: 1_800_003_600))
            ),
            (.status(429, retryAfter: "30"), .rateLimited(status: 429), .after(now.addingTimeInterval(30))),
            (.status(404), .httpStatus(404), .doNotRetry),
            (.wrongContentLength(extra: 40), .truncatedBody(expected: 47, received: 7), .backoff),
            (.closeMidBody, .transport, .backoff),
            (.oversized(bytes: 8 * 1024 * 1024, declared: true), .bodyTooLarge(limit: 256 * 1024), .doNotRetry),
            (.oversized(bytes: 64 * 1024 * 1024, declared: false), .bodyTooLarge(limit: 256 * 1024), .doNotRetry),
            (.contentType("text/html"), .unsupportedContentType("text/html"), .backoff),
            (.redirectLoop, .redirectLoop, .doNotRetry),
            (.emptyBody, .emptyBody, .backoff),
        ])
    func faults(fault: TestHTTPServer.Fault, kind: FetchError.Kind, retry: RetryAdvice) async throws {
        try await TestHTTPServer.with { server in
            server.publish(#"{"a":1}"#)
            server.inject(fault)
            let error = try #require(await Self.failure(try Self.fetcher(server)))
            #expect(error.kind == kind)
            #expect(error.retry == retry)
            // The server recovers and the same fetcher works again: nothing stuck, no retry of its own.
            let recovered = try await Self.fetcher(server).fetch(FetchRequest())
            if case .modified = recovered {} else { Issue.record("expected recovery, got \(recovered)") }
        }
    }

    @Test(
        "a delay past the timeout is a timeout; a hang is too; both retry with backoff",
        arguments: [TestHTTPServer.Fault.delay(5), .hang])
    func slowServer(fault: TestHTTPServer.Fault) async throws {
        try await TestHTTPServer.with { server in
            server.publish(#"{"a":1}"#)
            server.inject(fault)
            let error = try #require(await Self.failure(try Self.fetcher(server) { $0.timeout = 0.5 }))
            server.releaseHangs()
            #expect(error.kind == .timeout)
            #expect(error.retry == .backoff)
        }
    }

    @Test("a payload that does not decode is refused early when validatePayload is set")
    func undecodablePayload() async throws {
        try await TestHTTPServer.with { server in
            server.publish(#"{"a":1}"#)
            server.inject(.body(Data(#"{"a": 1,}"#.utf8)))
            let error = try #require(await Self.failure(try Self.fetcher(server) { $0.validatePayload = PlainJSONFormat() }))
            #expect(error.kind == .invalidPayload)
            #expect(error.message.contains("at byte 7: a comma before the closing"))
        }
    }
}
