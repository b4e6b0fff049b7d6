import ConfigDomain
import Foundation
import Testing

@testable import UnleashFormat

/// One constraint case: the constraint JSON, the context's attributes, and whether the feature is on.
struct ConstraintCase: Sendable, CustomStringConvertible {
    let constraint: String
    let attributes: [String: ConfigValue]
    let expected: Bool

    init(_ constraint: String, _ attributes: [String: ConfigValue], _ expected: Bool) {
        self.constraint = constraint
        self.attributes = attributes
        self.expected = expected
    }

    var description: String { "\(constraint) with \(attributes) → \(expected)" }
}

/// Each constraint operator, with the examples of Unleash's "Strategy constraints" documentation
/// (docs.getunleash.io/reference/strategy-constraints): its operator tables, its negation truth
/// table, scheduling with `currentTime`, email domains, and version ranges.
@Suite("Constraint operators")
struct ConstraintTests {
    static func check(_ testCase: ConstraintCase) throws {
        let payload = try decode(payload([feature("f", strategy: constrained(testCase.constraint))]))
        #expect(payload.isEnabled("f", context(testCase.attributes)) == testCase.expected, "\(testCase)")
    }

    @Test(
        "IN and NOT_IN: the region is one of Africa and Europe (the documentation's custom-field example)",
        arguments: [
            ConstraintCase(
                #"{"contextName": "region", "operator": "IN", "values": ["Africa", "Europe"]}"#, ["region": "Europe"], true),
            ConstraintCase(
                #"{"contextName": "region", "operator": "IN", "values": ["Africa", "Europe"]}"#, ["region": "Asia"], false),
            ConstraintCase(#"{"contextName": "region", "operator": "IN", "values": ["Africa", "Europe"]}"#, [:], false),
            ConstraintCase(
                #"{"contextName": "region", "operator": "NOT_IN", "values": ["Africa", "Europe"]}"#, ["region": "Asia"], true),
            ConstraintCase(#"{"contextName": "region", "operator": "NOT_IN", "values": ["Africa", "Europe"]}"#, [:], true),
            // Unleash's engine ignores caseInsensitive on IN and NOT_IN.
            ConstraintCase(
                #"{"contextName": "region", "operator": "IN", "values": ["africa"], "caseInsensitive": true}"#,
                ["region": "AFRICA"], false),
            ConstraintCase(#"{"contextName": "region", "operator": "IN", "values": ["africa"]}"#, ["region": "AFRICA"], false),
            ConstraintCase(#"{"contextName": "userId", "operator": "IN", "values": ["42"]}"#, ["userId": 42], true),
        ])
    func membership(testCase: ConstraintCase) throws { try Self.check(testCase) }

    @Test(
        "STR_ operators: email addresses ending with a company domain, starting with, containing",
        arguments: [
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_ENDS_WITH", "values": ["@mycompany.com"]}"#,
                ["email": "ada@mycompany.com"],
                true),
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_ENDS_WITH", "values": ["@mycompany.com"]}"#,
                ["email": "ada@gmail.com"], false),
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_ENDS_WITH", "values": ["@mycompany.com"]}"#,
                ["email": "ada@MYCOMPANY.com"],
                false),
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_ENDS_WITH", "values": ["@mycompany.com"], "caseInsensitive": true}"#,
                ["email": "ada@MYCOMPANY.com"], true),
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_STARTS_WITH", "values": ["beta-", "qa-"]}"#, ["email": "qa-1@x.io"],
                true),
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_STARTS_WITH", "values": ["beta-"]}"#, ["email": "x-beta-"], false),
            ConstraintCase(#"{"contextName": "email", "operator": "STR_CONTAINS", "values": ["@"]}"#, ["email": "a@b"], true),
            ConstraintCase(#"{"contextName": "email", "operator": "STR_CONTAINS", "values": ["@"]}"#, [:], false),
            ConstraintCase(
                #"{"contextName": "email", "operator": "STR_CONTAINS", "values": ["@"], "inverted": true}"#, [:], true),
        ])
    func strings(testCase: ConstraintCase) throws { try Self.check(testCase) }

    @Test(
        "NUM_ operators and the documentation's negation truth table (4 NUM_EQ 4 is true, negated false; 4 NUM_EQ 5 …)",
        arguments: [
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_EQ", "value": "4"}"#, ["n": 4], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_EQ", "value": "4", "inverted": true}"#, ["n": 4], false),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_EQ", "value": "4"}"#, ["n": 5], false),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_EQ", "value": "4", "inverted": true}"#, ["n": 5], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_EQ", "value": "4"}"#, ["n": "4.0"], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_GT", "value": "4"}"#, ["n": 4.5], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_GT", "value": "4"}"#, ["n": 4], false),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_GTE", "value": "4"}"#, ["n": 4], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_LT", "value": 4}"#, ["n": "3"], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_LT", "value": "4"}"#, ["n": 4], false),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_LTE", "value": "4"}"#, ["n": 4], true),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_LTE", "value": "4"}"#, ["n": "not a number"], false),
            ConstraintCase(#"{"contextName": "n", "operator": "NUM_LTE", "value": "4"}"#, [:], false),
        ])
    func numbers(testCase: ConstraintCase) throws { try Self.check(testCase) }

    @Test(
        "DATE_AFTER and DATE_BEFORE: release at 08:00 on a Monday, available for a limited time (both exclusive)",
        arguments: [
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2024-05-06T08:00:00.000Z"}"#,
                ["currentTime": "2024-05-06T08:00:01Z"], true),
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2024-05-06T08:00:00.000Z"}"#,
                ["currentTime": "2024-05-06T08:00:00Z"], false),
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_BEFORE", "value": "2024-05-06T10:00:00+02:00"}"#,
                ["currentTime": "2024-05-06T07:59:00Z"], true),
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_BEFORE", "value": "2024-05-06T10:00:00+02:00"}"#,
                ["currentTime": "2024-05-06T08:00:00Z"], false),
            // Without currentTime in the context, the time of evaluation is used.
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2000-01-01T00:00:00Z"}"#, [:], true),
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_BEFORE", "value": "2000-01-01T00:00:00Z"}"#, [:], false),
            ConstraintCase(
                #"{"contextName": "currentTime", "operator": "DATE_AFTER", "value": "2000-01-01T00:00:00Z"}"#,
                ["currentTime": "yesterday"], false),
        ])
    func dates(testCase: ConstraintCase) throws { try Self.check(testCase) }

    @Test(
        "SEMVER_ operators: app versions, pre-releases before releases, build metadata ignored",
        arguments: [
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_EQ", "value": "2.1.0"}"#, ["appVersion": "2.1.0"], true),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_EQ", "value": "2.1.0"}"#, ["appVersion": "2.1.0+b7"], true),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_GT", "value": "2.1.0"}"#, ["appVersion": "2.10.0"], true),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_GT", "value": "2.0.0-beta.2"}"#,
                ["appVersion": "2.0.0-beta.11"], true),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_LT", "value": "2.0.0"}"#, ["appVersion": "2.0.0-rc.1"], true),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_LT", "value": "2.0.0"}"#, ["appVersion": "v1.0.0"], false),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_GTE", "value": "2.0.0"}"#, ["appVersion": "2.0.0"], true),
            ConstraintCase(
                #"{"contextName": "appVersion", "operator": "SEMVER_LTE", "value": "2.0.0"}"#, ["appVersion": "2.0.1"], false),
        ])
    func versions(testCase: ConstraintCase) throws { try Self.check(testCase) }

    @Test(
        "REGEX (RE2 syntax, partial match) and IN_CIDR",
        arguments: [
            ConstraintCase(
                #"{"contextName": "email", "operator": "REGEX", "value": "@example\\.(com|org)$"}"#, ["email": "a@example.org"],
                true),
            ConstraintCase(
                #"{"contextName": "email", "operator": "REGEX", "value": "@example\\.(com|org)$"}"#, ["email": "a@example.net"],
                false),
            ConstraintCase(
                #"{"contextName": "email", "operator": "REGEX", "value": "^ADA@", "caseInsensitive": true}"#,
                ["email": "ada@x.io"], true),
            ConstraintCase(
                #"{"contextName": "remoteAddress", "operator": "IN_CIDR", "values": ["10.0.0.0/8", "2001:db8::/32"]}"#,
                ["remoteAddress": "10.20.30.40"], true),
            ConstraintCase(
                #"{"contextName": "remoteAddress", "operator": "IN_CIDR", "values": ["10.0.0.0/8"]}"#,
                ["remoteAddress": "11.0.0.1"], false),
        ])
    func patternsAndRanges(testCase: ConstraintCase) throws { try Self.check(testCase) }

    @Test("constraints are ANDed; a segment's constraints join the strategy's")
    func segments() throws {
        let strategy = """
            {"name": "default", "constraints": [{"contextName": "environment", "operator": "IN", "values": ["production"]}], "segments": [7]}
            """
        let segments =
            #"[{"id": 7, "name": "beta users", "constraints": [{"contextName": "beta", "operator": "IN", "values": ["true"]}]}]"#
        let payload = try decode(payload([feature("f", strategy: strategy)], segments: segments))
        #expect(payload.isEnabled("f", context(["environment": "production", "beta": true])))
        #expect(!payload.isEnabled("f", context(["environment": "production", "beta": false])))
        #expect(!payload.isEnabled("f", context(["environment": "development", "beta": true])))
    }
}
