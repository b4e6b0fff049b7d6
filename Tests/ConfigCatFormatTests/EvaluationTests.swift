import ConfigCatFormat
import ConfigDomain
import Foundation
import Testing

/// Settings, targeting rules, percentage options, segments and prerequisite flags, the reasons and
/// variants they answer with, and how an evaluation context becomes ConfigCat's User Object.
@Suite("ConfigCat evaluation")
struct EvaluationTests {
    static let config = #"""
        {"p": {"u": "https://cdn-global.configcat.com", "r": 0, "s": "salt"},
         "s": [{"n": "Beta", "r": [{"a": "Email", "c": 2, "l": ["@example.com"]}]}],
         "f": {
           "plain": {"t": 2, "v": {"i": 42}, "i": "p42"},
           "noVariation": {"t": 3, "v": {"d": 1}},
           "checkout": {"t": 0, "v": {"b": false}, "i": "off",
             "r": [{"c": [{"s": {"s": 0, "c": 0}}], "s": {"v": {"b": true}, "i": "beta"}},
                   {"c": [{"u": {"a": "Country", "c": 0, "l": ["DE"]}}],
                    "p": [{"p": 30, "v": {"b": true}, "i": "de-on"}, {"p": 70, "v": {"b": false}, "i": "de-off"}]}],
             "p": [{"p": 25, "v": {"b": true}, "i": "on"}, {"p": 75, "v": {"b": false}, "i": "rest"}]},
           "byPlan": {"t": 1, "a": "Plan", "v": {"s": "none"}, "p": [{"p": 50, "v": {"s": "A"}, "i": "a"}, {"p": 50, "v": {"s": "B"}, "i": "b"}]},
           "byIdentifier": {"t": 1, "a": "Identifier", "v": {"s": "none"}, "p": [{"p": 50, "v": {"s": "A"}}, {"p": 50, "v": {"s": "B"}}]},
           "dependent": {"t": 1, "v": {"s": "off"},
             "r": [{"c": [{"p": {"f": "checkout", "c": 0, "v": {"b": true}}}], "s": {"v": {"s": "on"}}},
                   {"c": [{"p": {"f": "plain", "c": 1, "v": {"i": 42}}}], "s": {"v": {"s": "never"}}}]},
           "notInBeta": {"t": 0, "v": {"b": false}, "r": [{"c": [{"s": {"s": 0, "c": 1}}], "s": {"v": {"b": true}}}]}
         }}
        """#

    @Test("a setting without rules serves its value to everyone: STATIC, its variation ID the variant")
    func staticSetting() throws {
        let payload = try Fixture.decode(Self.config)
        for context in [EvaluationContext.empty, Fixture.context(["Country": "DE"])] {
            let details = payload.evaluate("plain", in: context)
            #expect(details.value == 42)
            #expect(details.reason == .staticValue)
            #expect(details.variant == "p42")
        }
        #expect(payload.values["plain"] == 42)
        #expect(payload.evaluate("noVariation").value == .double(1))
        #expect(payload.evaluate("noVariation").variant == nil)
    }

    @Test("a matched rule serves its value (TARGETING_MATCH); a segment decides who is in it")
    func targetingMatch() throws {
        let details = try Fixture.decode(Self.config).evaluate("checkout", in: Fixture.context(["email": "a@example.com"]))
        #expect(details.value == true)
        #expect(details.reason == .targetingMatch)
        #expect(details.variant == "beta")
        #expect(details.decision?.match?.ruleID == "r[0]")
        #expect(details.decision?.attributesRead == ["email"])
    }

    @Test("percentage options bucket on the identifier: SHA-1 of key and id, first 7 hex digits, modulo 100")
    func splitOnIdentifier() throws {
        let payload = try Fixture.decode(Self.config)
        // Python's hashlib: "checkout" + "u1" is bucket 63, "checkout" + "u4" bucket 13.
        let rest = payload.evaluate("checkout", in: Fixture.context(key: "u1"))
        #expect(rest.value == false)
        #expect(rest.reason == .split)
        #expect(rest.variant == "rest")
        #expect(rest.decision?.match?.ruleID == "p[1]")
        #expect(rest.decision?.match?.bucket == BucketPlacement(attribute: "targetingKey", value: 63, lower: 25, upper: 100))
        let on = payload.evaluate("checkout", in: Fixture.context(key: "u4"))
        #expect(on.value == true)
        #expect(on.variant == "on")
        #expect(on.decision?.match?.bucket?.value == 13)
    }

    @Test("percentage options inside a rule, on the rule's match: r[1].p[0]")
    func splitInsideRule() throws {
        let details = try Fixture.decode(Self.config).evaluate("checkout", in: Fixture.context(["country": "DE"], key: "u4"))
        #expect(details.reason == .split)
        #expect(details.decision?.match?.ruleID == "r[1].p[0]")
        #expect(details.variant == "de-on")
        #expect(details.decision?.unmatched.map(\.ruleID) == ["r[0]"])
    }

    @Test("no User Object skips conditions and percentage options: the setting's value, DEFAULT")
    func noUser() throws {
        let details = try Fixture.decode(Self.config).evaluate("checkout", in: .empty)
        #expect(details.value == false)
        #expect(details.reason == .defaultValue)
        #expect(details.variant == "off")
        #expect(
            details.decision?.unmatched.first
                == UnmatchedRule(ruleID: "r[0]", reason: .other("cannot evaluate, User Object is missing")))
    }

    @Test("percentage options on a custom attribute: skipped without it, bucketed on its text with it")
    func splitOnAttribute() throws {
        let payload = try Fixture.decode(Self.config)
        let without = payload.evaluate("byPlan", in: Fixture.context())
        #expect(without.value == "none")
        #expect(without.reason == .defaultValue)
        // "byPlan" + "pro" is bucket 80; "byPlan" + "3" (the number 3.0 as text) bucket 36.
        #expect(payload.evaluate("byPlan", in: Fixture.context(["Plan": "pro"])).value == "B")
        #expect(payload.evaluate("byPlan", in: Fixture.context(["Plan": 3.0])).value == "A")
        #expect(payload.evaluate("byPlan", in: Fixture.context(["Plan": 3.0])).decision?.match?.bucket?.attribute == "Plan")
    }

    @Test("a prerequisite flag is evaluated for the same user and compared with EQUALS or NOT EQUALS")
    func prerequisites() throws {
        let payload = try Fixture.decode(Self.config)
        let on = payload.evaluate("dependent", in: Fixture.context(["email": "b@example.com"]))
        #expect(on.value == "on")
        #expect(on.decision?.attributesRead == ["email"])
        let off = payload.evaluate("dependent", in: Fixture.context(key: "u1"))
        #expect(off.value == "off")
        #expect(off.decision?.unmatched.map(\.reason) == [.conditionFailed, .conditionFailed])
    }

    @Test("IS NOT IN SEGMENT is the negation of IS IN, and a segment's missing attribute skips the rule")
    func segmentNegation() throws {
        let payload = try Fixture.decode(Self.config)
        #expect(payload.evaluate("notInBeta", in: Fixture.context(["email": "x@test.org"])).value == true)
        #expect(payload.evaluate("notInBeta", in: Fixture.context(["email": "x@example.com"])).value == false)
        let missing = payload.evaluate("notInBeta", in: Fixture.context())
        #expect(missing.value == false)
        #expect(missing.decision?.unmatched.first?.reason == .other("cannot evaluate, the User.Email attribute is missing"))
    }

    @Test(
        "the context maps to the User Object: targetingKey is Identifier, email and country are Email and Country",
        arguments: [
            ("Identifier", Fixture.context(key: "u1"), RuleOutcome.match),
            (
                "Identifier", Fixture.context(["Identifier": "u1"], key: nil),
                .skipped("cannot evaluate, the User.Identifier attribute is missing")
            ),
            ("Email", Fixture.context(["email": "u1"]), .match),
            ("Email", Fixture.context(["Email": "u1"]), .skipped("cannot evaluate, the User.Email attribute is missing")),
            ("email", Fixture.context(["email": "u1"]), .skipped("cannot evaluate, the User.email attribute is missing")),
            ("Country", Fixture.context(["country": "u1"]), .match),
            ("Plan", Fixture.context(["Plan": "u1"]), .match),
            ("targetingKey", Fixture.context(key: "u1"), .skipped("cannot evaluate, the User.targetingKey attribute is missing")),
        ])
    func contextMapping(attribute: String, context: EvaluationContext, outcome: RuleOutcome) throws {
        let payload = try Fixture.decode(Fixture.rule(Fixture.user(attribute, 28, #""s": "u1""#)))
        #expect(payload.outcome(in: context) == outcome)
    }

    @Test("an empty identifier is hashed as is; no identifier is hashed as the empty text, as the reference SDK does")
    func emptyIdentifier() throws {
        let payload = try Fixture.decode(Self.config)
        // "checkout" + "" is bucket 83: the second option either way.
        #expect(payload.evaluate("checkout", in: Fixture.context(key: "")).decision?.match?.bucket?.value == 83)
        #expect(payload.evaluate("checkout", in: Fixture.context(["Plan": "x"], key: nil)).decision?.match?.bucket?.value == 83)
        // Options on the attribute Identifier read it as "" too ("byIdentifier" + "" is bucket 15), as the reference SDK does.
        let onIdentifier = payload.evaluate("byIdentifier", in: Fixture.context(["Plan": "x"], key: nil))
        #expect(onIdentifier.value == "A")
        #expect(
            onIdentifier.decision?.match?.bucket == BucketPlacement(attribute: "targetingKey", value: 15, lower: 0, upper: 50))
    }

    /// ConfigCat's shared SDK test data (`test/data/comparison_attribute_conversion.json` in
    /// configcat/js-unified-sdk, MIT licence, Copyright (c) ConfigCat): a setting per conversion whose
    /// rule compares `Custom1` with EQUALS, then splits 5 × 20% on `Custom1`; the value the user
    /// `12345` gets for each attribute value.
    static let conversions: [(key: String, text: String, attribute: ConfigValue, expected: String)] = [
        ("numberToStringConversion", "0.12345", 0.12345, "1"), ("numberToStringConversionInt", "125", 125.0, "4"),
        ("numberToStringConversionPositiveExp", "-1.23456789e+96", -1.23456789e96, "2"),
        ("numberToStringConversionNegativeExp", "-1.23456789e-96", -12345.6789e-100, "4"),
        ("dateToStringConversion", "1680307199.999", 1_680_307_199.999, "3"),
        ("stringArrayToStringConversion", #"[\"read\",\"Write\",\" eXecute \"]"#, ["read", "Write", " eXecute "], "4"),
        ("stringArrayToStringConversionEmpty", "[]", [], "5"),
        ("stringArrayToStringConversionSpecialChars", #"[\"+<>%\\\"'\\\\/\\t\\r\\n\"]"#, ["+<>%\"'\\/\t\r\n"], "3"),
        ("stringArrayToStringConversionUnicode", #"[\"äöüÄÖÜçéèñışğâ¢™✓😀\"]"#, ["äöüÄÖÜçéèñışğâ¢™✓😀"], "2"),
    ]

    @Test("attributes convert to ConfigCat's canonical text (its shared test data)", arguments: conversions.indices)
    func canonicalText(row: Int) throws {
        let (key, text, attribute, expected) = Self.conversions[row]
        let options = (1...5).map { #"{"p": 20, "v": {"s": "\#($0)"}}"# }.joined(separator: ", ")
        let json = """
            {"p": {"u": "https://test-cdn-global.configcat.com", "r": 0, "s": "uM29sy1rjx71ze3ehr+qCnoIpx8NZgL8V//MN7OL1aM="},
             "f": {"\(key)": {"t": 1, "a": "Custom1", "v": {"s": "0"},
                              "r": [{"c": [{"u": {"a": "Custom1", "c": 28, "s": "\(text)"}}], "p": [\(options)]}]}}}
            """
        let details = try Fixture.decode(json).evaluate(key, in: Fixture.context(["Custom1": attribute], key: "12345"))
        #expect(details.value == .string(expected))
    }
}
