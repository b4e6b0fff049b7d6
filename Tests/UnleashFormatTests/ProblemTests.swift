import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import UnleashFormat

/// Bad input: a feature that cannot be read is rejected alone with a typed problem; an attribute
/// of the wrong type skips its strategy and is reported; only an unusable document fails whole.
@Suite("Problems")
struct ProblemTests {
    static let good = feature("good", strategy: "{\"name\": \"default\"}")

    /// Decodes `good` and `bad` together and returns the bad feature's single problem.
    static func problem(of bad: String, segments: String = "[]") throws -> RuleProblem {
        let payload = try decode(payload([good, bad], segments: segments))
        #expect(payload.isEnabled("good"), "the rest of the payload activates")
        #expect(payload.rules["bad"] == nil && payload.rules["bad.variant"] == nil && payload.rules["bad.payload"] == nil)
        #expect(payload.values["bad"] == nil)
        let problems = try #require(payload.ruleProblems["bad"])
        #expect(payload.ruleProblems["bad.variant"]?.map(\.key) == ["bad.variant"])
        #expect(problems.count == 1)
        return try #require(problems.first)
    }

    static func unparsableReason(_ problem: RuleProblem) -> String? {
        if case .unparsable(let why) = problem.kind { why } else { nil }
    }

    @Test("a malformed feature: \"enabled\" is not a Boolean")
    func malformedFeature() throws {
        let problem = try Self.problem(of: #"{"name": "bad", "enabled": "yes", "strategies": []}"#)
        #expect(problem.key == "bad")
        #expect(problem.path == "features[1].enabled")
        #expect(Self.unparsableReason(problem)?.contains("\"enabled\" must be true or false") == true)
        #expect(problem.description.hasPrefix("key \"bad\" at features[1].enabled: the rule cannot be read"))
    }

    @Test(
        "malformed strategies, constraints, variants and payloads",
        arguments: [
            (#"{"name": "bad", "enabled": true, "strategies": {"name": "default"}}"#, "expected an array"),
            (#"{"name": "bad", "enabled": true, "strategies": [{"parameters": {}}]}"#, "expected a string"),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "flexibleRollout", "parameters": {"rollout": "150"}}]}"#,
                "from 0 to 100"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "gradualRolloutUserId", "parameters": {"percentage": "101", "groupId": "g"}}]}"#,
                "from 0 to 100"
            ),
            (#"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "parameters": {"x": [1]}}]}"#, "parameter"),
            (#"{"name": "bad", "enabled": true, "strategies": [], "variants": [{"name": "a", "weight": -1}]}"#, "weight"),
            (
                #"{"name": "bad", "enabled": true, "strategies": [], "variants": [{"name": "a", "weight": 1, "payload": {"type": "json", "value": "{oops"}}]}"#,
                "not valid JSON"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [], "variants": [{"name": "a", "weight": 1, "payload": {"type": "number", "value": "ten"}}]}"#,
                "not a number"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "n", "operator": "NUM_GT", "value": "ten"}]}]}"#,
                "needs a number"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "soon"}]}]}"#,
                "needs a date-time"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "t", "operator": "DATE_AFTER", "value": "2024-05-01"}]}]}"#,
                "needs a date-time"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "v", "operator": "SEMVER_GT", "value": "1.0"}]}]}"#,
                "semantic version"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "n", "operator": "NUM_GT", "value": "0x10"}]}]}"#,
                "needs a number"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "e", "operator": "STR_CONTAINS", "values": []}]}]}"#,
                "at least one"
            ),
            (
                #"{"name": "bad", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "ip", "operator": "IN_CIDR"}]}]}"#,
                "at least one"
            ),
            (#"{"name": "bad", "enabled": true, "strategies": [], "dependencies": [{"enabled": true}]}"#, "expected a string"),
        ])
    func malformedParts(feature: String, expectedWords: String) throws {
        let problem = try Self.problem(of: feature)
        let why = try #require(Self.unparsableReason(problem), "\(problem.kind)")
        #expect(why.contains(expectedWords), "\(why)")
    }

    @Test(
        "what Unleash's engine reads as never on or never matching is read so here too, with a warning from lint()",
        arguments: [
            (#"{"name": "gradualRolloutUserId", "parameters": {"percentage": "100"}}"#, "has no groupId", false),
            (#"{"name": "gradualRolloutSessionId", "parameters": {"percentage": "100"}}"#, "has no groupId", false),
            (
                #"{"name": "flexibleRollout", "parameters": {"rollout": "12.5", "stickiness": "userId"}}"#, "not a whole number",
                false
            ),
            (#"{"name": "flexibleRollout", "parameters": {"stickiness": "userId"}}"#, "not a whole number", false),
            (#"{"name": "gradualRolloutRandom", "parameters": {"percentage": " 50"}}"#, "not a whole number", false),
            (#"{"name": "remoteAddress", "parameters": {}}"#, "has no IPs", false),
            (constrained(#"{"contextName": "v", "operator": "SEMVER_GT", "value": "v1.0.0"}"#), "leading v", false),
            (
                constrained(#"{"contextName": "v", "operator": "SEMVER_GT", "value": "v1.0.0", "inverted": true}"#), "leading v",
                false
            ),
            (constrained(#"{"contextName": "u", "operator": "REGEX", "value": "(open"}"#), "does not compile", false),
            (constrained(#"{"contextName": "u", "operator": "REGEX", "value": "^(?=a)b"}"#), "look-ahead", false),
            (constrained(#"{"contextName": "u", "operator": "REGEX", "value": "^(a)\\1$"}"#), "back-reference", false),
            (
                constrained(#"{"contextName": "u", "operator": "REGEX", "value": "(open", "inverted": true}"#),
                "does not compile", true
            ),
        ])
    func readAsOff(strategy: String, warning: String, enabled: Bool) throws {
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        #expect(payload.ruleProblems.isEmpty)
        let asked = context(["v": "2.0.0", "u": "ab", "remoteAddress": "10.0.0.1"], key: "u1")
        #expect(payload.isEnabled("f", asked) == enabled)
        let warnings = payload.rules["f"]?.lint() ?? []
        #expect(warnings.count == 1)
        #expect(warnings.first.flatMap(Self.unparsableReason)?.contains(warning) == true, "\(warnings)")
    }

    @Test("an unknown operator rejects that feature alone, as a typed unknownOperator problem")
    func unknownOperatorProblem() throws {
        let bad = feature("bad", strategy: constrained(#"{"contextName": "email", "operator": "STR_LIKE", "values": ["a"]}"#))
        let problem = try Self.problem(of: bad)
        #expect(problem.kind == unknownOperator("STR_LIKE"))
        #expect(problem.path == "features[1].strategies[0].constraints[0].operator")
    }

    @Test("an unknown operator is offered Unleash's operators only, never GrowthBook's")
    func unknownOperatorHint() throws {
        let far = feature("bad", strategy: constrained(#"{"contextName": "email", "operator": "STR_LIKE", "values": ["a"]}"#))
        #expect(
            try Self.problem(of: far).reason
                == "unknown operator \"STR_LIKE\"; use one of IN NOT_IN STR_STARTS_WITH STR_ENDS_WITH STR_CONTAINS NUM_EQ "
                + "NUM_GT NUM_GTE NUM_LT NUM_LTE DATE_AFTER DATE_BEFORE SEMVER_EQ SEMVER_GT SEMVER_GTE SEMVER_LT SEMVER_LTE "
                + "REGEX IN_CIDR")
        let growthBookSpelling = feature("bad", strategy: constrained(#"{"contextName": "email", "operator": "$regex"}"#))
        #expect(try Self.problem(of: growthBookSpelling).reason == "unknown operator \"$regex\"; did you mean \"REGEX\"?")
    }

    @Test("a segment the payload does not define rejects the feature as unknownGroup")
    func missingSegment() throws {
        let bad = feature("bad", strategy: "{\"name\": \"default\", \"segments\": [3]}")
        let problem = try Self.problem(of: bad, segments: #"[{"id": 1, "constraints": []}]"#)
        #expect(problem.kind == .unknownGroup("3"))
        #expect(problem.ruleID == "strategies[0]:default")
    }

    @Test("a feature named twice is rejected, both copies")
    func duplicate() throws {
        let twice = feature("bad", strategy: "{\"name\": \"default\"}")
        let payload = try decode(payload([Self.good, twice, twice]))
        #expect(payload.rules["bad"] == nil)
        #expect(payload.ruleProblems["bad"]?.count == 1)
        #expect(payload.isEnabled("good"))
    }

    @Test("a feature without a name is reported under its position")
    func unnamed() throws {
        let payload = try decode(payload([Self.good, #"{"enabled": true}"#]))
        #expect(payload.ruleProblems["features[1]"]?.first?.key == "features[1]")
        #expect(payload.isEnabled("good"))
    }

    @Test("a feature depending on a rejected feature is rejected too")
    func dependentOfRejected() throws {
        let parent = #"{"name": "parent", "enabled": "on", "strategies": []}"#
        let child = #"{"name": "child", "enabled": true, "strategies": [], "dependencies": [{"feature": "parent"}]}"#
        let payload = try decode(payload([Self.good, parent, child]))
        let problem = try #require(payload.ruleProblems["child"]?.first)
        #expect(Self.unparsableReason(problem)?.contains("depends on feature \"parent\"") == true)
        #expect(payload.rules["child"] == nil)
    }

    @Test(
        "an attribute of the wrong type skips its strategy, reported as attributeType; the next strategy still decides",
        arguments: [
            (#"{"contextName": "age", "operator": "NUM_GT", "value": "18"}"#, "age", ConfigValue.bool(true), "a number"),
            (#"{"contextName": "country", "operator": "IN", "values": ["DE"]}"#, "country", ["DE"], "a string"),
            (
                #"{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2020-01-01T00:00:00Z"}"#, "currentTime",
                1_700_000_000,
                "an ISO 8601 date-time string"
            ),
            (#"{"contextName": "version", "operator": "SEMVER_GT", "value": "1.0.0"}"#, "version", 2, "a version string"),
            (#"{"contextName": "email", "operator": "REGEX", "value": "@"}"#, "email", ["a": "b"], "a string"),
        ] as [(String, String, ConfigValue, String)])
    func wrongAttributeType(constraint: String, attribute: String, value: ConfigValue, expected: String) throws {
        let strategies = constrained(constraint) + ", {\"name\": \"userWithId\", \"parameters\": {\"userIds\": \"u1\"}}"
        let payload = try decode(payload([feature("f", strategy: strategies), Self.good]))
        let wrong = context([attribute: value], key: "u2")
        let decision = try #require(payload.decision("f", wrong))
        #expect(decision.value == .bool(false))
        #expect(decision.problems.map(\.kind) == [.attributeType(attribute: attribute, expected: expected, found: value.kind)])
        #expect(decision.problems.first?.key == "f")
        #expect(decision.unmatched.first?.reason == .problem)
        #expect(payload.isEnabled("f", context([attribute: value], key: "u1")), "the next strategy decides")
        #expect(payload.isEnabled("good", wrong), "other keys are untouched")
        // The variant key reports the problem under its own key.
        #expect(payload.decision("f.variant", wrong)?.problems.first?.key == "f.variant")
    }

    @Test("a stickiness field holding an object is the wrong type")
    func wrongStickinessType() throws {
        let strategy = #"{"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "tenant"}}"#
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        let decision = try #require(payload.decision("f", context(["tenant": ["id": 1]])))
        #expect(decision.problems.map(\.kind) == [.attributeType(attribute: "tenant", expected: "a string", found: .object)])
    }

    @Test(
        "documents that are not an Unleash payload fail whole with a PayloadError",
        arguments: [("not json", "unleash"), ("[1, 2]", "JSON object"), (#"{"toggles": []}"#, "no \"features\" array")])
    func unusableDocument(text: String, expectedWords: String) throws {
        #expect {
            _ = try UnleashFormat().decode(Data(text.utf8))
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.format == "unleash" && error.description.contains(expectedWords)
        }
    }
}
