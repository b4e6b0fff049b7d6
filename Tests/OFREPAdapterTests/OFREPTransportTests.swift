import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import OFREPAdapter
import TestSupport
import Testing

/// What the fetcher gets from the HTTP layer it shares with HTTPFetcher (HTTPSupport's transport): redirects by the
/// same policy, and a body limit enforced while the body streams.
@Suite("OFREPFetcher over the shared HTTP layer")
struct OFREPTransportTests {
    private static let token = "Bearer ofrep-token-7d6c5b4a"

    @Test("a 307 to another origin keeps the POST and its body without the secret headers, or is refused where it cannot")
    func redirectToAnotherOrigin() async throws {
        let backend = OFREPTestBackend()
        backend.serve(#"{"flags":[]}"#)
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { other in
            try await TestHTTPServer.with({ _ in
                Reply.make(307, ["Location": other.url("/ofrep/v1/evaluate/flags").absoluteString])
            }) { origin in
                let fetcher = try fetcher(for: origin) { $0.headers = ["Authorization": Self.token, "X-Tenant": "acme"] }
                #if canImport(FoundationNetworking)
                    // swift-corelibs-foundation would resend the POST without its body: an evaluation of an empty
                    // context, answered as this user's. The transport refuses it and says what to change.
                    let error = try #require(await fetchError(fetcher, request(for: "u1")))
                    #expect(error.kind == .other)
                    #expect(error.retry == .doNotRetry)
                    #expect(error.message.contains("use the URL it redirects to"))
                    #expect(!error.message.contains("ofrep-token"))
                    #expect(backend.seen.isEmpty)
                #else
                    let result = try await fetcher.fetch(request(for: "u1"))
                    #expect(result.outcome == .modified)
                    let seen = try #require(backend.seen.first)
                    #expect(seen.method == "POST")
                    #expect(seen.headers["authorization"] == nil)
                    #expect(seen.headers["x-tenant"] == "acme")
                    #expect(seen.body == .object(["context": .object(["targetingKey": "u1", "plan": "pro"])]))
                #endif
            }
        }
    }

    @Test("redirects that go round in a loop are a redirectLoop, not retried")
    func redirectLoop() async throws {
        try await TestHTTPServer.with({ request in
            Reply.make(302, ["Location": request.path.hasPrefix("/b") ? "/a" : "/b"])
        }) { server in
            let error = try #require(await fetchError(try fetcher(for: server), request(for: "u1")))
            #expect(error.kind == .redirectLoop)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("the OFREP server at"))
        }
    }

    @Test("a bulk evaluation over maxBodySize is aborted while it streams")
    func oversizedBodyIsAbortedEarly() async throws {
        let counter = ByteCounter()
        let total = 256 * 1024 * 1024
        try await TestHTTPServer.with({ _ in Reply.large(total, declareLength: false, counter: counter) }) { server in
            let error = try #require(
                await fetchError(try fetcher(for: server) { $0.maxBodySize = 64 * 1024 }, request(for: "u1")))
            #expect(error.kind == .bodyTooLarge(limit: 64 * 1024))
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("raise maxBodySize or serve fewer flags"))
        }
        #expect(counter.total < total / 4)
    }
}
