import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import Testing

/// Conditions that cannot be read are rejected alone: they never match, each parameter that refers
/// to one reports a problem naming it, and the rest of the template is served.
@Suite("Firebase conditions that cannot be read")
struct FirebaseConditionProblemTests {
    /// The broken condition `bad` (tree `tree`) before the good condition `good`; `p` has values for both.
    static func template(bad tree: String) -> String {
        #"""
        {"conditions": [{"name": "bad", "condition": \#(tree)}, {"name": "good", "condition": {"true": {}}}],
         "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"bad": {"value": "B"}, "good": {"value": "G"}}},
                        "q": {"defaultValue": {"value": "q"}}}}
        """#
    }

    @Test(
        "each unreadable part never matches, names the condition and its path, and the next condition still serves",
        arguments: [
            (
                FirebaseFixture.signal("STRING_CONTAIN", targets: ["U"]), ".customSignal.customSignalOperator",
                "did you mean \"STRING_CONTAINS\"?"
            ),
            (
                FirebaseFixture.signal("STRING_STARTS_WITH", targets: ["U"]), ".customSignal.customSignalOperator",
                "use one of STRING_CONTAINS"
            ),
            (
                #"{"customSignal": {"customSignalKey": "s", "targetCustomSignalValues": ["U"]}}"#,
                ".customSignal.customSignalOperator", "needs a \"customSignalOperator\""
            ),
            (
                #"{"customSignal": {"customSignalOperator": "STRING_CONTAINS", "targetCustomSignalValues": ["U"]}}"#,
                ".customSignal.customSignalKey", "customSignalKey"
            ),
            (FirebaseFixture.signal("STRING_CONTAINS", targets: []), ".customSignal.targetCustomSignalValues", "non-empty array"),
            (
                #"{"customSignal": {"customSignalOperator": "STRING_CONTAINS", "customSignalKey": "s", "targetCustomSignalValues": "U"}}"#,
                ".customSignal.targetCustomSignalValues", "non-empty array"
            ),
            (
                #"{"customSignal": {"customSignalOperator": "STRING_CONTAINS", "customSignalKey": "s", "targetCustomSignalValues": [3]}}"#,
                ".customSignal.targetCustomSignalValues[0]", "must be a string"
            ),
            (
                FirebaseFixture.signal("NUMERIC_EQUAL", targets: ["abc"]), ".customSignal.targetCustomSignalValues[0]",
                "is not a number"
            ),
            (
                FirebaseFixture.signal("SEMANTIC_VERSION_EQUAL", targets: ["1..2"]), ".customSignal.targetCustomSignalValues[0]",
                "is not a version"
            ),
            (
                FirebaseFixture.signal("STRING_CONTAINS_REGEX", targets: ["a", "("]), ".customSignal.targetCustomSignalValues[1]",
                "not a valid regular expression"
            ),
            (#"{"percent": {"microPercent": 5}}"#, ".percent.percentOperator", "needs a \"percentOperator\""),
            (FirebaseFixture.percent("UNKNOWN", micro: 5), ".percent.percentOperator", "unknown operator \"UNKNOWN\""),
            (#"{"percent": {"percentOperator": "LESS_OR_EQUAL", "seed": 3}}"#, ".percent.seed", "must be a string"),
            (
                #"{"percent": {"percentOperator": "LESS_OR_EQUAL", "microPercent": "5"}}"#, ".percent.microPercent",
                "must be a number"
            ),
            (
                #"{"percent": {"percentOperator": "BETWEEN", "microPercentRange": []}}"#, ".percent.microPercentRange",
                "must be an object"
            ),
            (
                #"{"percent": {"percentOperator": "BETWEEN", "microPercentRange": {"microPercentUpperBound": true}}}"#,
                ".percent.microPercentRange.microPercentUpperBound", "must be a number"
            ),
            (#"{"percent": 3}"#, ".percent", "must be an object"),
            (#"{}"#, ".condition", "an empty condition"), (#"{"exotic": {}}"#, ".condition", "unknown operator \"exotic\""),
            (#"{"orCondition": {"conditions": 3}}"#, ".orCondition.conditions", "must be an array"),
            (#"{"andCondition": {"conditions": [3]}}"#, ".andCondition.conditions[0]", "found a JSON int"),
            (#""true""#, ".condition", "found a JSON string"),
        ])
    func unreadable(tree: String, pathSuffix: String, reason: String) throws {
        let payload = try FirebaseFixture.payload(Self.template(bad: tree))
        let details = payload.evaluate("p", in: FirebaseFixture.signal("United States"))
        #expect(details.value == "G")
        #expect(details.decision?.match?.ruleID == "good")
        let problem = try #require(details.decision?.problems.first)
        #expect(details.decision?.problems.count == 1)
        #expect(problem.key == "p")
        #expect(problem.ruleID == "bad")
        #expect(problem.path?.hasPrefix("conditions[0]") == true)
        #expect(problem.path?.hasSuffix(pathSuffix) == true, "\(problem.path ?? "")")
        #expect(problem.reason.contains(reason), "\(problem.reason)")
        #expect(details.rejected.map(\.targeting) == [problem])
        #expect(payload.rules["p"]?.lint() == [problem])
        #expect(payload.ruleProblems.isEmpty)
        #expect(payload.evaluate("q").value == "q")
        let template = try FirebaseTemplateFormat().decodeTemplate(Data(Self.template(bad: tree).utf8))
        #expect(template.conditionProblems.map(\.path) == [problem.path])
        #expect(template.conditionProblems.first?.reason.hasPrefix("condition \"bad\": ") == true)
    }

    @Test("a condition without a tree, or a client template's expression, never matches and says why")
    func conditionsWithoutATree() throws {
        for (condition, reason) in [
            (#"{"name": "bad", "expression": "device.os == 'ios'"}"#, "client template's condition"),
            (#"{"name": "bad"}"#, "no \"condition\""),
            (#"{"name": "bad", "condition": null}"#, "no \"condition\""),
        ] {
            let text = #"""
                {"conditions": [\#(condition)],
                 "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"bad": {"value": "B"}}}}}
                """#
            let details = try FirebaseFixture.payload(text).evaluate("p", in: .empty)
            #expect(details.value == "d")
            #expect(details.reason == .defaultValue)
            #expect(details.decision?.problems.first?.path == "conditions[0]")
            #expect(details.decision?.problems.first?.reason.contains(reason) == true)
            #expect(details.decision?.unmatched == [UnmatchedRule(ruleID: "bad", reason: .problem)])
        }
    }

    @Test("an unreadable part is false and the rest of its condition still decides, with the problem reported")
    func partsStillDecide() throws {
        let tree = #"{"orCondition": {"conditions": [{"exotic": {}}, {"true": {}}]}}"#
        let details = try FirebaseFixture.evaluate(condition: tree, in: .empty)
        #expect(details.value == "on")
        #expect(details.decision?.problems.first?.path == "conditions[0].condition.orCondition.conditions[0]")
        let both = #"{"andCondition": {"conditions": [{"exotic": {}}, {"true": {}}]}}"#
        #expect(try FirebaseFixture.matches(both) == false)
    }

    @Test("a condition's problem is reported only by parameters that refer to it")
    func onlyReferringParametersReport() throws {
        let text = #"""
            {"conditions": [{"name": "bad", "condition": {}}, {"name": "ok", "condition": {"true": {}}}],
             "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"ok": {"value": "o"}}}}}
            """#
        let payload = try FirebaseFixture.payload(text)
        #expect(payload.evaluate("p").rejected.isEmpty)
        #expect(payload.rules["p"]?.lint() == [])
        #expect(try FirebaseTemplateFormat().decodeTemplate(Data(text.utf8)).conditionProblems.count == 1)
    }

    @Test("conditions without a name, or that are not objects, are listed in template order and refer to nothing")
    func unnamedConditions() throws {
        let text = #"""
            {"conditions": [{"condition": {"true": {}}}, {"name": "x", "condition": {}}, 3, {"name": "", "condition": {"true": {}}}],
             "parameters": {"p": {"defaultValue": {"value": "d"}}}}
            """#
        let template = try FirebaseTemplateFormat().decodeTemplate(Data(text.utf8))
        #expect(template.values == ["p": "d"])
        #expect(
            template.conditionProblems.map(\.path) == [
                "conditions[0]", "conditions[1].condition", "conditions[2]", "conditions[3]",
            ])
        #expect(template.conditionProblems[0].reason.contains("needs a \"name\""))
        #expect(template.conditionProblems[1].reason.hasPrefix("condition \"x\": "))
        #expect(template.conditionProblems[2].reason.contains("found a JSON int"))
        #expect(template.conditionProblems.allSatisfy { $0.format == "firebase-template" })
    }

    @Test(
        "conditions that are not an array refuse the whole template",
        arguments: [#""conditions": {}"#, #""conditions": null"#, #""conditions": "x""#])
    func conditionsNotAnArray(member: String) {
        do throws(PayloadError) {
            _ = try FirebaseTemplateFormat().decode(Data(#"{\#(member), "parameters": {}}"#.utf8))
            Issue.record("expected a PayloadError")
        } catch {
            #expect(error.path == "conditions")
            #expect(error.reason.contains("must be an array of conditions"))
        }
    }

    @Test(
        "a conditional value that does not convert, or of the wrong shape, drops its parameter alone",
        arguments: [
            (
                #""conditionalValues": {"c": {"value": "maybe"}}, "valueType": "BOOLEAN""#,
                "parameters.p.conditionalValues.c.value", "\"true\" or \"false\""
            ),
            (
                #""conditionalValues": {"c": {"value": "x"}}, "valueType": "NUMBER""#, "parameters.p.conditionalValues.c.value",
                "finite number"
            ),
            (#""conditionalValues": {"c": {"value": 3}}"#, "parameters.p.conditionalValues.c.value", "JSON string"),
            (#""conditionalValues": {"c": "x"}"#, "parameters.p.conditionalValues.c", "must be an object"),
            (#""conditionalValues": ["x"]"#, "parameters.p.conditionalValues", "object of values by condition name"),
            (#""conditionalValues": {"c": {"rolloutValue": {}}}"#, "parameters.p.conditionalValues.c", "not supported"),
            (#""conditionalValues": {"c": {"value": "1"}}, "valueType": "DATE""#, "parameters.p.valueType", "unknown valueType"),
        ])
    func badConditionalValue(members: String, path: String, reason: String) throws {
        let text = #"""
            {"conditions": [{"name": "c", "condition": {"true": {}}}],
             "parameters": {"p": {"defaultValue": {"useInAppDefault": true}, \#(members)}, "ok": {"defaultValue": {"value": "v"}}}}
            """#
        let template = try FirebaseTemplateFormat().decodeTemplate(Data(text.utf8))
        #expect(template.values == ["ok": "v"])
        #expect(template.droppedParameters.map(\.path) == [path])
        #expect(template.droppedParameters.first?.reason.contains(reason) == true, "\(template.droppedParameters)")
        #expect(try FirebaseFixture.payload(text).keys == ["ok"])
    }

    @Test("a conditional value with neither value nor useInAppDefault is the app's default, as for a default value")
    func emptyConditionalValue() throws {
        let text =
            #"{"conditions": [{"name": "c", "condition": {"true": {}}}], "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"c": {}}}}}"#
        let details = try FirebaseFixture.payload(text).evaluate("p")
        #expect(details.value == nil)
        #expect(details.decision?.match?.ruleID == "c")
    }

    @Test("with dropsInvalidParameters off, unreadable conditions still do not refuse the template")
    func strictModeServesConditions() throws {
        let strict = FirebaseTemplateFormat(dropsInvalidParameters: false)
        let payload = try strict.decode(Data(Self.template(bad: "{}").utf8))
        #expect(payload.evaluate("p").value == "G")
    }
}
