import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import TestSupport
import Testing

@testable import HTTPAdapter

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTPFetcher conditional GET and caching")
struct HTTPFetcherConditionalTests {
    private static let body = #"{"new_checkout":true,"max_items":20}"#
    private static let etag = "\"v1\""
    private static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    /// Serves `body` with a fixed ETag and Last-Modified, answering 304 when a validator matches
    /// (If-None-Match first, as RFC 9110 says).
    private static func validating(_ notModifiedHeaders: [String: String]? = nil)
        -> @Sendable (HTTPRequest) async throws -> HTTPResponse
    {
        { request in
            let inm = request.headers[HTTPHeader("If-None-Match")]
            let ims = request.headers[HTTPHeader("If-Modified-Since")]
            if inm == etag || (inm == nil && ims == lastModified) {
                return Reply.make(304, notModifiedHeaders ?? ["ETag": etag, "Last-Modified": lastModified])
            }
            return Reply.json(body, ["ETag": etag, "Last-Modified": lastModified])
        }
    }

    @Test("a first fetch returns the body with the response's ETag and Last-Modified and sends no conditional header")
    func firstFetchReturnsBodyAndValidators() async throws {
        try await TestHTTPServer.with(Self.validating()) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(String(decoding: payload.bytes, as: UTF8.self) == Self.body)
            #expect(payload.validators == Validators(etag: Self.etag, lastModified: Self.lastModified))
            #expect(payload.contentType == "application/json")
            #expect(payload.source == server.url().absoluteString)
            #expect(payload.ttlHint == nil)
            let sent = try #require(server.requests.first)
            #expect(sent.headers["if-none-match"] == nil)
            #expect(sent.headers["if-modified-since"] == nil)
        }
    }

    @Test("a matching ETag gives .notModified with the 304's validators")
    func matchingETagGivesNotModified() async throws {
        try await TestHTTPServer.with(Self.validating()) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            let result = try await fetcher.fetch(FetchRequest(validators: Validators(etag: Self.etag)))
            #expect(result == .notModified(Validators(etag: Self.etag, lastModified: Self.lastModified)))
            #expect(server.requests.map { $0.headers["if-none-match"] } == [Self.etag])
        }
    }

    @Test("a 304 without validator headers falls back to the request's, field by field")
    func notModifiedFallsBackToRequestValidators() async throws {
        try await TestHTTPServer.with(Self.validating(["ETag": "\"v1\""])) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            let sent = Validators(etag: Self.etag, lastModified: "Tue, 20 Oct 2015 07:28:00 GMT")
            let result = try await fetcher.fetch(FetchRequest(validators: sent))
            #expect(result == .notModified(Validators(etag: Self.etag, lastModified: "Tue, 20 Oct 2015 07:28:00 GMT")))
        }
        try await TestHTTPServer.with(Self.validating([:])) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            let sent = Validators(etag: Self.etag, lastModified: "Tue, 20 Oct 2015 07:28:00 GMT")
            #expect(try await fetcher.fetch(FetchRequest(validators: sent)) == .notModified(sent))
        }
    }

    @Test("If-Modified-Since alone is sent from lastModified and can give a 304")
    func lastModifiedAloneGivesNotModified() async throws {
        try await TestHTTPServer.with(Self.validating()) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            let result = try await fetcher.fetch(FetchRequest(validators: Validators(lastModified: Self.lastModified)))
            #expect(result == .notModified(Validators(etag: Self.etag, lastModified: Self.lastModified)))
            let sent = try #require(server.requests.first)
            #expect(sent.headers["if-modified-since"] == Self.lastModified)
            #expect(sent.headers["if-none-match"] == nil)
        }
    }

    @Test("conditional headers come only from the request's validators, never from configured headers")
    func conditionalHeadersOnlyFromValidators() async throws {
        try await TestHTTPServer.with(Self.validating()) { server in
            let configuration = testConfiguration {
                $0.headers = ["If-None-Match": Self.etag, "X-Client": "tests"]
                $0.headerProvider = { ["if-modified-since": Self.lastModified] }
            }
            let fetcher = try HTTPFetcher(url: server.url(), configuration: configuration)
            let first = try await fetcher.fetch(FetchRequest())
            #expect(modifiedPayload(first) != nil)
            let second = try await fetcher.fetch(FetchRequest(validators: Validators(etag: "\"other\"")))
            #expect(modifiedPayload(second) != nil)
            let requests = server.requests
            #expect(requests.count == 2)
            #expect(requests.map { $0.headers["if-none-match"] } == [nil, "\"other\""])
            #expect(requests.map { $0.headers["if-modified-since"] } == [nil, nil])
            #expect(requests.allSatisfy { $0.headers["x-client"] == "tests" })
        }
    }

    @Test("the fetcher keeps no validators of its own between fetches")
    func noPrivateValidatorState() async throws {
        try await TestHTTPServer.with(Self.validating()) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            _ = try await fetcher.fetch(FetchRequest())
            let again = try await fetcher.fetch(FetchRequest())
            #expect(modifiedPayload(again) != nil)
            #expect(server.requests.allSatisfy { $0.headers["if-none-match"] == nil && $0.headers["if-modified-since"] == nil })
        }
    }

    @Test("every fetch reaches the server, and a changed body is seen at once (no URL cache answers)")
    func everyFetchReachesTheServer() async throws {
        let version = ByteCounter()
        try await TestHTTPServer.with({ _ in
            version.add(1)
            return Reply.json(
                #"{"v":\#(version.total)}"#, ["Cache-Control": "public, max-age=3600", "ETag": "\"\(version.total)\""])
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            var bodies: [String] = []
            for _ in 0..<3 {
                let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
                bodies.append(String(decoding: payload.bytes, as: UTF8.self))
            }
            #expect(bodies == [#"{"v":1}"#, #"{"v":2}"#, #"{"v":3}"#])
            #expect(server.requests.count == 3)
        }
    }

    @Test("an injected session with a URL cache still asks the server every time and passes a 304 through")
    func injectedCachingSessionDoesNotAnswerFromCache() async throws {
        let sessionConfiguration = URLSessionConfiguration.default
        sessionConfiguration.urlCache = URLCache(memoryCapacity: 1_000_000, diskCapacity: 0, diskPath: nil)
        sessionConfiguration.requestCachePolicy = .returnCacheDataElseLoad
        let session = URLSession(configuration: sessionConfiguration)
        defer { session.invalidateAndCancel() }
        try await TestHTTPServer.with({ request in
            if request.headers[HTTPHeader("If-None-Match")] == "\"v1\"" { return Reply.make(304, ["ETag": "\"v1\""]) }
            return Reply.json(#"{"a":1}"#, ["ETag": "\"v1\"", "Cache-Control": "public, max-age=3600"])
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.session = session })
            #expect(modifiedPayload(try await fetcher.fetch(FetchRequest())) != nil)
            #expect(modifiedPayload(try await fetcher.fetch(FetchRequest())) != nil)
            let conditional = try await fetcher.fetch(FetchRequest(validators: Validators(etag: "\"v1\"")))
            #expect(conditional == .notModified(Validators(etag: "\"v1\"")))
            #expect(server.requests.count == 3)
        }
    }

    @Test("Cache-Control max-age less Age becomes the TTL hint only when enabled")
    func maxAgeBecomesTTLHintWhenEnabled() async throws {
        try await TestHTTPServer.with({ _ in
            Reply.json(#"{"a":1}"#, ["Cache-Control": "public, max-age=300", "Age": "100"])
        }) { server in
            let off = try HTTPFetcher(url: server.url())
            #expect(modifiedPayload(try await off.fetch(FetchRequest()))?.ttlHint == nil)
            let on = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.honorsCacheControlMaxAge = true })
            #expect(modifiedPayload(try await on.fetch(FetchRequest()))?.ttlHint == 200)
        }
    }

    @Test("a followed same-origin redirect returns the final body and the configured URL as source")
    func redirectIsFollowed() async throws {
        try await TestHTTPServer.with({ request in
            request.path == "/moved" ? Reply.make(301, ["Location": "/final.json"]) : Reply.json(#"{"moved":true}"#)
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url("/moved"))
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(String(decoding: payload.bytes, as: UTF8.self) == #"{"moved":true}"#)
            #expect(payload.source == server.url("/moved").absoluteString)
            #expect(server.requests.map(\.path) == ["/moved", "/final.json"])
        }
    }

    @Test("concurrent fetches on one fetcher each get their own complete answer")
    func concurrentFetches() async throws {
        try await TestHTTPServer.with({ request in Reply.json(#"{"path":"\#(request.path)"}"#) }) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            let bodies = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let result = try await fetcher.fetch(FetchRequest())
                        guard case .modified(let payload) = result else { return "" }
                        return String(decoding: payload.bytes, as: UTF8.self)
                    }
                }
                var all: [String] = []
                for try await body in group { all.append(body) }
                return all
            }
            #expect(bodies.count == 8)
            #expect(bodies.allSatisfy { $0 == #"{"path":"/config.json"}"# })
        }
    }
}
