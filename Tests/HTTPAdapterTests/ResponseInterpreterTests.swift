import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport
import Testing

@testable import HTTPAdapter

@Suite("Mapping responses to results and errors")
struct ResponseInterpreterTests {
    private let interpreter = ResponseInterpreter(
        displayURL: "https://cdn.example.com/c.json", configuration: HTTPFetcher.Configuration(), now: fixedNow)

    private func error(_ response: HTTPTransportResponse) -> FetchError? {
        do throws(FetchError) {
            let result = try interpreter.result(for: response, request: FetchRequest())
            Issue.record("expected an error, got \(result)")
            return nil
        } catch {
            return error
        }
    }

    @Test("a 206 is not accepted as a payload")
    func partialContentIsRefused() {
        let mapped = error(HTTPTransportResponse(status: 206, body: Data("{}".utf8)))
        #expect(mapped?.kind == .httpStatus(206))
        #expect(mapped?.retry == .doNotRetry)
    }

    @Test("a 3xx that was not followed is a non-retryable status error")
    func unfollowedRedirect() {
        let mapped = error(HTTPTransportResponse(status: 300))
        #expect(mapped?.kind == .httpStatus(300))
        #expect(mapped?.retry == .doNotRetry)
    }

    @Test("a 500 with Retry-After is retried at that time")
    func serverErrorWithRetryAfter() {
        let mapped = error(HTTPTransportResponse(status: 500, headers: ["Retry-After": "60"]))
        #expect(mapped?.kind == .httpStatus(500))
        #expect(mapped?.retry == .after(fixedNow.addingTimeInterval(60)))
    }

    @Test("401 points to the headers and the header provider; 404 to the URL")
    func advice() {
        #expect(error(HTTPTransportResponse(status: 401))?.message.contains("the header provider") == true)
        #expect(error(HTTPTransportResponse(status: 404))?.message.contains("(not found); check the URL") == true)
    }

    @Test("a 304 keeps the request's validators where it carries none")
    func notModifiedFallsBack() throws {
        let request = FetchRequest(validators: Validators(etag: "\"held\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"))
        let result = try interpreter.result(
            for: HTTPTransportResponse(status: 304, headers: ["ETag": "\"new\""]), request: request)
        #expect(result == .notModified(Validators(etag: "\"new\"", lastModified: "Mon, 01 Jan 2024 00:00:00 GMT")))
    }

    @Test("a 200 carries its validators, content type and X-Config-Signature")
    func payloadCarriesHeaders() throws {
        let response = HTTPTransportResponse(
            status: 200, headers: ["ETag": "\"e\"", "Content-Type": "application/json", "X-Config-Signature": "sig"],
            body: Data("{}".utf8))
        let payload = try #require(modifiedPayload(try interpreter.result(for: response, request: FetchRequest())))
        #expect(payload.validators.etag == "\"e\"")
        #expect(payload.contentType == "application/json")
        #expect(payload.signature == "sig")
        #expect(payload.source == "https://cdn.example.com/c.json")
    }
}
