import ConfigDomain
import Foundation
import RemoteConfig
import TargetingFormat
import Testing

@Suite("explain(key) names the deciding rule")
struct ExplainTests {
    static let payload = #"""
        {
          "targeting": {
            "button_color": {
              "default": "grey",
              "rules": [
                { "id": "staff", "when": { "email": { "$regex": "@example\\.com$" } }, "value": "gold" },
                { "id": "vip", "when": { "tier": { "$gte": 3 } }, "value": "purple" },
                { "id": "nordics", "when": { "country": { "$in": ["SE", "NO", "FI"] } }, "value": "white" },
                { "id": "ios", "when": { "os": "ios" }, "value": "silver" }
              ],
              "rollouts": [ { "id": "button-test", "seed": "button-test",
                              "variants": [ { "name": "blue", "value": "blue", "weight": 0.3 },
                                            { "name": "green", "value": "green", "weight": 0.7 } ] } ]
            }
          }
        }
        """#

    @Test("a rollout names its id, the bucket and its range, the attributes read, and the first rules that did not match")
    func rollout() async throws {
        let (client, _) = try await targetingClient(
            Self.payload, context: EvaluationContext(targetingKey: "u3", attributes: ["country": "DE"]))
        let explanation = client.details(TargetedKeys.button)
        #expect(explanation.value == "blue")
        let targeting = try #require(explanation.decision)
        let match = try #require(targeting.match)
        #expect(match.ruleID == "button-test")
        #expect(match.kind == .rollout)
        #expect(match.variant == "blue")
        #expect(match.bucket == BucketPlacement(attribute: "targetingKey", value: 0.1993, lower: 0, upper: 0.3))
        #expect(targeting.attributesRead == ["email", "tier", "country", "os", "targetingKey"])
        #expect(targeting.unmatched.map(\.ruleID) == ["staff", "vip", "nordics"])
        #expect(targeting.unmatched.allSatisfy { $0.reason == .conditionFailed })
        #expect(
            explanation.description.contains("rollout \"button-test\" variant blue (targetingKey bucket 0.1993 in [0.0, 0.3))"))
    }

    @Test("a rule names its id and no bucket; a context outside every rule and rollout names none")
    func ruleAndDefault() async throws {
        let (client, _) = try await targetingClient(Self.payload, context: EvaluationContext(attributes: ["tier": 5]))
        let rule = try #require(client.details(TargetedKeys.button).decision)
        #expect(rule.match == TargetingMatch(ruleID: "vip", kind: .rule))
        #expect(rule.attributesRead == ["email", "tier"])
        #expect(client[TargetedKeys.button] == "purple")

        client.updateContext { $0 = EvaluationContext(attributes: ["tier": 1]) }
        let none = try #require(client.details(TargetedKeys.button).decision)
        #expect(none.match == nil)
        #expect(none.unmatched.last?.ruleID == "nordics")
        #expect(client[TargetedKeys.button] == "grey")
        #expect(client.details(TargetedKeys.button).layer == .snapshot(source: "memory://config"))
    }

    @Test("an unregistered name's raw value and explain(forKey:) follow its rules, like a registered key's value")
    func unregisteredName() async throws {
        let (client, _) = try await targetingClient(
            Self.payload, context: EvaluationContext(attributes: ["tier": 5]), keys: [TargetedKeys.checkout])
        #expect(client.view().entry(forName: "button_color")?.value == "purple")
        let explanation = client.view().details(forKey: "button_color")
        #expect(explanation.isRegistered == false)
        #expect(explanation.value == "purple")
        #expect(explanation.decision?.match == TargetingMatch(ruleID: "vip", kind: .rule))

        client.updateContext { $0 = EvaluationContext(attributes: ["tier": 1]) }
        #expect(client.view().entry(forName: "button_color")?.value == "grey")
        #expect(client.view().details(forKey: "button_color").decision?.match == nil)
    }

    @Test("evaluating without explaining serves what explaining serves, with the same match and problems, without the provenance")
    func decideMatchesEvaluate() throws {
        let rules = try rules(of: "button_color", in: Self.payload)
        let contexts = [
            EvaluationContext(attributes: ["email": "a@example.com"]), EvaluationContext(attributes: ["tier": 5]),
            EvaluationContext(attributes: ["tier": "high"]), EvaluationContext(attributes: ["country": "NO"]),
            EvaluationContext(targetingKey: "u3"), EvaluationContext(targetingKey: "u9", attributes: ["os": "android"]),
            .empty,
        ]
        for context in contexts {
            let full = rules.evaluate(in: context, explaining: true)
            let decided = rules.evaluate(in: context, explaining: false)
            #expect(decided.value == full.value)
            #expect(decided.problems == full.problems)
            #expect(decided.match == full.match)
            #expect(decided.attributesRead.isEmpty && decided.unmatched.isEmpty)
        }
        #expect(!rules.evaluate(in: EvaluationContext(attributes: ["tier": "high"]), explaining: true).problems.isEmpty)
    }

    @Test("a rollout the bucket attribute is missing from says so")
    func missingAttribute() throws {
        let json =
            #"{"targeting": {"banner": {"rollouts": [{"id": "by-device", "bucketBy": "device.id", "variants": [{"value": "new"}]}]}}}"#
        let decision = try rules(of: "banner", in: json).evaluate(in: EvaluationContext(targetingKey: "u1"), explaining: true)
        #expect(decision.value == nil)
        #expect(decision.unmatched == [UnmatchedRule(ruleID: "by-device", reason: .attributeMissing("device.id"))])
    }
}
