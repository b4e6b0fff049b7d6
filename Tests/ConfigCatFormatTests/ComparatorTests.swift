import ConfigCatFormat
import ConfigDomain
import Foundation
import Testing

/// Every comparator of user conditions, matching and not, on the custom attribute `A`; the
/// confidential ones against SHA-256 hashes computed with Python's `hashlib` (salt `salt`, context
/// salt the setting key `flag`).
@Suite("ConfigCat comparators")
struct ComparatorTests {
    static let email = "a48173a642e00dd79806c6489b0c6bdaa1102f174d0839243070595d7389ec73"  // "a@example.com"
    static let read = "548e7a11d8207ce85a3cf8690c073e0ce055642e4dc596f169c9f759ab70ebc9"  // "read"
    static let prefix = "2_6e714849c665d0c96d07488a785fd43d2071aa6bf20ba796cbbcea2c4d8aa568"  // the 2 bytes "a@"
    static let suffix = "4_965ddb6b696dbc6064172a0646bb2b05dc6f649b3ad4b09b6730556d17ba3f77"  // the 4 bytes ".com"
    static let firstByte = "1_89f504c6dbba6648fa0c00f0d7a9127fc159ff13984334aa526e718ed6b751ff"  // the first byte of "é"

    static let rows: [(comparator: Int, value: String, attribute: ConfigValue, outcome: RuleOutcome)] = [
        (0, #""l": ["a", "b"]"#, "b", .match), (0, #""l": ["a", "b"]"#, "B", .noMatch), (0, #""l": ["é"]"#, "e\u{301}", .noMatch),
        (1, #""l": ["a", "b"]"#, "c", .match), (1, #""l": ["a", "b"]"#, "a", .noMatch),
        (2, #""l": ["@example", "x"]"#, "a@example.com", .match), (2, #""l": ["zz"]"#, "a@example.com", .noMatch),
        (2, #""l": [""]"#, "abc", .match), (3, #""l": ["zz"]"#, "abc", .match), (3, #""l": ["b"]"#, "abc", .noMatch),
        (4, #""l": ["1.0.0", " 1.2.3 "]"#, " 1.2.3 ", .match), (4, #""l": ["1.0.0", ""]"#, "1.2.3", .noMatch),
        (4, #""l": ["1.2.3", "bad"]"#, "1.2.3", .noMatch), (4, #""l": ["1.2.3+build"]"#, "1.2.3", .match),
        (5, #""l": ["1.0.0"]"#, "1.2.3", .match), (5, #""l": ["1.2.3"]"#, "1.2.3", .noMatch),
        (5, #""l": ["bad"]"#, "1.2.3", .noMatch),
        (
            4, #""l": ["1.2.3"]"#, "v1.2.3",
            .skipped("cannot evaluate, the User.A attribute is invalid ('v1.2.3' is not a valid semantic version)")
        ),
        (
            4, #""l": ["1.2.3"]"#, 123,
            .skipped("cannot evaluate, the User.A attribute is invalid ('123' is not a valid semantic version)")
        ),
        (6, #""s": "2.0.0""#, "1.10.0", .match), (6, #""s": "1.0.0""#, "1.0.0-rc.1", .match),
        (6, #""s": "1.0.0""#, "1.0.0", .noMatch),
        (6, #""s": "bad""#, "1.0.0", .noMatch), (7, #""s": "1.0.0""#, "1.0.0", .match), (7, #""s": "1.0.0""#, "1.0.1", .noMatch),
        (8, #""s": "1.0.0""#, "1.0.1", .match), (8, #""s": "1.0.0-beta.10""#, "1.0.0-beta.9", .noMatch),
        (9, #""s": "1.0.0""#, "1.0.0+b", .match), (9, #""s": "1.0.0""#, "0.9.9", .noMatch),
        (10, #""d": 3"#, " 3 ", .match), (10, #""d": 2.1"#, "2,1", .match), (10, #""d": 3"#, 3.0, .match),
        (10, #""d": 3"#, "3.5", .noMatch),
        (11, #""d": 3"#, 4, .match), (11, #""d": 4.2"#, "NaN", .match), (11, #""d": 3"#, 3, .noMatch),
        (12, #""d": 3"#, "-Infinity", .match), (12, #""d": 3"#, 3, .noMatch), (13, #""d": 3"#, ".3e1", .match),
        (13, #""d": 3"#, 4, .noMatch),
        (14, #""d": 3"#, "Infinity", .match), (14, #""d": 3"#, 3, .noMatch), (15, #""d": 3"#, 3, .match),
        (15, #""d": 3"#, "2", .noMatch),
        (
            10, #""d": 16"#, "0x10",
            .skipped("cannot evaluate, the User.A attribute is invalid ('0x10' is not a valid decimal number)")
        ),
        (10, #""d": 0"#, "0 ", .skipped("cannot evaluate, the User.A attribute is invalid ('0 ' is not a valid decimal number)")),
        (
            10, #""d": 1"#, true,
            .skipped("cannot evaluate, the User.A attribute is invalid ('true' is not a valid decimal number)")
        ),
        (
            10, #""d": 1000"#, "1_000",
            .skipped("cannot evaluate, the User.A attribute is invalid ('1_000' is not a valid decimal number)")
        ),
        (16, #""l": ["\#(email)"]"#, "a@example.com", .match), (16, #""l": ["\#(email)"]"#, "A@example.com", .noMatch),
        (17, #""l": ["\#(email)"]"#, "b@example.com", .match), (17, #""l": ["\#(email)"]"#, "a@example.com", .noMatch),
        (18, #""d": 1680307200"#, 1_680_307_199.999, .match), (18, #""d": 1680307200"#, "1680307200", .noMatch),
        (19, #""d": 1680307200"#, " 1680307200.001 ", .match), (19, #""d": 1680307200"#, 1_680_307_200, .noMatch),
        (
            18, #""d": 1"#, "2023-04-01",
            .skipped(
                "cannot evaluate, the User.A attribute is invalid ('2023-04-01' is not a valid Unix timestamp (number of seconds elapsed since Unix epoch))"
            )
        ),
        (20, #""s": "\#(email)""#, "a@example.com", .match), (20, #""s": "\#(email)""#, "a@example.co", .noMatch),
        (21, #""s": "\#(email)""#, "x", .match), (21, #""s": "\#(email)""#, "a@example.com", .noMatch),
        (22, #""l": ["\#(prefix)"]"#, "a@example.com", .match), (22, #""l": ["\#(prefix)"]"#, "b@example.com", .noMatch),
        (22, #""l": ["\#(firstByte)"]"#, "éa", .match), (23, #""l": ["\#(prefix)"]"#, "b@x", .match),
        (23, #""l": ["\#(prefix)"]"#, "a@x", .noMatch),
        (24, #""l": ["\#(suffix)"]"#, "a@example.com", .match), (24, #""l": ["\#(suffix)"]"#, ".co", .noMatch),
        (25, #""l": ["\#(suffix)"]"#, "a@example.org", .match), (25, #""l": ["\#(suffix)"]"#, "b.com", .noMatch),
        (26, #""l": ["\#(read)"]"#, ["write", "read"], .match), (26, #""l": ["\#(read)"]"#, #"["x", "read"]"#, .match),
        (26, #""l": ["\#(read)"]"#, ["Read"], .noMatch), (27, #""l": ["\#(read)"]"#, ["write"], .match),
        (27, #""l": ["\#(read)"]"#, ["read"], .noMatch),
        (28, #""s": "a@example.com""#, "a@example.com", .match), (28, #""s": "é""#, "e\u{301}", .noMatch),
        (28, #""s": "42""#, 42, .match),
        (28, #""s": "true""#, true, .match), (28, #""s": "[\"a\",\"b\"]""#, ["a", "b"], .match),
        (28, #""s": "1e+21""#, 1e21, .match),
        (28, #""s": "0.000001""#, 1e-6, .match), (28, #""s": "1,x""#, [1, "x"], .match),
        (28, #""s": "[object Object]""#, ["k": 1], .match),
        (29, #""s": "a""#, "b", .match), (29, #""s": "a""#, "a", .noMatch),
        (30, #""l": ["x", "a@"]"#, "a@example.com", .match), (30, #""l": ["x"]"#, "a@example.com", .noMatch),
        (31, #""l": ["x"]"#, "a@example.com", .match), (31, #""l": ["a"]"#, "a@example.com", .noMatch),
        (32, #""l": [".com"]"#, "a@example.com", .match), (32, #""l": [".org"]"#, "a@example.com", .noMatch),
        (33, #""l": [".org"]"#, "a@example.com", .match), (33, #""l": [".com"]"#, "a@example.com", .noMatch),
        (34, #""l": ["read"]"#, ["write", "read"], .match), (34, #""l": ["read"]"#, #"["read"]"#, .match),
        (
            34, #""l": ["read"]"#, "read",
            .skipped(
                "cannot evaluate, the User.A attribute is invalid ('read' is not a valid string array)")
        ),
        (
            34, #""l": ["1"]"#, [1, "a"],
            .skipped("cannot evaluate, the User.A attribute is invalid ('1,a' is not a valid string array)")
        ),
        (35, #""l": ["read"]"#, ["write"], .match), (35, #""l": ["read"]"#, ["read"], .noMatch),
        (35, #""l": ["read"]"#, [], .match),
    ]

    @Test("each comparator matches, does not match, or cannot read the attribute", arguments: rows.indices)
    func comparator(row: Int) throws {
        let (comparator, value, attribute, outcome) = Self.rows[row]
        let payload = try Fixture.decode(Fixture.rule(Fixture.user("A", comparator, value)))
        #expect(
            payload.outcome(in: Fixture.context(["A": attribute])) == outcome, "comparator \(comparator) \(value) on \(attribute)"
        )
    }

    @Test("a missing or empty attribute, and a missing User Object, skip the rule for every comparator", arguments: 0..<36)
    func missingAttribute(comparator: Int) throws {
        let value =
            [6, 7, 8, 9, 20, 21, 28, 29].contains(comparator)
            ? #""s": "x""# : [10, 11, 12, 13, 14, 15, 18, 19].contains(comparator) ? #""d": 1"# : #""l": []"#
        let payload = try Fixture.decode(Fixture.rule(Fixture.user("A", comparator, value)))
        let missing = RuleOutcome.skipped("cannot evaluate, the User.A attribute is missing")
        #expect(payload.outcome(in: Fixture.context()) == missing)
        #expect(payload.outcome(in: Fixture.context(["A": ""])) == missing)
        #expect(payload.outcome(in: Fixture.context(["A": .null])) == missing)
        #expect(payload.outcome(in: .empty) == .skipped("cannot evaluate, User Object is missing"))
    }

    @Test("an attribute of the wrong kind is reported as a rule problem, and the rule is skipped")
    func wrongKindIsAProblem() throws {
        let payload = try Fixture.decode(Fixture.rule(Fixture.user("Version", 8, #""s": "1.0.0""#)))
        let details = payload.evaluate("flag", in: Fixture.context(["Version": 2]))
        #expect(details.value == "default")
        #expect(details.rejected.count == 1)
        let problem = try #require(details.decision?.problems.first)
        #expect(problem.kind == .attributeType(attribute: "Version", expected: "semantic version", found: .int))
        #expect(problem.ruleID == "r[0]")
    }
}
