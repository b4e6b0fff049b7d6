import ConfigDomain
import ConfigPorts
import Foundation
import Testing

/// `DecodedPayload.evaluate(_:in:)`: payload plus context to value, variant and reason, with no client.
@Suite("Evaluating a decoded payload directly")
struct PayloadEvaluationTests {
    /// Rules that serve `"de"` to German contexts by a rule, a rollout variant to ids starting with `a`, else nothing.
    private struct CountryRules: TargetingRules {
        func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
            if context.attributes["country"] == "DE" {
                return TargetingDecision(value: "de", match: TargetingMatch(ruleID: "germany", kind: .rule))
            }
            if context.targetingKey?.hasPrefix("a") == true {
                let bucket = BucketPlacement(attribute: "id", value: 0.1, lower: 0, upper: 0.5)
                return TargetingDecision(
                    value: "b", match: TargetingMatch(ruleID: "exp", kind: .rollout, bucket: bucket, variant: "1"))
            }
            let problem = RuleProblem(
                key: "greeting", kind: .attributeType(attribute: "country", expected: "a string", found: .int))
            return .noMatch(problems: context.attributes["country"]?.kind == .int ? [problem] : [])
        }
    }

    private let payload = DecodedPayload(
        values: ["plain": 3, "greeting": "hello"], rules: ["greeting": CountryRules(), "bare": CountryRules()],
        ruleProblems: ["broken": [RuleProblem(key: "broken", kind: .unknownOperator("$regx", known: ["$regex"]))]])

    @Test("a key without rules is its plain value, STATIC")
    func plain() {
        let result = payload.evaluate("plain")
        #expect(result.value == 3)
        #expect(result.reason == .staticValue)
        #expect(result.errorCode == nil)
        #expect(result.decision == nil)
    }

    @Test("a matching rule is TARGETING_MATCH, a rollout SPLIT with its variant, no match DEFAULT")
    func reasons() {
        let rule = payload.evaluate("greeting", in: EvaluationContext(attributes: ["country": "DE"]))
        #expect(rule.value == "de")
        #expect(rule.reason == .targetingMatch)
        #expect(rule.variant == nil)
        #expect(rule.decision?.match?.ruleID == "germany")

        let split = payload.evaluate("greeting", in: EvaluationContext(targetingKey: "alice"))
        #expect(split.value == "b")
        #expect(split.reason == .split)
        #expect(split.variant == "1")

        let none = payload.evaluate("greeting", in: EvaluationContext(targetingKey: "bob"))
        #expect(none.value == "hello")
        #expect(none.reason == .defaultValue)
        let bare = payload.evaluate("bare", in: EvaluationContext(targetingKey: "bob"))
        #expect(bare.value == nil)
        #expect(bare.reason == .defaultValue)
    }

    @Test("problems met while evaluating are returned with the value")
    func evaluationProblems() {
        let result = payload.evaluate("greeting", in: EvaluationContext(attributes: ["country": 49]))
        #expect(result.value == "hello")
        #expect(result.rejected.compactMap(\.targeting).map(\.key) == ["greeting"])
    }

    @Test("rejected rules are ERROR with PARSE_ERROR and the problems; a missing key is FLAG_NOT_FOUND")
    func errors() {
        let broken = payload.evaluate("broken")
        #expect(broken.value == nil)
        #expect(broken.reason == .error)
        #expect(broken.errorCode == .parseError)
        #expect(broken.rejected.first?.targeting?.kind == .unknownOperator("$regx", known: ["$regex"]))
        #expect(broken.description.contains("$regx"))

        let missing = payload.evaluate("nope")
        #expect(missing.value == nil)
        #expect(missing.reason == .error)
        #expect(missing.errorCode == .flagNotFound)
    }

    @Test("keys lists values, rules and rejected keys once, sorted")
    func keys() {
        #expect(payload.keys == ["bare", "broken", "greeting", "plain"])
    }
}
