import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import Testing

/// The condition tree (`orCondition`, `andCondition`, `true`, `false`), percent conditions and the
/// randomization id. Each micro-percentile below is SHA-256 of `seed.id` (of `id` without a seed)
/// modulo 10^8, as Python's `hashlib` and Node.js's `crypto` both compute it.
@Suite("Firebase server conditions: the tree, percent conditions and the randomization id")
struct FirebaseConditionTests {
    /// `user-1` without a seed.
    static let user1 = 24_996_379
    /// `user-1` with the seed `beta`.
    static let user1Beta = 38_625_758
    static let context = EvaluationContext(targetingKey: "user-1")

    @Test(
        "or, and, true and false",
        arguments: [
            (#"{"true": {}}"#, true), (#"{"false": {}}"#, false),
            (#"{"orCondition": {"conditions": []}}"#, false), (#"{"orCondition": {}}"#, false),
            (#"{"orCondition": {"conditions": [{"false": {}}, {"true": {}}]}}"#, true),
            (#"{"orCondition": {"conditions": [{"false": {}}, {"false": {}}]}}"#, false),
            (#"{"andCondition": {"conditions": []}}"#, true), (#"{"andCondition": {"conditions": null}}"#, true),
            (#"{"andCondition": {"conditions": [{"true": {}}, {"false": {}}]}}"#, false),
            (#"{"andCondition": {"conditions": [{"true": {}}, {"orCondition": {"conditions": [{"true": {}}]}}]}}"#, true),
        ])
    func tree(tree: String, expected: Bool) throws {
        #expect(try FirebaseFixture.matches(tree) == expected)
    }

    @Test(
        "a node with several kinds takes the first of or, and, true, false, percent, customSignal; null is absent",
        arguments: [
            (#"{"true": {}, "orCondition": {"conditions": []}}"#, false), (#"{"false": {}, "true": {}}"#, true),
            (#"{"true": null, "false": {}}"#, false), (#"{"false": {}, "percent": {}}"#, false),
            (#"{"andCondition": {}, "false": {}}"#, true),
        ])
    func firstKindDecides(tree: String, expected: Bool) throws {
        #expect(try FirebaseFixture.matches(tree) == expected)
    }

    /// `true` inside `depth` levels of `andCondition`.
    static func nested(_ depth: Int) -> String {
        (0..<depth).reduce(#"{"true": {}}"#) { inner, _ in #"{"andCondition": {"conditions": [\#(inner)]}}"# }
    }

    @Test("a node inside five or more and/or levels never matches, as Firebase's SDKs stop at level 10, and says why")
    func nestingLimit() throws {
        #expect(try FirebaseFixture.matches(Self.nested(4)))
        let details = try FirebaseFixture.evaluate(condition: Self.nested(5), in: .empty)
        #expect(details.value == "off")
        let problem = try #require(details.decision?.problems.first)
        #expect(problem.ruleID == "c")
        #expect(problem.path?.hasSuffix(".andCondition.conditions[0]") == true)
        #expect(problem.reason.contains("nested inside 5"))
        // Beside the part nested too deep, the rest still decides.
        let either = #"{"orCondition": {"conditions": [\#(Self.nested(4)), {"true": {}}]}}"#
        #expect(try FirebaseFixture.matches(either))
    }

    @Test(
        "LESS_OR_EQUAL, GREATER_THAN and BETWEEN at the context's own micro-percentile",
        arguments: [
            (FirebaseFixture.percent("LESS_OR_EQUAL", micro: user1), true),
            (FirebaseFixture.percent("LESS_OR_EQUAL", micro: user1 - 1), false),
            (FirebaseFixture.percent("LESS_OR_EQUAL", micro: 100_000_000), true),
            (FirebaseFixture.percent("GREATER_THAN", micro: user1 - 1), true),
            (FirebaseFixture.percent("GREATER_THAN", micro: user1), false),
            (FirebaseFixture.percent("GREATER_THAN", micro: 0), true),
            (FirebaseFixture.percent("BETWEEN", range: (user1 - 1, user1)), true),
            (FirebaseFixture.percent("BETWEEN", range: (user1, user1 + 1)), false),
            (FirebaseFixture.percent("BETWEEN", range: (0, user1 - 1)), false),
            (FirebaseFixture.percent("BETWEEN", range: (0, 100_000_000)), true),
            (FirebaseFixture.percent("BETWEEN", range: (user1 + 5, user1 - 5)), false),
        ])
    func percentOperators(tree: String, expected: Bool) throws {
        #expect(try FirebaseFixture.matches(tree, in: Self.context) == expected)
    }

    @Test(
        "a limit left out is 0, as proto3's JSON leaves out zeros",
        arguments: [
            (FirebaseFixture.percent("LESS_OR_EQUAL"), false), (FirebaseFixture.percent("GREATER_THAN"), true),
            (FirebaseFixture.percent("BETWEEN"), false), (FirebaseFixture.percent("BETWEEN", range: (nil, user1)), true),
            (FirebaseFixture.percent("BETWEEN", range: (user1 - 1, nil)), false),
        ])
    func missingLimits(tree: String, expected: Bool) throws {
        #expect(try FirebaseFixture.matches(tree, in: Self.context) == expected)
    }

    @Test(
        "the seed is hashed before the id (seed.id); an empty seed is none; ids and seeds are UTF-8",
        arguments: [
            ("beta", "user-1", user1Beta), ("", "user-1", user1), ("beta", "user-2", 10_634_201), ("", "ユーザー", 59_246_356),
            ("🌱", "😀", 50_989_279), ("", "a", 56_493_499),
        ])
    func seededPercentiles(seed: String, id: String, percentile: Int) throws {
        let context = EvaluationContext(targetingKey: id)
        #expect(try FirebaseFixture.matches(FirebaseFixture.percent("LESS_OR_EQUAL", seed: seed, micro: percentile), in: context))
        #expect(
            !(try FirebaseFixture.matches(
                FirebaseFixture.percent("LESS_OR_EQUAL", seed: seed, micro: percentile - 1), in: context)))
    }

    @Test("the randomization id is the attribute randomizationId, else the targeting key; missing or empty matches no percent")
    func randomizationID() throws {
        let atMost = FirebaseFixture.percent("LESS_OR_EQUAL", micro: Self.user1)
        #expect(try FirebaseFixture.matches(atMost, in: EvaluationContext(attributes: ["randomizationId": "user-1"])))
        // The attribute wins over the targeting key ("a" is at 56493499, above the limit).
        #expect(
            try FirebaseFixture.matches(
                atMost, in: EvaluationContext(targetingKey: "a", attributes: ["randomizationId": "user-1"])))
        #expect(
            !(try FirebaseFixture.matches(
                atMost, in: EvaluationContext(targetingKey: "user-1", attributes: ["randomizationId": "a"]))))
        let always = FirebaseFixture.percent("GREATER_THAN", micro: -1)
        #expect(try FirebaseFixture.matches(always, in: Self.context))
        #expect(!(try FirebaseFixture.matches(always, in: .empty)))
        #expect(!(try FirebaseFixture.matches(always, in: EvaluationContext(targetingKey: ""))))
        // An empty attribute is an empty id: the targeting key does not stand in for it.
        #expect(
            !(try FirebaseFixture.matches(
                always, in: EvaluationContext(targetingKey: "user-1", attributes: ["randomizationId": ""]))))
        #expect(
            try FirebaseFixture.matches(
                always, in: EvaluationContext(targetingKey: "user-1", attributes: ["randomizationId": nil])))
    }

    @Test("a randomizationId attribute that is not a string matches no percent and is reported as an attribute of the wrong type")
    func randomizationIDOfTheWrongType() throws {
        let always = FirebaseFixture.percent("GREATER_THAN", micro: -1)
        let details = try FirebaseFixture.evaluate(
            condition: always, in: EvaluationContext(targetingKey: "user-1", attributes: ["randomizationId": 42]))
        #expect(details.value == "off")
        #expect(details.reason == .defaultValue)
        #expect(
            details.decision?.problems == [
                RuleProblem(
                    key: "p", ruleID: "c", kind: .attributeType(attribute: "randomizationId", expected: "string", found: .int))
            ])
        #expect(details.rejected.first?.targeting?.ruleID == "c")
    }

    @Test("details name the attributes read: the targeting key or randomizationId, then the signals")
    func attributesRead() throws {
        let percent = FirebaseFixture.percent("GREATER_THAN", micro: -1)
        let country = FirebaseFixture.signal("STRING_CONTAINS", key: "country", targets: ["U"])
        let tree = #"{"andCondition": {"conditions": [\#(percent), \#(country)]}}"#
        let byKey = try FirebaseFixture.evaluate(
            condition: tree, in: EvaluationContext(targetingKey: "u", attributes: ["country": "US"]))
        #expect(byKey.decision?.attributesRead == ["targetingKey", "country"])
        let byAttribute = try FirebaseFixture.evaluate(
            condition: tree, in: EvaluationContext(attributes: ["randomizationId": "u", "country": "DE"]))
        #expect(byAttribute.decision?.attributesRead == ["randomizationId", "country"])
        #expect(byAttribute.decision?.unmatched == [UnmatchedRule(ruleID: "c", reason: .conditionFailed)])
    }
}
