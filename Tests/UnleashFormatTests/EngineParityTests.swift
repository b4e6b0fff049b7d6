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

    @Test("a random draw is made once per context: a feature's Boolean, variant and payload keys agree")
    func oneDrawPerContextAcrossAFeaturesKeys() throws {
        let json = payload([
            feature(
                "f",
                strategy: #"{"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "random"}}"#,
                extra: """
                    "variants": [
                      {"name": "red", "weight": 1, "stickiness": "random", "payload": {"type": "string", "value": "RED"}},
                      {"name": "green", "weight": 1, "stickiness": "random", "payload": {"type": "string", "value": "GREEN"}},
                      {"name": "blue", "weight": 1, "stickiness": "random", "payload": {"type": "string", "value": "BLUE"}}]
                    """),
            feature("g", strategy: #"{"name": "gradualRolloutRandom", "parameters": {"percentage": "50"}}"#),
        ])
        let payload = try decode(json)
        let payloadOf = ["red": ConfigValue.string("RED"), "green": "GREEN", "blue": "BLUE"]
        var seen: Set<String> = []
        var answers: [ConfigValue?] = []
        for index in 0..<300 {
            let asked = context(["n": .int(Int64(index))])
            let enabled = payload.evaluate("f", in: asked).value
            let variant = payload.evaluate("f.variant", in: asked).value?.stringValue ?? "?"
            let value = payload.evaluate("f.payload", in: asked).value
            #expect(enabled == .bool(variant != "disabled"), "context \(index): \(enabled ?? nil), \(variant)")
            #expect(value == payloadOf[variant], "context \(index): variant \(variant), payload \(value ?? nil)")
            // The same context draws the same again; gradualRolloutRandom too.
            #expect(payload.evaluate("f.variant", in: asked).value == .string(variant))
            let random = payload.evaluate("g", in: asked).value
            #expect(payload.evaluate("g", in: asked).value == random)
            seen.insert(variant)
            answers.append(random)
        }
        #expect(seen == ["red", "green", "blue", "disabled"], "every outcome is drawn: \(seen)")
        // Another decoding of the same bytes draws afresh.
        let again = try decode(json)
        let redrawn = (0..<300).map { again.evaluate("g", in: context(["n": .int(Int64($0))])).value }
        #expect(redrawn != answers)
    }
}
