import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import Testing

/// Which value a parameter serves: the template's condition order, `useInAppDefault`, value types,
/// and the reasons and decisions that details report.
@Suite("Firebase conditional values: order, in-app defaults and reasons")
struct FirebaseConditionalValueTests {
    /// Conditions `first`, `second` and `never`, in that order; the first two match a context with `beta: "yes"`.
    static let template = #"""
        {"conditions": [
           {"name": "first", "condition": {"customSignal": {"customSignalOperator": "STRING_EXACTLY_MATCHES",
             "customSignalKey": "beta", "targetCustomSignalValues": ["yes"]}}},
           {"name": "second", "condition": {"true": {}}},
           {"name": "never", "condition": {"false": {}}}],
         "parameters": {
           "ordered": {"defaultValue": {"value": "default"},
                       "conditionalValues": {"second": {"value": "from second"}, "first": {"value": "from first"}}},
           "skips": {"defaultValue": {"value": "default"}, "conditionalValues": {"never": {"value": "x"}, "second": {"value": "from second"}}},
           "in_app": {"defaultValue": {"value": "default"}, "conditionalValues": {"first": {"useInAppDefault": true}}},
           "no_default": {"defaultValue": {"useInAppDefault": true}, "conditionalValues": {"never": {"value": "x"}}},
           "plain": {"defaultValue": {"value": "7"}, "valueType": "NUMBER"},
           "empty": {"defaultValue": {"value": "e"}, "conditionalValues": {}},
           "typed": {"defaultValue": {"value": "1"}, "valueType": "NUMBER",
                     "conditionalValues": {"first": {"value": "2.5"}}},
           "json": {"defaultValue": {"value": "{}"}, "valueType": "JSON", "conditionalValues": {"first": {"value": "[true]"}}},
           "flag": {"defaultValue": {"value": "false"}, "valueType": "BOOLEAN", "conditionalValues": {"first": {"value": " TRUE "}}}},
         "parameterGroups": {"g": {"parameters": {
           "grouped": {"defaultValue": {"value": "g"}, "conditionalValues": {"first": {"value": "grouped first"}}}}}}}
        """#
    static let beta = EvaluationContext(attributes: ["beta": "yes"])

    private func payload() throws -> DecodedPayload { try FirebaseFixture.payload(Self.template) }

    @Test("the first condition in the template's order decides, not the order of the parameter's conditional values")
    func templateOrderDecides() throws {
        let payload = try payload()
        let details = payload.evaluate("ordered", in: Self.beta)
        #expect(details.value == "from first")
        #expect(details.reason == .targetingMatch)
        #expect(details.decision?.match == TargetingMatch(ruleID: "first", kind: .rule))
        let other = payload.evaluate("ordered", in: .empty)
        #expect(other.value == "from second")
        #expect(other.decision?.match?.ruleID == "second")
        #expect(other.decision?.unmatched == [UnmatchedRule(ruleID: "first", reason: .conditionFailed)])
    }

    @Test("conditions the parameter has no value for are skipped; a condition that does not match passes to the next")
    func conditionsWithoutAValueAreSkipped() throws {
        let details = try payload().evaluate("skips", in: Self.beta)
        #expect(details.value == "from second")
        #expect(details.decision?.unmatched.map(\.ruleID) == [])
        #expect(try payload().evaluate("grouped", in: Self.beta).value == "grouped first")
    }

    @Test("no condition matches: the default value, reason DEFAULT")
    func defaultValue() throws {
        let payload = try payload()
        let details = payload.evaluate("in_app", in: .empty)
        #expect(details.value == "default")
        #expect(details.reason == .defaultValue)
        #expect(details.decision?.match == nil)
        #expect(payload.evaluate("typed", in: .empty).value == 1)
    }

    @Test("a matched condition whose value is useInAppDefault serves nothing, naming the condition; so does an in-app default")
    func inAppDefaults() throws {
        let payload = try payload()
        let matched = payload.evaluate("in_app", in: Self.beta)
        #expect(matched.value == nil)
        #expect(matched.reason == .defaultValue)
        #expect(matched.decision?.match?.ruleID == "first")
        // The payload's plain value would replace the nothing the condition serves: it holds none.
        #expect(payload.values["in_app"] == nil)
        let noDefault = payload.evaluate("no_default", in: .empty)
        #expect(noDefault.value == nil)
        #expect(noDefault.reason == .defaultValue)
        #expect(try FirebaseTemplateFormat().decodeTemplate(Data(Self.template.utf8)).values["in_app"] == "default")
    }

    @Test("a parameter without conditional values (or with none in the object) is a plain value, reason STATIC")
    func plainValues() throws {
        let payload = try payload()
        #expect(payload.evaluate("plain", in: Self.beta).value == 7)
        #expect(payload.evaluate("plain", in: Self.beta).reason == .staticValue)
        #expect(payload.evaluate("empty", in: Self.beta).reason == .staticValue)
        #expect(payload.rules["plain"] == nil)
        #expect(Set(payload.rules.keys) == ["ordered", "skips", "in_app", "no_default", "typed", "json", "flag", "grouped"])
    }

    @Test("conditional values are converted by the parameter's valueType")
    func typedConditionalValues() throws {
        let payload = try payload()
        #expect(payload.evaluate("typed", in: Self.beta).value == 2.5)
        #expect(payload.evaluate("json", in: Self.beta).value == [true])
        #expect(payload.evaluate("flag", in: Self.beta).value == true)
        #expect(payload.evaluate("flag", in: .empty).value == false)
    }

    @Test("a conditional value for a condition the template lacks is never served, and lint says so")
    func orphanConditionalValue() throws {
        let text =
            #"{"conditions": [], "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"ghost": {"value": "x"}}}}}"#
        let payload = try FirebaseFixture.payload(text)
        #expect(payload.evaluate("p", in: .empty).value == "d")
        let warning = try #require(payload.rules["p"]?.lint().first)
        #expect(warning.ruleID == "ghost")
        #expect(warning.path == "parameters.p.conditionalValues.ghost")
        #expect(warning.reason.contains("defines no condition \"ghost\""))
    }

    @Test("lint warns about conditional values after a condition that is always true")
    func unreachableAfterTrue() throws {
        #expect(try payload().rules["ordered"]?.lint() == [])
        // "never" comes after "second", which is always true.
        #expect(
            try payload().rules["skips"]?.lint() == [
                RuleProblem(key: "skips", ruleID: "never", kind: .unreachable(shadowedBy: "second"))
            ])
        let text = #"""
            {"conditions": [{"name": "all", "condition": {"true": {}}}, {"name": "later", "condition": {"false": {}}}],
             "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"all": {"value": "a"}, "later": {"value": "l"}}}}}
            """#
        #expect(
            try FirebaseFixture.payload(text).rules["p"]?.lint() == [
                RuleProblem(key: "p", ruleID: "later", kind: .unreachable(shadowedBy: "all"))
            ])
    }

    @Test("a name defined twice keeps its first place and its last definition, as Firebase's SDKs evaluate it, with a problem")
    func duplicateConditionNames() throws {
        let text = #"""
            {"conditions": [{"name": "a", "condition": {"false": {}}}, {"name": "b", "condition": {"true": {}}},
                            {"name": "a", "condition": {"true": {}}}],
             "parameters": {"p": {"defaultValue": {"value": "d"}, "conditionalValues": {"b": {"value": "B"}, "a": {"value": "A"}}}}}
            """#
        let details = try FirebaseFixture.payload(text).evaluate("p", in: .empty)
        #expect(details.value == "A")
        #expect(details.decision?.problems.first?.path == "conditions[2].name")
        #expect(details.decision?.problems.first?.reason.contains("also defined at conditions[0]") == true)
    }
}
