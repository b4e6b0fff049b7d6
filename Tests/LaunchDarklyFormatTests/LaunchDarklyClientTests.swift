import ConfigDomain
import ConfigPorts
import Foundation
import LaunchDarklyFormat
import RemoteConfig
import TestDoubles
import Testing

/// LaunchDarkly flags read through a client, an app's (one context) and a server's (a context per call).
@Suite("LaunchDarkly format through a client")
struct LaunchDarklyClientTests {
    static let data = #"""
        {"flags": {
          "new-checkout": {"key": "new-checkout", "version": 4, "on": true, "salt": "s", "variations": [false, true],
            "offVariation": 0, "fallthrough": {"variation": 0},
            "rules": [{"id": "staff", "clauses": [{"attribute": "email", "op": "endsWith", "values": ["@example.com"]}], "variation": 1}]},
          "limit": {"key": "limit", "version": 1, "on": false, "variations": [10, 20]},
          "gated": {"key": "gated", "version": 1, "on": true, "variations": [1, 2], "offVariation": 0, "fallthrough": {"variation": 1},
            "prerequisites": [{"key": "new-checkout", "variation": 1}]}
        }, "segments": {}}
        """#
    static let checkout = ConfigKey("new-checkout", default: false)
    static let limit = ConfigKey("limit", default: 5)
    static let gated = ConfigKey("gated", default: 0)

    private func client(context: EvaluationContext = .empty) async throws -> RemoteConfigClient {
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: Self.data)).clock(ManualClock())
            .payloadFormat(LaunchDarklyFormat()).register(Self.checkout).register(Self.limit).register(Self.gated)
            .context(context).build()
        try await client.refresh()
        return client
    }

    @Test("an app's context: the rule's variation, and details that tell LaunchDarkly's reason")
    func appContext() async throws {
        let client = try await client(context: EvaluationContext(targetingKey: "u1", attributes: ["email": "a@example.com"]))
        #expect(client[Self.checkout] == true)
        let details = client.details(Self.checkout)
        #expect(details.reason == .targetingMatch)
        #expect(details.variant == "1")
        #expect(details.flagMetadata == ["reasonKind": "RULE_MATCH", "ruleIndex": 0, "ruleId": "staff", "variationIndex": 1])
        #expect(details.description.contains("RULE_MATCH"))
        #expect(client[Self.gated] == 2)
    }

    @Test("a server's calls: each context its own answer, nothing swapped")
    func perCall() async throws {
        let client = try await client()
        #expect(client[Self.checkout, for: EvaluationContext(targetingKey: "u1", attributes: ["email": "a@example.com"])] == true)
        #expect(client[Self.checkout, for: EvaluationContext(targetingKey: "u2", attributes: ["email": "b@test.org"])] == false)
        let gated = client.details(Self.gated, for: EvaluationContext(targetingKey: "u2"))
        #expect(gated.value == 1)
        #expect(gated.reason == .defaultValue)
        #expect(gated.flagMetadata["prerequisiteKey"] == "new-checkout")
    }

    @Test("a flag that is off without an off variation serves the key's default, DISABLED")
    func offWithoutVariation() async throws {
        let client = try await client(context: EvaluationContext(targetingKey: "u1"))
        #expect(client[Self.limit] == 5)
        let details = client.details(Self.limit)
        #expect(details.reason == .disabled)
        #expect(details.flagMetadata["reasonKind"] == "OFF")
    }

    @Test("a context without a key serves the key's default, ERROR TARGETING_KEY_MISSING, as LaunchDarkly refuses it")
    func noKey() async throws {
        let client = try await client()
        #expect(client[Self.checkout] == false)
        #expect(client[Self.gated] == 0)
        let details = client.details(Self.gated)
        #expect(details.reason == .error)
        #expect(details.errorCode == .targetingKeyMissing)
        #expect(details.flagMetadata["errorKind"] == "USER_NOT_SPECIFIED")
    }
}
