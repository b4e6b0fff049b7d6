import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import HTTPSupport

/// The pure half of the shared layer: statuses and transport failures as `FetchError`s, worded for a person.
@Suite("HTTP statuses and transport failures as FetchErrors")
struct HTTPErrorMappingTests {
    private static let wording: ErrorWording = {
        var wording = ErrorWording(server: "the flag server", url: "https://flags.example.com/")
        wording.credentialsAdvice = "check FLAGS_TOKEN"
        wording.notFoundAdvice = "check the base URL"
        return wording
    }()

    private func error(_ status: Int, _ headers: [String: String] = [:], details: String = "") -> FetchError {
        FetchError.forStatus(
            of: HTTPTransportResponse(status: status, headers: headers), wording: Self.wording, now: fixedNow, details: details)
    }

    @Test(
        "each status class maps to its kind and retry advice",
        arguments: [
            (300, FetchError.Kind.httpStatus(300), RetryAdvice.doNotRetry), (400, .httpStatus(400), .doNotRetry),
            (401, .httpStatus(401), .doNotRetry), (403, .httpStatus(403), .doNotRetry), (404, .httpStatus(404), .doNotRetry),
            (410, .httpStatus(410), .doNotRetry), (418, .httpStatus(418), .doNotRetry), (206, .httpStatus(206), .doNotRetry),
            (408, .httpStatus(408), .backoff), (429, .rateLimited(status: 429), .backoff), (500, .httpStatus(500), .backoff),
            (503, .httpStatus(503), .backoff), (599, .httpStatus(599), .backoff),
        ])
    func statusClasses(status: Int, kind: FetchError.Kind, retry: RetryAdvice) {
        let mapped = error(status)
        #expect(mapped.kind == kind)
        #expect(mapped.retry == retry)
        #expect(mapped.message.hasPrefix("the flag server at https://flags.example.com/ answered HTTP \(status)"))
    }

    @Test("the adapter's advice follows 401, 403, 404 and 410; a 5xx carries the server's details")
    func advice() {
        #expect(error(401).message.contains("(unauthorized); check FLAGS_TOKEN"))
        #expect(error(403).message.contains("(forbidden); check FLAGS_TOKEN"))
        #expect(error(404).message.contains("(not found); check the base URL"))
        #expect(error(410).message.contains("(gone); check the base URL"))
        #expect(error(500, details: " (database down)").message.contains("HTTP 500 (database down), a server-side failure"))
        #expect(error(418).message.contains("retrying will not help until the server or the request changes"))
    }

    @Test(
        "Retry-After in seconds, as an HTTP date or as ISO 8601 sets the retry time of 429, 503 and 5xx",
        arguments: [
            (429, "30", FetchError.Kind.rateLimited(status: 429), fixedNow.addingTimeInterval(30)),
            (503, "Wed, 15 Nov 2023 00:00:00 GMT", .rateLimited(status: 503), Date(timeIntervalSince1970: 1_700_006_400)),
            (429, "2023-11-15T00:00:00Z", .rateLimited(status: 429), Date(timeIntervalSince1970: 1_700_006_400)),
            (500, "60", .httpStatus(500), fixedNow.addingTimeInterval(60)),
        ])
    func retryAfter(status: Int, header: String, kind: FetchError.Kind, at date: Date) {
        let mapped = error(status, ["retry-after": header])
        #expect(mapped.kind == kind)
        #expect(mapped.retry == .after(date))
    }

    @Test("429 without a usable Retry-After backs off; 408 never waits for one")
    func unusableRetryAfter() {
        #expect(error(429, ["Retry-After": "soon"]).retry == .backoff)
        #expect(error(408, ["Retry-After": "30"]).retry == .backoff)
    }

    @Test(
        "URL error codes map to kinds and advice",
        arguments: [
            (-1001, FetchError.Kind.timeout, RetryAdvice.backoff), (-1003, .transport, .backoff), (-1004, .transport, .backoff),
            (-1005, .transport, .backoff), (-1009, .transport, .backoff), (-1200, .transport, .backoff),
            (-1, .transport, .backoff),
            (-1007, .redirectLoop, .doNotRetry), (-1000, .other, .doNotRetry), (-1002, .other, .doNotRetry),
            (-999, .cancelled, .doNotRetry),
        ])
    func urlErrorCodes(code: Int, kind: FetchError.Kind, retry: RetryAdvice) throws {
        let url = try #require(URL(string: "https://flags.example.com/x"))
        let request = HTTPTransportRequest(url: url, timeout: 10, maxBodySize: 10, wording: Self.wording)
        let mapped = request.error(for: .transport(domain: "NSURLErrorDomain", code: code, description: "x"))
        #expect(mapped.kind == kind)
        #expect(mapped.retry == retry)
    }

