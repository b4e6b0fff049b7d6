import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import Testing

/// Every `customSignalOperator`, with signals spelled as people spell them: numbers as text,
/// versions with missing parts, text with white space and accents written two ways.
@Suite("Firebase custom signals: every operator")
struct FirebaseSignalTests {
    private func matches(_ operatorName: String, _ targets: [String], _ value: ConfigValue) throws -> Bool {
        try FirebaseFixture.matches(FirebaseFixture.signal(operatorName, targets: targets), in: FirebaseFixture.signal(value))
    }

    @Test(
        "STRING_CONTAINS and STRING_DOES_NOT_CONTAIN: any target, code point by code point",
        arguments: [
            ("STRING_CONTAINS", ["Sta"], ConfigValue.string("United States"), true),
            ("STRING_CONTAINS", ["US"], "United States", false),
            ("STRING_CONTAINS", ["x", "Uni"], "United States", true), ("STRING_CONTAINS", [""], "", true),
            ("STRING_CONTAINS", ["caf\u{E9}"], "caf\u{E9}!", true), ("STRING_CONTAINS", ["caf\u{E9}"], "cafe\u{301}", false),
            ("STRING_CONTAINS", ["e"], "cafe\u{301}", true), ("STRING_CONTAINS", ["日本"], "ようこそ日本", true),
            ("STRING_CONTAINS", ["2"], 2.0, true), ("STRING_CONTAINS", [".0"], 2.0, false),
            ("STRING_CONTAINS", ["e+21"], 1e21, true),
            ("STRING_DOES_NOT_CONTAIN", ["US"], "DE", true), ("STRING_DOES_NOT_CONTAIN", ["DE", "US"], "USA", false),
            ("STRING_DOES_NOT_CONTAIN", ["x"], "", true), ("STRING_DOES_NOT_CONTAIN", ["7"], 0, true),
        ])
    func contains(operatorName: String, targets: [String], value: ConfigValue, expected: Bool) throws {
        #expect(try matches(operatorName, targets, value) == expected)
    }

    @Test(
        "STRING_EXACTLY_MATCHES: one of the targets, both trimmed of JavaScript's white space, the same code points",
        arguments: [
            (["US"], ConfigValue.string("US"), true), (["US"], " US\t", true), ([" US "], "US", true),
            (["US"], "\u{FEFF}US\u{A0}", true),
            (["US"], "us", false), (["US"], "US\u{85}", false), (["US"], "U S", false), (["DE", "US"], "US", true),
            (["caf\u{E9}"], "cafe\u{301}", false), (["3"], 3, true), (["3"], 3.0, true), (["3.5"], 3.5, true),
            (["0.000001"], 1e-6, true),
        ])
    func exactly(targets: [String], value: ConfigValue, expected: Bool) throws {
        #expect(try matches("STRING_EXACTLY_MATCHES", targets, value) == expected)
    }

    @Test(
        "STRING_CONTAINS_REGEX: any pattern, found anywhere",
        arguments: [
            (["^U.$"], ConfigValue.string("US"), true), (["^\\d+$"], "123", true), (["^\\d+$"], 123, true),
            (["(DE|FR)"], "US", false),
            (["S"], "USA", true), (["x", "^$"], "", true), (["^.{2}$"], "日本", true), (["[a-z]"], "ABC", false),
        ])
    func regex(targets: [String], value: ConfigValue, expected: Bool) throws {
        #expect(try matches("STRING_CONTAINS_REGEX", targets, value) == expected)
    }

    @Test(
        "numeric operators: the signal as a number, numbers as text with spaces, signs, fractions and exponents",
        arguments: [
            ("NUMERIC_LESS_THAN", "3", ConfigValue.int(2), true), ("NUMERIC_LESS_THAN", "3", "2.5", true),
            ("NUMERIC_LESS_THAN", "3", 3, false), ("NUMERIC_LESS_EQUAL", "3", " 3 ", true),
            ("NUMERIC_LESS_EQUAL", "3", "3.01", false),
            ("NUMERIC_EQUAL", "3", "3.0", true), ("NUMERIC_EQUAL", "3", "+3", true), ("NUMERIC_EQUAL", "100", "1e2", true),
            ("NUMERIC_EQUAL", ".5", "0.5", true), ("NUMERIC_EQUAL", "5.", 5, true), ("NUMERIC_EQUAL", "0", 0, true),
            ("NUMERIC_EQUAL", "-0", "0", true), ("NUMERIC_EQUAL", " 4 ", "\u{FEFF}4", true),
            ("NUMERIC_NOT_EQUAL", "3", 4, true), ("NUMERIC_NOT_EQUAL", "3", "3", false),
            ("NUMERIC_GREATER_THAN", "2.5", 3, true), ("NUMERIC_GREATER_THAN", "1e308", "Infinity", true),
            ("NUMERIC_GREATER_THAN", "-Infinity", -1e308, true), ("NUMERIC_GREATER_EQUAL", "7", 7.0, true),
            ("NUMERIC_GREATER_EQUAL", "7", "6.99", false),
        ])
    func numeric(operatorName: String, target: String, value: ConfigValue, expected: Bool) throws {
        #expect(try matches(operatorName, [target], value) == expected)
    }

    @Test(
        "text that is not a number matches no numeric operator, NUMERIC_NOT_EQUAL included",
        arguments: ["", " ", "abc", "3abc", "0x10", "1_000", "nan", "NaN", "inf", "\u{663}", "1e", "--1"])
    func notANumber(text: String) throws {
        for operatorName in ["NUMERIC_EQUAL", "NUMERIC_NOT_EQUAL", "NUMERIC_LESS_THAN", "NUMERIC_GREATER_EQUAL"] {
            #expect(!(try matches(operatorName, ["3"], .string(text))), "\(operatorName) \(text)")
        }
    }

