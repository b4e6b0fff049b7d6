import ConfigDomain
import ConfigPorts
import Foundation
import Targeting
import TargetingFormat
import Testing

@Suite("The targeting JSON dialect")
struct TargetingJSONFormatTests {
    func decode(_ json: String) throws -> DecodedPayload { try TargetingJSONFormat().decode(Data(json.utf8)) }

    func problems(_ json: String, key: String = "k") throws -> [RuleProblem] { try decode(json).ruleProblems[key] ?? [] }

    @Test("values, defaults and rules by key; decode(_:) gives the values and defaults")
    func shape() throws {
        let json =
            #"{"values": {"a": 1}, "targeting": {"k": {"default": "x", "rules": [{"when": {"p": 1}, "value": "y"}]}, "n": {"rules": []}}, "groups": {}}"#
        let decoded = try decode(json)
        #expect(decoded.values == ["a": 1, "k": "x"])
        #expect(Set(decoded.rules.keys) == ["k", "n"])
        #expect(decoded.ruleProblems.isEmpty)
        #expect(try TargetingJSONFormat().decode(Data(json.utf8)).values == ["a": 1, "k": "x"])
        #expect(decoded.rules["k"]?.evaluate(in: EvaluationContext(attributes: ["p": 1]), explaining: true).match?.ruleID == "rules[0]")
    }

    @Test("saved groups serve $inGroup; a group the payload lacks is a problem")
    func groups() throws {
        let json =
            #"{"targeting": {"k": {"rules": [{"when": {"targetingKey": {"$inGroup": "beta"}}, "value": true}]}}, "groups": {"beta": ["u1"]}}"#
        let rules = try #require(try decode(json).rules["k"])
        #expect(rules.evaluate(in: EvaluationContext(targetingKey: "u1"), explaining: true).value == true)
        #expect(rules.evaluate(in: EvaluationContext(targetingKey: "u2"), explaining: true).value == nil)
        let missing = try problems(#"{"targeting": {"k": {"rules": [{"when": {"id": {"$inGroup": "gamma"}}, "value": 1}]}}}"#)
        #expect(missing.map(\.kind) == [.unknownGroup("gamma")])
    }

    @Test(
        "each malformed part is a problem naming its path",
        arguments: [
            (#"{"targeting": {"k": 5}}"#, "targeting.k"),
            (#"{"targeting": {"k": {"rule": []}}}"#, "targeting.k.rule"),
            (#"{"targeting": {"k": {"rules": {}}}}"#, "targeting.k.rules"),
            (#"{"targeting": {"k": {"rules": [3]}}}"#, "targeting.k.rules[0]"),
            (#"{"targeting": {"k": {"rules": [{"value": 1, "if": {}}]}}}"#, "targeting.k.rules[0].if"),
            (#"{"targeting": {"k": {"rules": [{"id": 7, "value": 1}]}}}"#, "targeting.k.rules[0].id"),
            (#"{"targeting": {"k": {"rules": [{"when": [], "value": 1}]}}}"#, "targeting.k.rules[0].when"),
            (#"{"targeting": {"k": {"rules": [{"when": {"a": {"$in": 3}}, "value": 1}]}}}"#, "targeting.k.rules[0].when.a.$in"),
            (#"{"targeting": {"k": {"rollouts": [{"variants": []}]}}}"#, "targeting.k.rollouts[0].variants"),
            (#"{"targeting": {"k": {"rollouts": [{"variants": [{"weight": 1}]}]}}}"#, "targeting.k.rollouts[0].variants[0]"),
            (
                #"{"targeting": {"k": {"rollouts": [{"coverage": 1.5, "variants": [{"value": 1}]}]}}}"#,
                "targeting.k.rollouts[0].coverage"
            ),
            (#"{"targeting": {"k": {"rollouts": [{"seed": "", "variants": [{"value": 1}]}]}}}"#, "targeting.k.rollouts[0].seed"),
            (
                #"{"targeting": {"k": {"rollouts": [{"variants": [{"value": 1, "weight": -1}, {"value": 2, "weight": 2}]}]}}}"#,
                "targeting.k.rollouts[0].variants[0].weight"
            ),
            (
                #"{"targeting": {"k": {"rollouts": [{"variants": [{"value": 1, "weight": 1}, {"value": 2}]}]}}}"#,
                "targeting.k.rollouts[0].variants"
            ),
            (#"{"values": {"k": 1}, "targeting": {"k": {"default": 2}}}"#, "targeting.k"),
        ])
    func unparsable(_ json: String, path: String) throws {
        let found = try problems(json)
        #expect(found.contains { $0.path == path }, "\(found)")
        #expect(found.allSatisfy { !$0.description.isEmpty })
        #expect(try decode(json).rules["k"] == nil)
    }

    @Test("weights that do not sum to 1 are a problem with the sum")
    func weights() throws {
        let found = try problems(
            #"{"targeting": {"k": {"rollouts": [{"variants": [{"value": 1, "weight": 0.5}, {"value": 2, "weight": 0.3}]}]}}}"#)
        #expect(found.map(\.kind) == [.weightsDoNotSum(0.8)])
        #expect(found.first?.description.contains("sum to 0.8") == true)
    }

    @Test("a problem in one key leaves the other keys alone")
    func isolation() throws {
        let decoded = try decode(
            #"{"values": {"a": 1}, "targeting": {"bad": {"rules": [{"when": {"x": {"$nope": 1}}, "value": 1}]}, "good": {"default": 2}}}"#
        )
        #expect(decoded.values == ["a": 1, "good": 2])
        #expect(decoded.rules["good"] != nil)
        #expect(decoded.ruleProblems["bad"]?.first?.kind == .unknownOperator("$nope", known: ConditionOperator.names))
    }

    @Test(
        "a payload that is not the dialect is refused whole",
        arguments: [
            "[1]", #"{"max_retries": 3}"#, #"{"values": 3}"#, #"{"targeting": []}"#, #"{"groups": {"g": "u1"}}"#, "{",
        ])
    func refused(_ json: String) {
        #expect(throws: PayloadError.self) { try TargetingJSONFormat().decode(Data(json.utf8)) }
    }

    @Test("lint names rules that can never decide")
    func unreachable() throws {
        let json = #"""
            {"targeting": {"k": {
              "rules": [ {"id": "a", "when": {"p": 1}, "value": 1}, {"id": "b", "when": {"p": 1}, "value": 2},
                         {"id": "all", "value": 3}, {"id": "c", "when": {"q": 1}, "value": 4} ],
              "rollouts": [ {"id": "r", "variants": [{"value": 5}]} ] }}}
            """#
        let lint = try rules(of: "k", in: json).lint()
        #expect(lint.map(\.ruleID) == ["b", "c", "r"])
        #expect(
            lint.map(\.kind) == [.unreachable(shadowedBy: "a"), .unreachable(shadowedBy: "all"), .unreachable(shadowedBy: "all")])
        #expect(lint.allSatisfy { $0.isWarning })
        let clean = try rules(
            of: "k",
            in:
                #"{"targeting": {"k": {"rules": [{"when": {"p": 1}, "value": 1}], "rollouts": [{"coverage": 0.5, "variants": [{"value": 2}]}, {"variants": [{"value": 3}]}]}}}"#
        )
        #expect(clean.lint().isEmpty)
    }
}
