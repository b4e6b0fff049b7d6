import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import HTTPSupport
import TestSupport
import Testing

/// Redirects through the shared transport: followed within the policy, refused past it.
@Suite("URLSessionTransport follows redirects by its RedirectPolicy")
struct RedirectPolicyTests {
    private static let secret = "Bearer redirect-secret-5c4b3a29"

    @Test("a redirect on the same origin is followed with every header; one to another origin without the secret ones")
    func secretsStayOnTheirOrigin() async throws {
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { other in
            try await TestHTTPServer.with({ request in
                switch request.path {
                case "/away": Reply.make(302, ["Location": other.url().absoluteString])
                case "/same": Reply.make(307, ["Location": "/here"])
                default: Reply.json(#"{"here":true}"#)
                }
            }) { origin in
                let headers: (inout HTTPTransportRequest) -> Void = {
                    $0.setHeader("Authorization", Self.secret)
                    $0.setHeader("X-Session", "session-secret-123456")
                    $0.setHeader("X-Visible", "plain")
                    $0.secretHeaderNames.insert("x-session")
                }
                let same = try #require(await exchange(transportRequest(origin.url("/same"), headers)).response)
                #expect(same.body == Data(#"{"here":true}"#.utf8))
                #expect(origin.requests.last?.path == "/here")
                #expect(origin.requests.last?.headers["authorization"] == Self.secret)

                #expect(await exchange(transportRequest(origin.url("/away"), headers)).response?.status == 200)
                let received = try #require(other.requests.first)
                #expect(received.headers["authorization"] == nil)
                #expect(received.headers["x-session"] == nil)
                #expect(received.headers["x-visible"] == "plain")
            }
        }
    }

    @Test("a redirect back to a visited URL is a redirect loop, stopped at once and not retried")
    func loop() async throws {
        try await TestHTTPServer.with({ request in Reply.make(302, ["Location": request.path == "/a" ? "/b" : "/a"]) }) {
            server in
            let error = try #require(await exchange(transportRequest(server.url("/a"))).error)
            #expect(error.kind == .redirectLoop)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("went round in a loop (back to http://127.0.0.1:\(server.port)/a)"))
            #expect(server.requests.map(\.path) == ["/a", "/b"])
        }
    }

    @Test("one redirect more than maxRedirects is a redirect loop")
    func tooMany() async throws {
        try await TestHTTPServer.with({ request in
            Reply.make(307, ["Location": "/chain\((Int(request.path.dropFirst(6)) ?? 0) + 1)"])
        }) { server in
            let error = try #require(
                await exchange(transportRequest(server.url("/chain0")) { $0.redirects.maxRedirects = 2 }).error)
            #expect(error.kind == .redirectLoop)
            #expect(error.message.contains("limit of 2"))
            #expect(server.requests.count == 3)
        }
    }

    @Test("a redirect to plain http on another host is refused as insecure, unless the policy opts in")
    func insecure() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(302, ["Location": "http://config.example.invalid/config.json"]) }) {
            server in
            let error = try #require(await exchange(transportRequest(server.url())).error)
            #expect(error.kind == .insecureURL)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("redirected to a URL that is refused"))
            #expect(error.message.contains("allowsInsecureHTTPForNonLoopbackHosts"))
            // With the opt-in it is followed, to a host that does not resolve: a transport error, not a refusal.
            let followed = try #require(
                await exchange(
                    transportRequest(server.url()) { $0.redirects.allowsInsecureHTTPForNonLoopbackHosts = true }
                ).error)
            #expect(followed.kind == .transport)
        }
    }

    @Test("a 307 of a POST is followed with its body, or refused where URLSession would drop the body")
    func postKeepsItsBody() async throws {
        let bodies = Locked<[Data]>([])
        try await TestHTTPServer.with({ request in
            bodies.withLock { $0.append(Data()) }
            let body = try await request.bodyData
            bodies.withLock { $0[$0.count - 1] = body }
            return request.path == "/first" ? Reply.make(307, ["Location": "/second"]) : Reply.json("{}")
        }) { server in
            let result = await exchange(
                transportRequest(server.url("/first"), method: "POST") { $0.body = Data(#"{"context":{}}"#.utf8) })
            #if canImport(FoundationNetworking)
                let error = try #require(result.error)
                #expect(error.kind == .other)
                #expect(error.message.contains("redirected the POST to http://127.0.0.1:\(server.port)/second"))
                #expect(bodies.current == [Data(#"{"context":{}}"#.utf8)])
            #else
                #expect(result.response?.status == 200)
                #expect(bodies.current == [Data(#"{"context":{}}"#.utf8), Data(#"{"context":{}}"#.utf8)])
            #endif
            // A 303 turns the POST into a GET, which has no body to lose.
            let seeOther = try await TestHTTPServer.with({ request in
                request.path == "/first" ? Reply.make(303, ["Location": "/second"]) : Reply.json("{}")
            }) { other in
                await exchange(transportRequest(other.url("/first"), method: "POST") { $0.body = Data("{}".utf8) }).response
            }
            #expect(seeOther?.status == 200)
        }
    }

    @Test("a 3xx without a Location is not followed: it is the response")
    func withoutLocation() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(300) }) { server in
            let response = try #require(await exchange(transportRequest(server.url())).response)
            #expect(response.status == 300)
            let error = FetchError.forStatus(of: response, wording: ErrorWording(url: "u"), now: fixedNow)
            #expect(error.kind == .httpStatus(300))
            #expect(error.message.contains("a redirect that could not be followed"))
        }
    }
}