    @Test("a numeric or version operator compares with the first target only")
    func firstTargetOnly() throws {
        #expect(try matches("NUMERIC_EQUAL", ["5", "1"], 5))
        #expect(!(try matches("NUMERIC_EQUAL", ["5", "1"], 1)))
        #expect(try matches("SEMANTIC_VERSION_EQUAL", ["1.2", "abc"], "1.2"))
    }

    @Test(
        "version operators: up to five segments, missing ones 0, compared by value",
        arguments: [
            ("SEMANTIC_VERSION_EQUAL", "1.2", ConfigValue.string("1.2.0"), true),
            ("SEMANTIC_VERSION_EQUAL", "1.2", "1.2.0.0.0", true),
            ("SEMANTIC_VERSION_EQUAL", "1.2", "01.02", true), ("SEMANTIC_VERSION_EQUAL", "1.2", " 1.2 ", true),
            ("SEMANTIC_VERSION_EQUAL", "2", 2, true), ("SEMANTIC_VERSION_EQUAL", "2.0", 2.0, true),
            ("SEMANTIC_VERSION_EQUAL", "1.5", 1.5, true),
            ("SEMANTIC_VERSION_LESS_THAN", "1.10", "1.9", true), ("SEMANTIC_VERSION_LESS_THAN", "1.2", "1.2.0.0.1", false),
            ("SEMANTIC_VERSION_LESS_EQUAL", "1.2.3", "1.2.3", true), ("SEMANTIC_VERSION_GREATER_THAN", "1.2", "1.10", true),
            ("SEMANTIC_VERSION_GREATER_THAN", "99999999999999999998.9", "99999999999999999999.1", true),
            ("SEMANTIC_VERSION_GREATER_EQUAL", "2.4", "2.4.0.0.0", true),
            ("SEMANTIC_VERSION_GREATER_EQUAL", "2.4", "2.3.99", false),
            ("SEMANTIC_VERSION_NOT_EQUAL", "1.2", "1.2.1", true), ("SEMANTIC_VERSION_NOT_EQUAL", "1.2", "1.2.0", false),
        ])
    func versions(operatorName: String, target: String, value: ConfigValue, expected: Bool) throws {
        #expect(try matches(operatorName, [target], value) == expected)
    }

    @Test(
        "text that is not a version matches no version operator",
        arguments: [
            "", "1..2", "1.2.", ".1", "v1.2", "1.2-beta", "-1", "+1.2", "1. 2", "1_0.2", "1.2.3.4.5.6", "\u{661}.2", "1e2",
        ])
    func notAVersion(text: String) throws {
        for operatorName in ["SEMANTIC_VERSION_EQUAL", "SEMANTIC_VERSION_NOT_EQUAL", "SEMANTIC_VERSION_GREATER_EQUAL"] {
            #expect(!(try matches(operatorName, ["1.2"], .string(text))), "\(operatorName) \(text)")
        }
    }

    @Test("a missing or null signal matches no operator, STRING_DOES_NOT_CONTAIN included")
    func missingSignal() throws {
        for operatorName in ["STRING_DOES_NOT_CONTAIN", "NUMERIC_NOT_EQUAL", "SEMANTIC_VERSION_NOT_EQUAL"] {
            let tree = FirebaseFixture.signal(operatorName, targets: ["1"])
            #expect(!(try FirebaseFixture.matches(tree, in: .empty)))
            #expect(!(try FirebaseFixture.matches(tree, in: FirebaseFixture.signal(nil))))
        }
    }

    @Test("0, 0.0 and the empty text are values, compared like any other")
    func falsyValuesAreValues() throws {
        #expect(try matches("NUMERIC_EQUAL", ["0"], 0))
        #expect(try matches("NUMERIC_EQUAL", ["0"], 0.0))
        #expect(try matches("STRING_EXACTLY_MATCHES", [""], ""))
        #expect(try matches("STRING_DOES_NOT_CONTAIN", ["x"], ""))
    }

    @Test(
        "a signal that is neither a string nor a number matches nothing and is reported as an attribute of the wrong type",
        arguments: [(.bool(true), .bool), (.array([1, 2]), .array), (["a": 1], .object)] as [(ConfigValue, ConfigValue.Kind)])
    func wrongType(value: ConfigValue, kind: ConfigValue.Kind) throws {
        let details = try FirebaseFixture.evaluate(
            condition: FirebaseFixture.signal("STRING_DOES_NOT_CONTAIN", targets: ["x"]), in: FirebaseFixture.signal(value))
        #expect(details.value == "off")
        #expect(
            details.decision?.problems == [
                RuleProblem(
                    key: "p", ruleID: "c", kind: .attributeType(attribute: "s", expected: "a string or a number", found: kind))
            ])
        #expect(details.decision?.unmatched == [UnmatchedRule(ruleID: "c", reason: .problem)])
    }

    @Test("the signal named randomizationId reads the randomization id; a dotted name is one attribute, not a path")
    func signalNames() throws {
        let byID = FirebaseFixture.signal("STRING_EXACTLY_MATCHES", key: "randomizationId", targets: ["u1"])
        #expect(try FirebaseFixture.matches(byID, in: EvaluationContext(targetingKey: "u1")))
        let dotted = FirebaseFixture.signal("STRING_EXACTLY_MATCHES", key: "device.os", targets: ["ios"])
        #expect(try FirebaseFixture.matches(dotted, in: EvaluationContext(attributes: ["device.os": "ios"])))
        #expect(!(try FirebaseFixture.matches(dotted, in: EvaluationContext(attributes: ["device": ["os": "ios"]]))))
    }
}
