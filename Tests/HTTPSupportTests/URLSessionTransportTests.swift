import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import HTTPSupport
import TestSupport
import Testing

/// The shared request and response layer against the real loopback server: what comes back as a response, and every
/// way no usable response comes, as the `FetchError` both fetchers report.
@Suite("URLSessionTransport against a loopback server")
struct URLSessionTransportTests {
    // MARK: Responses

    @Test("a 2xx comes back whole with its headers; the method, headers and body reach the server")
    func payloadAndRequest() async throws {
        let seen = Locked<(method: String, body: Data, tenant: String?)?>(nil)
        try await TestHTTPServer.with({ request in
            let body = try await request.bodyData
            seen.withLock { $0 = (request.method.rawValue, body, request.headers[HTTPHeader("X-Tenant")]) }
            return Reply.json(#"{"a":1}"#, ["ETag": "\"v1\"", "Last-Modified": "Wed, 15 Nov 2023 00:00:00 GMT"])
        }) { server in
            let result = await exchange(
                transportRequest(server.url("/evaluate"), method: "POST") {
                    $0.setHeader("x-tenant", "old")
                    $0.setHeader("X-Tenant", "acme")
                    $0.body = Data(#"{"context":{}}"#.utf8)
                })
            let response = try #require(result.response)
            #expect(response.status == 200)
            #expect(response.isPayload)
            #expect(response.body == Data(#"{"a":1}"#.utf8))
            #expect(response.header("etag") == "\"v1\"")
            #expect(response.validators == Validators(etag: "\"v1\"", lastModified: "Wed, 15 Nov 2023 00:00:00 GMT"))
            let request = try #require(seen.current)
            #expect(request.method == "POST")
            #expect(request.body == Data(#"{"context":{}}"#.utf8))
            #expect(request.tenant == "acme")
        }
    }

    @Test("a 304 comes back as a 304, its validators falling back to the request's")
    func notModified() async throws {
        try await TestHTTPServer.with { server in
            let document = server.publish(#"{"a":1}"#)
            let result = await exchange(transportRequest(server.url()) { $0.setHeader("If-None-Match", document.etag) })
            let response = try #require(result.response)
            #expect(response.status == 304)
            #expect(!response.isPayload)
            #expect(response.validators(fallingBackTo: Validators(etag: "\"held\"")).etag == document.etag)
            #expect(HTTPTransportResponse(status: 304).validators(fallingBackTo: Validators(etag: "\"held\"")).etag == "\"held\"")
        }
    }

    @Test(
        "every other status class comes back as a response, with its body for the details",
        arguments: [300, 400, 401, 403, 404, 408, 410, 418, 429, 500, 502, 503])
    func statusesComeBack(status: Int) async throws {
        try await TestHTTPServer.with({ _ in
            Reply.make(status, ["Content-Type": "application/json"], body: Data(#"{"errorDetails":"why"}"#.utf8))
        }) { server in
            let response = try #require(await exchange(transportRequest(server.url())).response)
            #expect(response.status == status)
            #expect(response.body == Data(#"{"errorDetails":"why"}"#.utf8))
        }
    }

    @Test("the body of a status that is not a payload is read only as far as the detail limit")
    func detailsAreCut() async throws {
        try await TestHTTPServer.with({ _ in
            Reply.make(
                500, ["Content-Type": "text/html"], body: Data(repeating: 0x61, count: 3 * HTTPTransportResponse.detailLimit))
        }) { server in
            let response = try #require(await exchange(transportRequest(server.url(), maxBodySize: 10)).response)
            #expect(response.status == 500)
            #expect(response.body.count == HTTPTransportResponse.detailLimit)
        }
    }

    // MARK: Transport failures and time

    @Test("a refused connection is a transport error retried with backoff, naming the server and the code")
    func refusedConnection() async throws {
        let port = try #require(unusedLoopbackPort())
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/config.json?key=query-secret"))
        let error = try #require(await exchange(transportRequest(url)).error)
        #expect(error.kind == .transport)
        #expect(error.retry == .backoff)
        #expect(error.message.contains("could not reach the test server at http://127.0.0.1:\(port)/config.json?<redacted>"))
        #expect(error.message.contains("-1004"))
        #expect(!error.message.contains("query-secret"))
    }

    @Test("an answer slower than the timeout is a timeout retried with backoff, at the deadline")
    func slowServerTimesOut() async throws {
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            await gate.wait()
            return Reply.json("{}")
        }) { server in
            let started = Date()
            let error = try #require(await exchange(transportRequest(server.url(), timeout: 0.5)).error)
            gate.open()
            #expect(error.kind == .timeout)
            #expect(error.retry == .backoff)
            #expect(error.message.contains("within the timeout of 0.5 s"))
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    @Test("a body that stalls mid-transfer past the timeout is a timeout too")
    func stallingBodyTimesOut() async throws {
        let gate = Gate()
        try await TestHTTPServer.with({ _ in Reply.stalling(declared: 50, prefix: Data(#"{"a":"#.utf8), gate: gate) }) {
            server in
            let error = try #require(await exchange(transportRequest(server.url(), timeout: 0.5)).error)
            gate.open()
            #expect(error.kind == .timeout)
        }
    }

    @Test("cancelling the calling task ends the exchange at once with .cancelled; a cancelled task sends nothing")
    func cancellation() async throws {
        let arrived = Gate()
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            arrived.open()
            await gate.wait()
            return Reply.json("{}")
        }) { server in
            let task = Task { await exchange(transportRequest(server.url(), timeout: 600)).error }
            await arrived.wait()
            task.cancel()
            #expect(await task.value == .cancelled)
            gate.open()
            let before = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await exchange(transportRequest(server.url("/never"))).error
            }
            #expect(await before.value == .cancelled)
            #expect(!server.requests.contains { $0.path == "/never" })
        }
    }

    // MARK: Bodies

    @Test("a payload announced over the limit is refused without downloading it")
    func declaredOversizedBody() async throws {
        let counter = ByteCounter()
        let total = 64 * 1024 * 1024
        try await TestHTTPServer.with({ _ in Reply.large(total, declareLength: true, counter: counter) }) { server in
            let error = try #require(await exchange(transportRequest(server.url(), maxBodySize: 1024)).error)
            #expect(error.kind == .bodyTooLarge(limit: 1024))
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("announced a body of \(total) bytes"))
        }
        #expect(counter.total < total / 4)
    }

    @Test("a payload streamed without a length is aborted as soon as it passes the limit")
    func streamedOversizedBody() async throws {
        let counter = ByteCounter()
        let total = 256 * 1024 * 1024
        try await TestHTTPServer.with({ _ in Reply.large(total, declareLength: false, counter: counter) }) { server in
            let error = try #require(await exchange(transportRequest(server.url(), maxBodySize: 64 * 1024)).error)
            #expect(error.kind == .bodyTooLarge(limit: 64 * 1024))
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("passed the limit of 65536 bytes"))
        }
        #expect(counter.total < total / 4)
    }

    @Test("a payload cut short of its Content-Length is truncatedBody; a chunked one cut off is a transport error")
    func cutBodies() async throws {
        try await TestHTTPServer.with({ request in
            request.path == "/length"
                ? Reply.truncated(declared: 100, sent: Data(#"{"a":"#.utf8)) : Reply.droppedChunked(sent: Data(#"{"a":"#.utf8))
        }) { server in
            let truncated = try #require(await exchange(transportRequest(server.url("/length"))).error)
            #expect(truncated.kind == .truncatedBody(expected: 100, received: 5))
            #expect(truncated.retry == .backoff)
            let dropped = try #require(await exchange(transportRequest(server.url("/chunked"))).error)
            #expect(dropped.kind == .transport)
            #expect(dropped.retry == .backoff)
        }
    }

    @Test("a payload of a content type the request does not accept is refused; a missing one as configured")
    func contentTypes() async throws {
        try await TestHTTPServer.with({ request in
            request.path == "/html"
                ? Reply.make(200, ["Content-Type": "text/html; charset=utf-8"], body: Data("<html>".utf8))
                : Reply.make(200, [:], body: Data("{}".utf8))
        }) { server in
            let json: (inout HTTPTransportRequest) -> Void = {
                $0.acceptedContentTypes = ["application/json", "application/*+json"]
                $0.wording.contentTypeAdvice = "check the endpoint"
            }
            let html = try #require(await exchange(transportRequest(server.url("/html"), json)).error)
            #expect(html.kind == .unsupportedContentType("text/html; charset=utf-8"))
            #expect(html.retry == .backoff)
            #expect(html.message.contains("which is not one of application/json, application/*+json; check the endpoint"))
            #expect(await exchange(transportRequest(server.url("/none"), json)).response?.status == 200)
            let strict = try #require(
                await exchange(
                    transportRequest(server.url("/none")) {
                        json(&$0)
                        $0.acceptsMissingContentType = false
                    }
                ).error)
            #expect(strict.kind == .unsupportedContentType(nil))
            // A status that is not a payload is returned whatever its type: its body is only details.
            let plain = Reply.make(404, ["Content-Type": "text/html"])
            try await TestHTTPServer.with({ _ in plain }) { other in
                #expect(await exchange(transportRequest(other.url(), json)).response?.status == 404)
            }
        }
    }
}