    @Test("transfer failures name the server and what to do, without the raw URL or a secret header value")
    func failureWording() throws {
        let url = try #require(URL(string: "https://flags.example.com/x?key=query-secret-1"))
        var request = HTTPTransportRequest(url: url, timeout: 2.5, maxBodySize: 100, wording: Self.wording)
        request.setHeader("Authorization", "Bearer header-secret-998877")
        request.wording.timeoutAdvice = "FLAGS_TIMEOUT sets it"
        let failures: [TransferFailure] = [
            .transport(
                domain: "NSURLErrorDomain", code: -1004, description: "no \(url.absoluteString) Bearer header-secret-998877"),
            .deadline, .bodyTooLarge(received: 150), .declaredTooLarge(declared: 1000), .contentType("text/html", status: 200),
            .truncated(expected: 100, received: 5), .redirectLoop(target: "https://flags.example.com/a"),
            .tooManyRedirects(limit: 3), .refusedRedirect(reason: "plain http"),
            .redirectDropsBody(target: "https://flags.example.com/b"),
        ]
        for failure in failures {
            let message = request.error(for: failure).message
            #expect(message.contains("the flag server at https://flags.example.com/"), "\(message)")
            #expect(!message.contains("query-secret-1"), "\(message)")
            #expect(!message.contains("header-secret-998877"), "\(message)")
        }
        #expect(
            request.error(for: .deadline).message.contains(
                "within the timeout of 2.5 s; the server or the network is slow (FLAGS_TIMEOUT sets it)"))
        #expect(request.error(for: .bodyTooLarge(received: 150)).kind == .bodyTooLarge(limit: 100))
        #expect(request.error(for: .cancelled) == .cancelled)
    }

    @Test("request headers are one field per name, whatever its case; response headers are read in any case")
    func headerNames() throws {
        let url = try #require(URL(string: "https://flags.example.com/"))
        var request = HTTPTransportRequest(url: url, timeout: 1, maxBodySize: 1, wording: Self.wording)
        request.setHeader("accept", "text/plain")
        request.setHeader("Accept", "application/json")
        #expect(request.headers == ["Accept": "application/json"])
        #expect(request.header("ACCEPT") == "application/json")
        request.setHeader("ACCEPT", nil)
        #expect(request.headers.isEmpty)
        #expect(request.isSecret(headerName: "X-API-Key"))
        let response = HTTPTransportResponse(status: 200, headers: ["Etag": "\"e\"", "content-type": "application/json"])
        #expect(response.header("ETag") == "\"e\"")
        #expect(response.contentType == "application/json")
        #expect(response.isPayload)
        #expect(!HTTPTransportResponse(status: 206).isPayload)
    }

    @Test("a Content-Length is compared with the body only when the body is not content-encoded")
    func verifiableLength() {
        #expect(HTTPTransportResponse(status: 200, headers: ["Content-Length": " 10 "]).verifiableLength == 10)
        #expect(
            HTTPTransportResponse(status: 200, headers: ["Content-Length": "10", "Content-Encoding": "gzip"]).verifiableLength
                == nil)
        #expect(
            HTTPTransportResponse(status: 200, headers: ["Content-Length": "10", "Content-Encoding": "identity"]).verifiableLength
                == 10)
    }

    @Test("a streaming failure in a few words")
    func failureText() {
        #expect(StreamPart.failureText(errorCode: -1004) == "connection refused")
        #expect(StreamPart.failureText(errorCode: -1001) == "timed out")
        #expect(StreamPart.failureText(errorCode: -1005) == "connection lost")
        #expect(StreamPart.failureText(errorCode: -999) == "cancelled")
        #expect(StreamPart.failureText(errorCode: -1234) == "URL error -1234")
    }
}
