import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import TestSupport
import Testing

@testable import EtcdAdapter

/// The fetcher against a scripted stand-in for etcd's gateway: faults, holds, counted requests and
/// tokens, which a real cluster cannot produce on demand.
@Suite("EtcdFetcher against a scripted gateway")
struct EtcdFetcherTests {
    private static let password = "contract-password-5b8e"

    private static func fetcher(_ server: TestHTTPServer, password: String? = nil) throws -> EtcdFetcher {
        let credentials = password.map { EtcdCredentials(username: "app", password: $0) }
        return try EtcdFetcher(
            connection: EtcdConnection(endpoints: [server.url("")], credentials: credentials, requestTimeout: 15),
            layout: .document(key: FakeGateway.key))
    }

    @Test("passes every check of FetcherContract, with faults, a held request, counted requests and a secret")
    func contract() async throws {
        let gateway = FakeGateway(password: Self.password)
        try await TestHTTPServer.with({ await gateway.respond(to: $0) }) { server in
            let report = await FetcherContract(
                subject: "EtcdFetcher (scripted gateway)",
                makeFetcher: { try Self.fetcher(server, password: Self.password) },
                serve: { gateway.put($0) },
                setFault: { gateway.setFault($0) },
                hold: { ContractHold(gateway.holdNext()) },
                requestCount: { gateway.count("/v3/kv/range") },
                secrets: [Self.password]
            ).run()
            report.recordIssues()
            #expect(report.passed)
            #expect(report.skipped.isEmpty, "every check runs")
        }
    }

    @Test("an expired token is replaced once, transparently; concurrent fetches share one authentication")
    func tokenRefresh() async throws {
        let gateway = FakeGateway(password: Self.password)
        try await TestHTTPServer.with({ await gateway.respond(to: $0) }) { server in
            let fetcher = try Self.fetcher(server, password: Self.password)
            let results = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { (try? await fetcher.fetch(FetchRequest())) != nil } }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results == Array(repeating: true, count: 8))
            #expect(gateway.count("/v3/auth/authenticate") == 1, "eight fetches, one authentication")

            gateway.invalidateTokens()
            guard case .modified = try await fetcher.fetch(FetchRequest()) else {
                Issue.record("the fetch after the token was invalidated must succeed")
                return
            }
            #expect(gateway.count("/v3/auth/authenticate") == 2)
            #expect(gateway.count("/v3/kv/range") == 10, "eight reads, one refused, one with the new token")
        }
    }

    @Test("a wrong password and missing credentials are not retried, and say what to do")
    func refusedCredentials() async throws {
        let gateway = FakeGateway(password: Self.password)
        try await TestHTTPServer.with({ await gateway.respond(to: $0) }) { server in
            let wrong = try Self.fetcher(server, password: "wrong")
            let refused = await #expect(throws: FetchError.self) { try await wrong.fetch(FetchRequest()) }
            #expect(refused?.retry == .doNotRetry)
            #expect(refused?.message.contains("check the credentials") == true)
            #expect(gateway.count("/v3/kv/range") == 0, "nothing is read without a token")

            let anonymous = try Self.fetcher(server)
            let missing = await #expect(throws: FetchError.self) { try await anonymous.fetch(FetchRequest()) }
            #expect(missing?.message.contains("give EtcdCredentials(username:password:)") == true)
        }
    }

    @Test("an endpoint that is not an etcd gateway is named in an unreachable error, retried with backoff")
    func notAGateway() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(404, ["Content-Type": "text/plain"], body: Data("no".utf8)) }) {
            server in
            let error = await #expect(throws: FetchError.self) { try await Self.fetcher(server).fetch(FetchRequest()) }
            #expect(error?.kind == .transport)
            #expect(error?.retry == .backoff)
            #expect(error?.message.contains("answered HTTP 404 with something other than etcd's JSON") == true)
        }
    }

    @Test("a cancelled fetch ends with FetchError.cancelled")
    func cancellation() async throws {
        let gateway = FakeGateway()
        try await TestHTTPServer.with({ await gateway.respond(to: $0) }) { server in
            let fetcher = try Self.fetcher(server)
            let hold = gateway.holdNext()
            let task = Task { try await fetcher.fetch(FetchRequest()) }
            await hold.waitUntilReached()
            task.cancel()
            let result = await task.result
            #expect(throws: FetchError.cancelled) { try result.get() }
            hold.release()
        }
    }
}
