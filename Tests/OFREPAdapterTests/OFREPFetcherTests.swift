import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import OFREPAdapter
import TestDoubles
import TestSupport
import Testing

/// The fetcher against an in-process OFREP server: the request it sends, conditional requests,
/// and every error status mapped to a typed error with the right retry advice.
@Suite("OFREPFetcher")
struct OFREPFetcherTests {
    private static let bulk = #"{"flags":[{"key":"checkout","value":true,"reason":"TARGETING_MATCH","variant":"on"}]}"#

    @Test("a fetch posts the context to /ofrep/v1/evaluate/flags and returns the body exactly as received")
    func postsTheContext() async throws {
        let backend = OFREPTestBackend()
        backend.serve(Self.bulk)
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let fetcher = try fetcher(for: server) { $0.headers = ["X-Tenant": "acme"] }
            let result = try await fetcher.fetch(request(for: "u1"))
            guard case .modified(let payload) = result else { Issue.record("expected a payload, got \(result)"); return }
            #expect(payload.bytes == Data(Self.bulk.utf8))
            #expect(payload.validators.etag == OFREPTestBackend.etag(Data(Self.bulk.utf8)))
            #expect(payload.source.hasSuffix("/"))
            let seen = try #require(backend.seen.first)
            #expect(seen.method == "POST")
            #expect(seen.path == "/ofrep/v1/evaluate/flags")
            #expect(seen.headers["content-type"] == "application/json")
            #expect(seen.headers["x-tenant"] == "acme")
            #expect(seen.headers["if-none-match"] == nil)
            #expect(seen.body == .object(["context": .object(["targetingKey": "u1", "plan": "pro"])]))
            #expect(fetcher.evaluatesContext)
        }
    }

    @Test("an endpoint with a path keeps it; a context without a targeting key sends none")
    func endpointPathAndAnonymousContext() async throws {
        let backend = OFREPTestBackend()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let fetcher = try OFREPFetcher(endpoint: server.url("/tenant/a/"))
            _ = try await fetcher.fetch(FetchRequest())
            #expect(backend.seen.first?.path == "/tenant/a/ofrep/v1/evaluate/flags")
            #expect(backend.seen.first?.body == .object(["context": .object([:])]))
        }
    }

    @Test("the held ETag goes out as If-None-Match and a 304 is notModified")
    func conditional() async throws {
        let backend = OFREPTestBackend()
        backend.serve(Self.bulk)
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let fetcher = try fetcher(for: server)
            let etag = OFREPTestBackend.etag(Data(Self.bulk.utf8))
            let result = try await fetcher.fetch(request(for: "u1", etag: etag))
            #expect(result == .notModified(Validators(etag: etag)))
            #expect(backend.seen.last?.headers["if-none-match"] == etag)
            let stale = try await fetcher.fetch(request(for: "u1", etag: "\"old\""))
            #expect(stale.outcome == .modified)
        }
    }

    @Test("401 and 403 are not retried and say to check the credentials, without the token")
    func unauthorized() async throws {
        for status in [401, 403] {
            let backend = OFREPTestBackend()
            backend.answer { _ in Reply.make(status) }
            try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
                let token = "secret-token-4b8e1c"
                let fetcher = try fetcher(for: server) { $0.headers = ["Authorization": "Bearer \(token)"] }
                let error = try #require(await fetchError(fetcher, request(for: "u1")))
                #expect(error.kind == .httpStatus(status))
                #expect(error.retry == .doNotRetry)
                #expect(error.message.contains("credentials"))
                #expect(error.message.contains("OFREP_HEADERS"))
                #expect(!error.message.contains(token))
                #expect(backend.seen.first?.headers["authorization"] == "Bearer \(token)")
            }
        }
    }

    @Test("429 with Retry-After in seconds, as an HTTP date, or as ISO 8601 retries at that time")
    func rateLimited() async throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let cases: [(String, Date)] = [
            ("120", now.addingTimeInterval(120)),
            ("Wed, 15 Nov 2023 00:00:00 GMT", Date(timeIntervalSince1970: 1_700_006_400)),
            ("2023-11-15T00:00:00Z", Date(timeIntervalSince1970: 1_700_006_400)),
        ]
        for (header, expected) in cases {
            let backend = OFREPTestBackend()
            backend.answer { _ in Reply.make(429, ["Retry-After": header]) }
            try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
                let fetcher = try fetcher(for: server) { $0.now = { now } }
                let error = try #require(await fetchError(fetcher, request(for: "u1")))
                #expect(error.kind == .rateLimited(status: 429))
                #expect(error.retry == .after(expected), "Retry-After: \(header)")
            }
        }
    }

    @Test("429 without a usable Retry-After backs off")
    func rateLimitedWithoutDate() async throws {
        let backend = OFREPTestBackend()
        backend.answer { _ in Reply.make(429, ["Retry-After": "soon"]) }
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let error = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(error.kind == .rateLimited(status: 429))
            #expect(error.retry == .backoff)
        }
    }

    @Test("5xx retries with backoff and passes the server's details on; 503 with Retry-After waits")
    func serverErrors() async throws {
        let backend = OFREPTestBackend()
        backend.answer { _ in
            Reply.make(500, ["Content-Type": "application/json"], body: Data(#"{"errorDetails":"database down"}"#.utf8))
        }
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let error = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(error.kind == .httpStatus(500))
            #expect(error.retry == .backoff)
            #expect(error.message.contains("database down"))
            backend.answer { _ in Reply.make(503, ["Retry-After": "30"]) }
            let now = Date(timeIntervalSince1970: 1_700_000_000)
            let limited = try #require(await fetchError(try fetcher(for: server) { $0.now = { now } }, request(for: "u1")))
            #expect(limited.kind == .rateLimited(status: 503))
            #expect(limited.retry == .after(now.addingTimeInterval(30)))
        }
    }

    @Test("400 TARGETING_KEY_MISSING and INVALID_CONTEXT are not retried and say what to change")
    func badRequest() async throws {
        let cases = [
            ("TARGETING_KEY_MISSING", "targeting key"),
            ("INVALID_CONTEXT", "attributes"),
            ("PARSE_ERROR", "could not read"),
        ]
        for (code, advice) in cases {
            let backend = OFREPTestBackend()
            backend.answer { _ in
                Reply.make(
                    400, ["Content-Type": "application/json"],
                    body: Data(#"{"errorCode":"\#(code)","errorDetails":"details for \#(code)"}"#.utf8))
            }
            try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
                let error = try #require(await fetchError(try fetcher(for: server), request(for: nil)))
                #expect(error.kind == .httpStatus(400))
                #expect(error.retry == .doNotRetry)
                #expect(error.message.contains(code))
                #expect(error.message.contains("details for \(code)"))
                #expect(error.message.contains(advice), "\(error.message)")
            }
        }
    }

    @Test("404 says to check the endpoint; other 4xx are not retried; 408 backs off")
    func otherStatuses() async throws {
        let backend = OFREPTestBackend()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            backend.answer { _ in Reply.make(404) }
            let missing = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(missing.retry == .doNotRetry)
            #expect(missing.message.contains("base URL"))
            backend.answer { _ in Reply.make(418) }
            let teapot = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(teapot.kind == .httpStatus(418))
            #expect(teapot.retry == .doNotRetry)
            backend.answer { _ in Reply.make(408) }
            let slow = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(slow.retry == .backoff)
        }
    }

    @Test("an empty 200, a body over the limit and a 200 that is not JSON are typed errors")
    func badBodies() async throws {
        let backend = OFREPTestBackend()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            backend.answer { _ in Reply.make(200, ["Content-Type": "application/json"]) }
            let empty = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(empty.kind == .emptyBody)
            #expect(empty.retry == .backoff)

            backend.answer { _ in Reply.json(Self.bulk) }
            let large = try #require(await fetchError(try fetcher(for: server) { $0.maxBodySize = 10 }, request(for: "u1")))
            #expect(large.kind == .bodyTooLarge(limit: 10))
            #expect(large.retry == .doNotRetry)

            backend.answer { _ in Reply.make(200, ["Content-Type": "text/html"], body: Data("<html>".utf8)) }
            let html = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(html.kind == .unsupportedContentType("text/html"))
            #expect(html.retry == .backoff)
        }
    }

    @Test("a server that does not answer in time is a retryable timeout")
    func timeout() async throws {
        let backend = OFREPTestBackend()
        let hold = backend.holdNext()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let fetcher = try fetcher(for: server) { $0.timeout = 0.3 }
            let started = Date()
            let error = try #require(await fetchError(fetcher, request(for: "u1")))
            #expect(error.kind == .timeout)
            #expect(error.retry == .backoff)
            #expect(Date().timeIntervalSince(started) < 5)
            hold.release()
        }
    }

    @Test("a refused connection is a retryable transport error")
    func refused() async throws {
        let port = try await TestHTTPServer.with { $0.port }  // stopped: nothing listens there now
        let fetcher = try OFREPFetcher(endpoint: try #require(URL(string: "http://127.0.0.1:\(port)")))
        let error = try #require(await fetchError(fetcher, request(for: "u1")))
        #expect(error.kind == .transport || error.kind == .timeout)
        #expect(error.retry == .backoff)
    }

    @Test("a cancelled task ends the fetch promptly with FetchError.cancelled")
    func cancellation() async throws {
        let backend = OFREPTestBackend()
        let hold = backend.holdNext()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let fetcher = try fetcher(for: server)
            let task = Task { await fetchError(fetcher, request(for: "u1")) }
            await hold.waitUntilReached()
            task.cancel()
            #expect(await task.value == .cancelled)
            hold.release()
            let before = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await fetchError(fetcher, request(for: "u1"))
            }
            #expect(await before.value == .cancelled)
        }
    }
}
