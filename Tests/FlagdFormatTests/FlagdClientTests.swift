import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// flagd flags read through a client: what `value` serves agrees with what `details` reports.
@Suite("flagd through a client")
struct FlagdClientTests {
    /// A flag with a valid default variant (`high`, 9) whose targeting divides by the attribute `n`.
    static let flags = #"""
        { "flags": { "limit": { "state": "ENABLED", "variants": { "low": 1, "high": 9 }, "defaultVariant": "high",
          "targeting": { "if": [{ ">": [{ "/": [1, { "var": "n" }] }, 0] }, "low", null] } } } }
        """#
    static let limit = ConfigKey("limit", default: 5)

    /// The flag `limit` without targeting, in `state`, its one variant `high` holding the JSON `high`.
    static func flag(state: String, high: String) -> String {
        #"{ "flags": { "limit": { "state": "\#(state)", "variants": { "high": \#(high) }, "defaultVariant": "high" } } }"#
    }

    private func client(
        context: EvaluationContext = .empty, fetcher: InMemoryFetcher = InMemoryFetcher(json: Self.flags)
    ) async throws -> RemoteConfigClient {
        let client = try RemoteConfigClient.builder(fetcher: fetcher).clock(ManualClock()).payloadFormat(FlagdFormat())
            .register(Self.limit).context(context).build()
        try await client.refresh()
        return client
    }

    @Test("targeting that fails serves the key's default, not the default variant, as flagd serves the caller's")
    func failingTargetingServesTheKeysDefault() async throws {
        let client = try await client()
        let failing = EvaluationContext(attributes: ["n": 0])
        #expect(client[Self.limit, for: failing] == 5)
        let details = client.details(Self.limit, for: failing)
        #expect(details.value == 5)
        #expect(details.reason == .error)
        #expect(details.errorCode == .general)
        #expect(details.errorMessage?.contains("division by zero") == true)
        #expect(details.variant == nil)
        // The same flag still serves its variants where the targeting works.
        #expect(client[Self.limit, for: EvaluationContext(attributes: ["n": 2])] == 1)
        #expect(client[Self.limit, for: EvaluationContext(attributes: ["n": -1])] == 9)
    }

    @Test("the client's own context: a read agrees with details when the targeting fails, and after a context change")
    func ownContextAgreesWithDetails() async throws {
        let client = try await client(context: EvaluationContext(attributes: ["n": 0]))
        #expect(client[Self.limit] == 5)
        #expect(client.details(Self.limit).reason == .error)
        _ = client.updateContext { $0 = EvaluationContext(attributes: ["n": 2]) }
        #expect(client[Self.limit] == 1)
        #expect(client.details(Self.limit).reason == .targetingMatch)
        _ = client.updateContext { $0 = EvaluationContext(attributes: ["n": 0]) }
        #expect(client[Self.limit] == 5)
    }

    @Test("disabling a flag turns it off: the key's default, never the value it served before as a last good value")
    func disablingServesTheDefault() async throws {
        let fetcher = InMemoryFetcher(json: Self.flag(state: "ENABLED", high: "9"))
        let client = try await client(fetcher: fetcher)
        #expect(client[Self.limit] == 9)
        fetcher.serve(json: Self.flag(state: "DISABLED", high: "9"))
        try await client.refresh()
        #expect(client[Self.limit] == 5)
        let details = client.details(Self.limit)
        #expect(details.reason == .disabled)
        #expect(details.layer == .defaultValue)
        // A value the key refuses keeps the last good one instead (CACHED).
        fetcher.serve(json: Self.flag(state: "ENABLED", high: "9"))
        try await client.refresh()
        fetcher.serve(json: Self.flag(state: "ENABLED", high: #""nine""#))
        await #expect(throws: ConfigError.self) { try await client.refresh() }
        #expect(client[Self.limit] == 9)
        #expect(client.details(Self.limit).reason == .cached)
    }
}
