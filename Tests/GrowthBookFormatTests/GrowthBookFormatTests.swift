import ConfigDomain
import ConfigPorts
import Foundation
import GrowthBookFormat
import Targeting
import Testing

@Suite("GrowthBook SDK payloads")
struct GrowthBookFormatTests {
    static let payload = #"""
        {
          "status": 200,
          "features": {
            "plain": { "defaultValue": 7 },
            "no-value": { "defaultValue": null },
            "checkout": {
              "defaultValue": false,
              "rules": [
                { "id": "fr_de", "condition": { "country": "DE" }, "force": true },
                { "id": "fr_beta", "condition": { "id": { "$inGroup": "grp_beta" } }, "force": true },
                { "id": "fr_roll", "force": true, "coverage": 0.5, "hashAttribute": "id", "hashVersion": 2 }
              ]
            },
            "button": {
              "defaultValue": "grey",
              "rules": [
                { "id": "exp_1", "key": "button-exp", "seed": "button-exp", "hashVersion": 2,
                  "variations": ["blue", "green"], "weights": [0.3, 0.7], "coverage": 1,
                  "meta": [ { "key": "control" }, { "key": "treatment" } ] }
              ]
            },
            "gated": {
              "defaultValue": "on",
              "rules": [ { "parentConditions": [ { "id": "checkout", "condition": { "value": true }, "gate": true } ], "force": "child" } ]
            }
          },
          "savedGroups": { "grp_beta": ["u-beta"] }
        }
        """#

    func decode(_ json: String, strictness: Condition.Strictness = .strict) throws -> DecodedPayload {
        try GrowthBookFormat(strictness: strictness).decode(Data(json.utf8))
    }

    @Test("features become keys: plain defaults as values, features with rules as rules, null as nothing")
    func keys() throws {
        let decoded = try decode(Self.payload)
        #expect(decoded.values == ["plain": 7])
        #expect(Set(decoded.rules.keys) == ["checkout", "button", "gated"])
        #expect(decoded.ruleProblems.isEmpty)
        #expect(try GrowthBookFormat().decode(Data(Self.payload.utf8)).values == ["plain": 7])
    }

    @Test("rules are evaluated for the context; the targeting key is the attribute id")
    func evaluation() throws {
        let rules = try decode(Self.payload).rules
        let checkout = try #require(rules["checkout"])
        #expect(checkout.evaluate(in: EvaluationContext(attributes: ["country": "DE"]), explaining: true).match?.ruleID == "fr_de")
        let beta = checkout.evaluate(in: EvaluationContext(targetingKey: "u-beta"), explaining: true)
        #expect(beta.value == true)
        #expect(beta.match == TargetingMatch(ruleID: "fr_beta", kind: .rule))
        #expect(beta.unmatched == [UnmatchedRule(ruleID: "fr_de", reason: .conditionFailed)])
        let nobody = checkout.evaluate(in: .empty, explaining: true)
        #expect(nobody.value == false)
        #expect(nobody.match == nil)
        #expect(nobody.unmatched.map(\.ruleID) == ["fr_de", "fr_beta", "fr_roll"])
        let gated = try #require(rules["gated"])
        let blocked = gated.evaluate(in: .empty, explaining: true)
        #expect(blocked.value == ConfigValue?.none, "\(String(describing: blocked.value))")
        #expect(blocked.match == nil)
        #expect(gated.evaluate(in: EvaluationContext(attributes: ["country": "DE"]), explaining: true).value == "child")
    }

    @Test("an experiment names its rule, the bucket, the variation's range and key")
    func experimentProvenance() throws {
        let button = try #require(try decode(Self.payload).rules["button"])
        let decision = button.evaluate(in: EvaluationContext(targetingKey: "u3"), explaining: true)
        let expectedBucket = try #require(Bucketing.hash(seed: "button-exp", value: "u3", version: 2))
        let match = try #require(decision.match)
        #expect(match.ruleID == "exp_1")
        #expect(match.kind == .rollout)
        #expect(match.bucket?.value == expectedBucket)
        #expect(match.variant == (expectedBucket < 0.3 ? "control" : "treatment"))
        #expect(decision.value == (expectedBucket < 0.3 ? "blue" : "green"))
        #expect(decision.attributesRead == ["id"])
        let rollout = try #require(try decode(Self.payload).rules["checkout"]).evaluate(in: EvaluationContext(targetingKey: "u3"), explaining: true)
        if rollout.match?.ruleID == "fr_roll" {
            #expect(rollout.match?.bucket?.upper == 0.5)
        } else {
            #expect(rollout.unmatched.last == UnmatchedRule(ruleID: "fr_roll", reason: .other("outside rollout")))
        }
    }

    @Test("a non-ASCII id lands in the bucket GrowthBook's SDKs give it (FNV-1a over UTF-16 code units)")
    func nonASCIIBucket() throws {
        let json = #"""
            {"features": {"f": {"defaultValue": 0, "rules": [
              {"id": "e", "key": "k", "seed": "séed-ü", "hashVersion": 1, "variations": [0, 1]}]}}}
            """#
        let decision = try #require(try decode(json).rules["f"]).evaluate(in: EvaluationContext(targetingKey: "🙂"), explaining: true)
        // GrowthBook's JavaScript and Python SDKs put "🙂" in bucket 0.37 of seed "séed-ü": variation 0 of two.
        #expect(decision.match?.bucket?.value == 0.37)
        #expect(decision.value == 0)
    }

    @Test("hashAttribute, fallbackAttribute and a filter's attribute name an attribute, dots and all, not a path")
    func literalHashAttribute() throws {
        let json = #"""
            {"features": {
              "exp": {"defaultValue": "off", "rules": [
                {"id": "e", "key": "k", "hashAttribute": "company.id", "hashVersion": 2, "variations": ["a", "b"]}]},
              "roll": {"defaultValue": "off", "rules": [
                {"id": "r", "force": "on", "coverage": 1, "hashAttribute": "company.id"}]},
              "filtered": {"defaultValue": "off", "rules": [
                {"id": "f", "force": "on", "filters": [{"seed": "s", "attribute": "company.id", "ranges": [[0, 1]]}]}]}
            }}
            """#
        let rules = try decode(json).rules
        let both = EvaluationContext(attributes: ["company.id": "c1", "company": ["id": "c9"]])
        let experiment = try #require(rules["exp"])
        let bucket = try #require(experiment.evaluate(in: both, explaining: true).match?.bucket)
        #expect(bucket.value == Bucketing.hash(seed: "k", value: "c1", version: 2))
        #expect(bucket.attribute == "company.id")
        let nestedOnly = EvaluationContext(attributes: ["company": ["id": "c9"]])
        for feature in ["exp", "roll", "filtered"] {
            let rule = try #require(rules[feature])
            let decision = rule.evaluate(in: nestedOnly, explaining: true)
            #expect(decision.value == "off", "\(feature)")
            #expect(decision.match == nil, "\(feature)")
            #expect(rule.evaluate(in: both, explaining: true).value != "off", "\(feature)")
        }
    }

    @Test("an empty seed or experiment key falls back as in GrowthBook's SDKs: seed || key, key || feature id")
    func emptySeedAndKey() throws {
        let json = #"""
            {"features": {
              "f": {"defaultValue": 0, "rules": [{"id": "e", "key": "", "seed": "", "hashVersion": 2, "variations": [0, 1]}]},
              "g": {"defaultValue": "off", "rules": [{"id": "r", "force": "on", "coverage": 0.5, "seed": ""}]}
            }}
            """#
        let rules = try decode(json).rules
        let experiment = try #require(rules["f"]).evaluate(in: EvaluationContext(targetingKey: "u1"), explaining: true)
        #expect(experiment.match?.bucket?.value == Bucketing.hash(seed: "f", value: "u1", version: 2))
        // Seed "g" (hash version 1): u7 is in bucket 0.246, inside the rollout; u4 in 0.865, outside. Seed "" would swap them.
        let rollout = try #require(rules["g"])
        #expect(rollout.evaluate(in: EvaluationContext(targetingKey: "u7"), explaining: true).value == "on")
        #expect(rollout.evaluate(in: EvaluationContext(targetingKey: "u4"), explaining: true).value == "off")
    }

    @Test(
        "strict reading rejects a feature alone, with a typed problem",
        arguments: [
            (
                #"{"condition": {"name": {"$regx": "a"}}, "force": 1}"#,
                RuleProblem.Kind.unknownOperator("$regx", known: ConditionOperator.names)
            ),
            (#"{"variations": [1, 2], "weights": [0.6, 0.6]}"#, .weightsDoNotSum(1.2)),
            (#"{"condition": {"id": {"$inGroup": "missing"}}, "force": 1}"#, .unknownGroup("missing")),
            (
                #"{"force": 1, "hashVersion": 3, "coverage": 0.5}"#,
                .unparsable("hashVersion is 1 or 2, found 3; such a rule never includes anyone")
            ),
            (#"{"force": 1, "ranges": "x"}"#, .unparsable("ranges is an array of [start, end], found a string")),
            (#"{"force": 1, "meta": "x"}"#, .unparsable("meta is an array of objects, found a string")),
            (#"{"force": 1, "filters": "x"}"#, .unparsable("filters is an array of objects, found a string")),
            (#"{"variations": [1, 2], "weights": "x"}"#, .unparsable("weights is an array, found a string")),
        ])
    func strictProblems(_ rule: String, kind: RuleProblem.Kind) throws {
        let json = #"{"features": {"bad": {"defaultValue": 0, "rules": [\#(rule)]}, "good": {"defaultValue": 1}}}"#
        let decoded = try decode(json)
        #expect(decoded.ruleProblems["bad"]?.map(\.kind) == [kind])
        #expect(decoded.ruleProblems["bad"]?.first?.ruleID == "rules[0]")
        #expect(decoded.values == ["good": 1])
        #expect(try decode(json, strictness: .lenient).rules["bad"] != nil)
    }

    @Test("lenient reading behaves like the SDKs: an unknown operator never matches")
    func lenient() throws {
        let json = #"{"features": {"f": {"defaultValue": 0, "rules": [{"condition": {"name": {"$regx": "a"}}, "force": 1}]}}}"#
        let rules = try #require(try decode(json, strictness: .lenient).rules["f"])
        #expect(rules.evaluate(in: EvaluationContext(attributes: ["name": "a"]), explaining: true).value == 0)
    }

    @Test(
        "a payload that is not an SDK payload is refused whole, with a reason",
        arguments: [
            "[]", "{}", #"{"features": []}"#, #"{"encryptedFeatures": "abc=="}"#, #"{"features": {}, "savedGroups": []}"#, "nope",
        ])
    func refused(_ json: String) {
        #expect(throws: PayloadError.self) { try GrowthBookFormat().decode(Data(json.utf8)) }
    }
}
