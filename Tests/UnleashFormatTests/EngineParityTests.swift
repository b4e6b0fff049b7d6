import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import UnleashFormat

/// Where the format once answered otherwise than Unleash's engine, Yggdrasil (which most Unleash
/// SDKs embed). Each expected answer below is what Yggdrasil 0.21.5 (`yggdrasil-engine` 2.0.0 on
/// PyPI) answers for the same payload and context; `Integration/VendorDifferential` checks the
/// same on thousands of random cases.
@Suite("Parity with Unleash's engine")
struct EngineParityTests {
    /// A feature with one `default` strategy holding `constraint`, evaluated for `attributes`.
    static func enabled(_ constraint: String, _ attributes: [String: ConfigValue]) throws -> Bool {
        try decode(payload([feature("f", strategy: constrained(constraint))])).isEnabled("f", context(attributes))
    }

    // MARK: Constraints

    @Test("caseInsensitive is ignored on IN and NOT_IN (it applies to the STR_ operators and REGEX only)")
    func caseInsensitiveIgnoredOnInAndNotIn() throws {
        let within = #"{"contextName": "region", "operator": "IN", "values": ["africa"], "caseInsensitive": true}"#
        let outside = #"{"contextName": "region", "operator": "NOT_IN", "values": ["africa"], "caseInsensitive": true}"#
        #expect(try !Self.enabled(within, ["region": "AFRICA"]))
        #expect(try Self.enabled(within, ["region": "africa"]))
        #expect(try Self.enabled(outside, ["region": "AFRICA"]))
        #expect(try !Self.enabled(outside, ["region": "africa"]))
    }

    @Test("IN, NOT_IN and STR_ values are compared as written: not trimmed, and an empty value is a value")
    func membershipAndStringValuesAreNotTrimmed() throws {
        let empty = #"{"contextName": "x", "operator": "IN", "values": [""]}"#
        #expect(try Self.enabled(empty, ["x": ""]))
        #expect(try !Self.enabled(empty, [:]))
        let spaced = #"{"contextName": "x", "operator": "IN", "values": [" a"]}"#
        #expect(try !Self.enabled(spaced, ["x": "a"]))
        #expect(try Self.enabled(spaced, ["x": " a"]))
        let notSpaced = #"{"contextName": "x", "operator": "NOT_IN", "values": [" a"]}"#
        #expect(try Self.enabled(notSpaced, ["x": "a"]))
        let contains = #"{"contextName": "v", "operator": "STR_CONTAINS", "values": [" 1.2"]}"#
        #expect(try !Self.enabled(contains, ["v": "1.2.3-beta.10"]))
        #expect(try Self.enabled(contains, ["v": "v 1.2.3"]))
        let startsWithNothing = #"{"contextName": "x", "operator": "STR_STARTS_WITH", "values": [""]}"#
        #expect(try Self.enabled(startsWithNothing, ["x": "abc"]))
        #expect(try !Self.enabled(startsWithNothing, [:]))
    }

    // MARK: Variants

    @Test("strategy variants are hashed on the strategy's stickiness parameter, not on the first variant's")
    func strategyVariantsHashOnStrategyStickiness() throws {
        let strategy = """
            {"name": "flexibleRollout", "parameters": {"rollout": "100", "stickiness": "sessionId", "groupId": "grp"},
             "variants": [{"name": "a", "weight": 1, "stickiness": "userId", "payload": {"type": "string", "value": "A"}},
                          {"name": "b", "weight": 1, "stickiness": "userId", "payload": {"type": "string", "value": "B"}}]}
            """
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        // Yggdrasil: the same user gets b in session s1 and a in sessions s2 and s3.
        for (session, expected) in [("s1", "b"), ("s2", "a"), ("s3", "a")] {
            let asked = context(["userId": "u1", "sessionId": .string(session)])
            #expect(payload.variant("f", asked) == expected, "session \(session)")
            #expect(payload.evaluate("f.payload", in: asked).value == .string(expected.uppercased()))
        }
        let decision = try #require(payload.decision("f.variant", context(["userId": "u1", "sessionId": "s1"])))
        #expect(decision.match?.bucket?.attribute == "sessionId")
    }
}
