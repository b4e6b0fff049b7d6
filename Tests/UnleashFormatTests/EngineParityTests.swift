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

    // MARK: Decisions where the format followed Unleash's Node SDK (issue 29, item 7)

    @Test("an empty groupId is a group: hashed as \"\", not replaced by the feature's name")
    func emptyGroupIdIsAGroup() throws {
        let flexible = #"{"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "userId", "groupId": ""}}"#
        let gradual = #"{"name": "gradualRolloutUserId", "parameters": {"percentage": "50", "groupId": ""}}"#
        let payload = try decode(payload([feature("f", strategy: flexible), feature("g", strategy: gradual)]))
        // Yggdrasil: u0 … u4 are out, u5 … u7 in, for both.
        for (index, expected) in [false, false, false, false, false, true, true, true].enumerated() {
            #expect(payload.isEnabled("f", context([:], key: "u\(index)")) == expected, "u\(index)")
            #expect(payload.isEnabled("g", context([:], key: "u\(index)")) == expected, "u\(index)")
        }
    }

    @Test("gradualRolloutUserId and gradualRolloutSessionId without a groupId are off, and lint() says why")
    func gradualRolloutWithoutGroupIdIsOff() throws {
        let payload = try decode(
            payload([
                feature("u", strategy: #"{"name": "gradualRolloutUserId", "parameters": {"percentage": "100"}}"#),
                feature("s", strategy: #"{"name": "gradualRolloutSessionId", "parameters": {"percentage": "100"}}"#),
            ]))
        #expect(!payload.isEnabled("u", context(["sessionId": "s1"], key: "u1")))
        #expect(!payload.isEnabled("s", context(["sessionId": "s1"], key: "u1")))
        #expect(payload.rules["u"]?.lint().count == 1)
    }

    @Test("an empty userId is an id: default stickiness hashes it rather than moving on to the sessionId")
    func emptyUserIdIsAnId() throws {
        let strategy = #"{"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "default", "groupId": "g"}}"#
        let variants = """
            "variants": [{"name": "a", "weight": 1, "stickiness": "default"}, {"name": "b", "weight": 1, "stickiness": "default"},
                         {"name": "c", "weight": 1, "stickiness": "default"}]
            """
        let rollout = try decode(payload([feature("f", strategy: strategy, extra: variants)]))
        // Yggdrasil: off for the empty user id, whatever the session.
        for session in ["s0", "s1", "s2", "s3"] {
            let asked = context(["userId": "", "sessionId": .string(session)])
            #expect(!rollout.isEnabled("f", asked))
            let decision = try #require(rollout.decision("f", asked))
            guard case .outsideRollout(let placement)? = decision.unmatched.last?.reason else {
                Issue.record("expected outside rollout, got \(decision.unmatched)")
                continue
            }
            #expect(placement.attribute == "userId")
            #expect(placement.value == Double(UnleashHash.strategyValue(id: "", groupId: "g")))
        }
        let always = try decode(payload([feature("f", strategy: "{\"name\": \"default\"}", extra: variants)]))
        let decision = try #require(always.decision("f.variant", context(["userId": "", "sessionId": "s1"])))
        #expect(decision.match?.bucket?.attribute == "userId")
    }

    @Test("an IPv4-mapped IPv6 address is an IPv6 address: not in 10.0.0.1/32, in ::ffff:10.0.0.0/104")
    func ipv4MappedAddressIsIPv6() throws {
        let payload = try decode(
            payload([
                feature("v4", strategy: #"{"name": "remoteAddress", "parameters": {"IPs": "10.0.0.1/32"}}"#),
                feature("mapped", strategy: #"{"name": "remoteAddress", "parameters": {"IPs": "::ffff:10.0.0.0/104"}}"#),
                feature(
                    "cidr",
                    strategy: constrained(#"{"contextName": "remoteAddress", "operator": "IN_CIDR", "values": ["10.0.0.0/8"]}"#)),
            ]))
        let mapped = context(["remoteAddress": "::ffff:10.0.0.1"])
        let plain = context(["remoteAddress": "10.0.0.1"])
        #expect(!payload.isEnabled("v4", mapped) && payload.isEnabled("mapped", mapped) && !payload.isEnabled("cidr", mapped))
        #expect(payload.isEnabled("v4", plain) && !payload.isEnabled("mapped", plain) && payload.isEnabled("cidr", plain))
    }

    @Test("a dependency naming variants holds when the parent has no variant to give; the parent's switch aside")
    func dependencyOnVariantsOfAParentWithoutVariants() throws {
        let payload = try decode(
            payload([
                #"{"name": "p", "enabled": true, "strategies": []}"#,
                #"{"name": "c", "enabled": true, "strategies": [], "dependencies": [{"feature": "p", "variants": ["x"]}]}"#,
                #"{"name": "p2", "enabled": true, "strategies": [], "variants": [{"name": "y", "weight": 1}]}"#,
                #"{"name": "c2", "enabled": true, "strategies": [], "dependencies": [{"feature": "p2", "variants": ["x"]}]}"#,
                #"{"name": "p3", "enabled": false, "strategies": [], "variants": [{"name": "x", "weight": 1}]}"#,
                #"{"name": "c3", "enabled": true, "strategies": [], "dependencies": [{"feature": "p3", "enabled": false, "variants": ["x"]}]}"#,
                #"{"name": "p4", "enabled": false, "strategies": [], "variants": [{"name": "y", "weight": 1}]}"#,
                #"{"name": "c4", "enabled": true, "strategies": [], "dependencies": [{"feature": "p4", "enabled": false, "variants": ["x"]}]}"#,
            ]))
        // Yggdrasil: c on (p has no variants), c2 off (p2 serves y), c3 on and c4 off (a disabled
        // parent is checked against the variant it would serve).
        #expect(payload.isEnabled("c"))
        #expect(!payload.isEnabled("c2"))
        #expect(payload.isEnabled("c3"))
        #expect(!payload.isEnabled("c4"))
    }

    @Test("default variant stickiness is userId, then sessionId, then a random draw: never remoteAddress")
    func defaultVariantStickinessSkipsRemoteAddress() throws {
        let variants = #""variants": [{"name": "a", "weight": 1, "stickiness": "default"}, {"name": "b", "weight": 1}]"#
        let payload = try decode(payload([feature("f", strategy: "{\"name\": \"default\"}", extra: variants)]))
        let decision = try #require(payload.decision("f.variant", context(["remoteAddress": "10.0.0.1"])))
        #expect(decision.match?.bucket?.attribute == "random")
        #expect(decision.attributesRead == ["userId", "sessionId"])
    }

    @Test(
        "NUM_ reads the field as Rust reads a number: no spaces, no hexadecimal",
        arguments: [
            ("16", "0x10", false), ("16", "16", true), ("42", " 42", false), ("42", "42 ", false), ("42", "4.2e1", true),
            ("42", "+42", true), ("42", "42.", true), ("42", "42", true), (" 42", "42", true),
        ])
    func numbersAsTheEngineReadsThem(constraintValue: String, field: String, expected: Bool) throws {
        let constraint = #"{"contextName": "x", "operator": "NUM_EQ", "value": "\#(constraintValue)"}"#
        #expect(try Self.enabled(constraint, ["x": .string(field)]) == expected)
    }

    @Test("SEMVER_ reads the field untrimmed: \" 1.2.3\" is not a version")
    func versionsAreNotTrimmed() throws {
        let constraint = #"{"contextName": "x", "operator": "SEMVER_EQ", "value": "1.2.3"}"#
        #expect(try Self.enabled(constraint, ["x": "1.2.3"]))
        #expect(try !Self.enabled(constraint, ["x": " 1.2.3"]))
        #expect(try !Self.enabled(constraint, ["x": "1.2.3 "]))
    }

    // MARK: More of the engine's reading, found by the differential test

    @Test("a parent's flexibleRollout without a groupId hashes in its dependent's name, as the engine evaluates it")
    func parentIsEvaluatedUnderItsDependentsName() throws {
        let payload = try decode(
            payload([
                feature(
                    "parent", strategy: #"{"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "userId"}}"#),
                #"{"name": "child", "enabled": true, "strategies": [], "dependencies": [{"feature": "parent"}]}"#,
            ]))
        for index in 0..<100 {
            let user = "u\(index)"
            #expect(
                payload.isEnabled("parent", context([:], key: user))
                    == (UnleashHash.strategyValue(id: user, groupId: "parent") <= 50))
            #expect(
                payload.isEnabled("child", context([:], key: user))
                    == (UnleashHash.strategyValue(id: user, groupId: "child") <= 50))
        }
    }

    @Test("strings compare as UTF-8 bytes, and lower-case as Rust does (a word-final Σ is ς)")
    func stringsCompareAsBytes() throws {
        let composed = #"{"contextName": "x", "operator": "IN", "values": ["\u00e9"]}"#
        let startsWithE = #"{"contextName": "x", "operator": "STR_STARTS_WITH", "values": ["e"]}"#
        let endsWithFinalSigma = #"{"contextName": "x", "operator": "STR_ENDS_WITH", "values": ["ος"], "caseInsensitive": true}"#
        let endsWithSigma = #"{"contextName": "x", "operator": "STR_ENDS_WITH", "values": ["οσ"], "caseInsensitive": true}"#
        let decomposed: ConfigValue = "e\u{301}"
        #expect(try !Self.enabled(composed, ["x": decomposed]))
        #expect(try Self.enabled(composed, ["x": "\u{e9}"]))
        #expect(try Self.enabled(startsWithE, ["x": decomposed]))
        #expect(try !Self.enabled(startsWithE, ["x": "\u{e9}"]))
        #expect(try Self.enabled(endsWithFinalSigma, ["x": "ΟΔΟΣ"]))
        #expect(try !Self.enabled(endsWithSigma, ["x": "ΟΔΟΣ"]))
        #expect(UnleashText.lowercased("ΣΑΣ Σ") == "σας σ")
    }

    @Test("userIds are split on commas and trimmed of any white space; an empty entry is the empty id")
    func userIdsAsTheEngineReadsThem() throws {
        let strategy = #"{"name": "userWithId", "parameters": {"userIds": "a,, b ,\u00a0c\u00a0"}}"#
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        for (user, expected) in [("a", true), ("", true), ("b", true), ("c", true), (" b", false)] {
            #expect(payload.isEnabled("f", context(["userId": .string(user)])) == expected, "\"\(user)\"")
        }
    }

    @Test("IN_CIDR values as the engine reads them: netmasks and +prefixes yes, spaces and leading zeros no")
    func rangesAsTheEngineReadsThem() throws {
        let constraint = #"""
            {"contextName": "remoteAddress", "operator": "IN_CIDR", "values": ["10.0.0.0/255.0.0.0", " 192.168.0.0/16", "172.16.0.0/+12"]}
            """#
        for (address, expected) in [
            ("10.1.2.3", true), ("192.168.1.1", false), ("172.16.5.5", true), ("172.32.0.1", false), ("010.1.2.3", false),
        ] {
            #expect(try Self.enabled(constraint, ["remoteAddress": .string(address)]) == expected, "\(address)")
        }
    }

    @Test(
        "a context's date-time as chrono reads it: t or a space, any fraction, offsets without a colon, UTC, spaces",
        arguments: [
            ("2024-05-06T08:00:01Z", true), ("2024-05-06 08:00:01Z", true), ("2024-05-06t08:00:01z", true),
            ("2024-05-06T08:00:01.5Z", true), ("2024-05-06T08:00:01.123456789Z", true), ("2024-05-06T10:00:01+02:00", true),
            ("2024-05-06T10:00:01+0200", true), ("2024-05-06T10:00:01+02", false), ("2024-05-06T08:00:01", false),
            ("2024-05-06", false), (" 2024-05-06T08:00:01Z", true), ("2024-05-06T08:00:01Z ", true),
            ("2024-05-06T08:00:01 UTC", true), ("2024-05-06T08:00:01-00:00", true), ("2024-05-06T08:00:60Z", true),
            ("2024-5-6T08:00:01Z", true), ("+2024-05-06T08:00:01Z", true), ("2024-05-06T08:00:01,5Z", false),
            ("2024-05-06T08:00:01.Z", false), ("2024-05-06T24:00:00Z", false), ("2024-05-06T08:00Z", false),
            ("20240506T080001Z", false), ("2024-05-06T08:00:01+02:00:00", false),
        ])
    func datesAsTheEngineReadsThem(time: String, expected: Bool) throws {
        let constraint = #"{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2024-05-06T08:00:00.000Z"}"#
        #expect(try Self.enabled(constraint, ["currentTime": .string(time)]) == expected)
    }

    @Test("percentages as the engine reads them: gradualRolloutRandom draws 1 … 99 and is on below the percentage")
    func randomPercentages() throws {
        let features = ["0", "1", "100", "150"].map { percentage in
            feature(percentage, strategy: #"{"name": "gradualRolloutRandom", "parameters": {"percentage": "\#(percentage)"}}"#)
        }
        let payload = try decode(
            payload(
                features + [
                    feature(
                        "padded",
                        strategy:
                            #"{"name": "flexibleRollout", "parameters": {"rollout": "050", "stickiness": "userId", "groupId": "g"}}"#
                    )
                ]))
        for index in 0..<200 {
            let asked = context(["n": .int(Int64(index))], key: "u\(index)")
            #expect(!payload.isEnabled("0", asked) && !payload.isEnabled("1", asked))
            #expect(payload.isEnabled("100", asked) && payload.isEnabled("150", asked))
            #expect(payload.isEnabled("padded", asked) == (UnleashHash.strategyValue(id: "u\(index)", groupId: "g") <= 50))
        }
    }

    @Test("the empty regular expression, as when REGEX has no value, matches every present field")
    func emptyPatternMatchesEverything() throws {
        let constraint = #"{"contextName": "x", "operator": "REGEX"}"#
        #expect(try Self.enabled(constraint, ["x": "anything"]))
        #expect(try Self.enabled(constraint, ["x": ""]))
        #expect(try !Self.enabled(constraint, [:]))
    }

    @Test("a strategy variant's overrides are ignored (Unleash's schema has none there)")
    func strategyVariantOverridesAreIgnored() throws {
        let strategy = """
            {"name": "default", "variants": [{"name": "a", "weight": 1, "overrides": [{"contextName": "userId", "values": ["u0"]}]},
                                             {"name": "b", "weight": 1}]}
            """
        let payload = try decode(payload([feature("sv", strategy: strategy)]))
        // Yggdrasil: u0 hashes to b in group "sv".
        #expect(payload.variant("sv", context([:], key: "u0")) == "b")
    }
}
