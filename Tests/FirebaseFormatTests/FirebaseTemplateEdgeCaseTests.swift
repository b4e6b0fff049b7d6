import ConfigDomain
import FirebaseFormat
import Foundation
import Testing

/// The edges of `FirebaseTemplateFormat`: lenient BOOLEAN and NUMBER spellings, duplicates across
/// groups, and the order of the reports.
@Suite("Firebase template format: lenient values, duplicates and report order")
struct FirebaseTemplateEdgeCaseTests {
    private func decode(_ text: String, strict: Bool = false) throws -> FirebaseTemplateFormat.Template {
        try FirebaseTemplateFormat(dropsInvalidParameters: !strict).decodeTemplate(Data(text.utf8))
    }

    private func parameter(_ key: String, type: String, value: String) -> String {
        #""\#(key)": { "defaultValue": { "value": \#(ConfigValue.string(value).jsonText()) }, "valueType": "\#(type)" }"#
    }

    private func single(type: String, value: String) throws -> FirebaseTemplateFormat.Template {
        try decode("{\"parameters\": {\(parameter("p", type: type, value: value))}}")
    }

    @Test(
        "BOOLEAN accepts any case and surrounding spaces or tabs",
        arguments: [
            ("TRUE", true), ("True", true), ("tRuE", true), ("FALSE", false), ("true ", true), ("\ttrue", true),
            (" false\t", false), ("\u{00A0}true", true),
        ])
    func lenientBooleans(text: String, expected: Bool) throws {
        let template = try single(type: "BOOLEAN", value: text)
        #expect(template.values == ["p": .bool(expected)])
        #expect(template.droppedParameters.isEmpty)
    }

    @Test("BOOLEAN refuses other words, inner spaces and a trailing newline", arguments: ["yes", "1", "tru e", "true\n", ""])
    func refusedBooleans(text: String) throws {
        let template = try single(type: "BOOLEAN", value: text)
        #expect(template.values.isEmpty)
        #expect(template.droppedParameters.first?.path == "parameters.p.defaultValue.value")
        #expect(template.droppedParameters.first?.reason.contains("must be \"true\" or \"false\"") == true)
    }

    @Test(
        "NUMBER: JSON numbers keep int and double apart; looser forms and spaces give a double or the int",
        arguments: [
            ("+3", ConfigValue.double(3)), (".5", .double(0.5)), ("1.", .double(1)), ("1e3", .double(1000)),
            ("1E+2", .double(100)), ("-0", .int(0)), ("-0.0", .double(-0.0)), ("01", .double(1)),
            ("-9223372036854775808", .int(Int64.min)), ("-9223372036854775809", .double(-0x1p63)),
            ("7 ", .int(7)), ("\t-2.5\t", .double(-2.5)), ("\u{00A0}7", .int(7)), (" +1e2 ", .double(100)),
        ])
    func lenientNumbers(text: String, expected: ConfigValue) throws {
        let template = try single(type: "NUMBER", value: text)
        #expect(template.values == ["p": expected])
        #expect(template.droppedParameters.isEmpty)
    }

    @Test("NUMBER refuses text that is not one number", arguments: ["--1", "1e", "0x10", "1_000", "1.5.", "2 3", "-", "e5"])
    func refusedNumbers(text: String) throws {
        let template = try single(type: "NUMBER", value: text)
        #expect(template.values.isEmpty)
        #expect(template.droppedParameters.first?.path == "parameters.p.defaultValue.value")
        #expect(template.droppedParameters.first?.reason.contains("finite number") == true)
    }

    @Test("a JSON value with nested objects and arrays decodes whole")
    func nestedJSONValue() throws {
        let template = try single(type: "JSON", value: #"{"a": {"b": [1, {"c": null}], "d": "x"}, "e": [[true]]}"#)
        let expected: ConfigValue = ["a": ["b": [1, ["c": nil]], "d": "x"], "e": [[true]]]
        #expect(template.values == ["p": expected])
    }

    @Test("a name in two groups is dropped from both and reported once, at the first group's path")
    func duplicateAcrossGroups() throws {
        let json = """
            {"parameters": {\(parameter("kept", type: "STRING", value: "k"))},
             "parameterGroups": {
               "beta": {"parameters": {\(parameter("dup", type: "NUMBER", value: "2"))}},
               "alpha": {"parameters": {\(parameter("dup", type: "NUMBER", value: "1"))}}}}
            """
        let template = try decode(json)
        #expect(template.values == ["kept": "k"])
        #expect(
            template.droppedParameters == [
                PayloadError(
                    format: "firebase-template",
                    reason: "the parameter \"dup\" is defined more than once "
                        + "(parameterGroups.alpha.parameters.dup, parameterGroups.beta.parameters.dup); all are ignored",
                    path: "parameterGroups.alpha.parameters.dup")
            ])
    }

    @Test("a name at the top level and in two groups lists its three paths in report order")
    func duplicateThreeTimes() throws {
        let json = """
            {"parameterGroups": {"g2": {"parameters": {\(parameter("x", type: "STRING", value: "3"))}},
                                 "g1": {"parameters": {\(parameter("x", type: "STRING", value: "2"))}}},
             "parameters": {\(parameter("x", type: "STRING", value: "1"))}}
            """
        let template = try decode(json)
        #expect(template.values.isEmpty)
        #expect(template.droppedParameters.count == 1)
        #expect(template.droppedParameters.first?.path == "parameters.x")
        #expect(
            template.droppedParameters.first?.reason.contains(
                "(parameters.x, parameterGroups.g1.parameters.x, parameterGroups.g2.parameters.x)") == true)
    }

    @Test("names that are canonically equivalent count as the same name, each path keeping its own spelling")
    func canonicallyEquivalentNames() throws {
        let composed = "caf\u{00E9}"
        let decomposed = "cafe\u{0301}"
        let json = """
            {"parameters": {\(parameter(composed, type: "STRING", value: "a"))},
             "parameterGroups": {"g": {"parameters": {\(parameter(decomposed, type: "STRING", value: "b"))}}}}
            """
        let template = try decode(json)
        #expect(template.values.isEmpty)
        let report = try #require(template.droppedParameters.first)
        #expect(template.droppedParameters.count == 1)
        // String equality would not tell the spellings apart: compare the scalars.
        #expect(report.path?.unicodeScalars.elementsEqual("parameters.\(composed)".unicodeScalars) == true)
        let paths = "(parameters.\(composed), parameterGroups.g.parameters.\(decomposed))"
        #expect(
            report.reason.unicodeScalars.elementsEqual(
                "the parameter \"\(composed)\" is defined more than once \(paths); all are ignored".unicodeScalars))
    }

    @Test("dropped parameters are reported top level first, then by group name, each section by parameter name")
    func reportOrder() throws {
        let json = """
            {"parameterGroups": {
               "b_group": {"parameters": {\(parameter("a_bad", type: "BOOLEAN", value: "no")), \(parameter("dup", type: "STRING", value: "2"))}},
               "a_group": {"parameters": {\(parameter("z_bad", type: "NUMBER", value: "x")), \(parameter("dup", type: "STRING", value: "1"))}}},
             "parameters": {\(parameter("c", type: "JSON", value: "{")), \(parameter("a", type: "DATE", value: "x")),
                            \(parameter("b", type: "NUMBER", value: "y")), \(parameter("ok", type: "NUMBER", value: "1"))}}
            """
        let template = try decode(json)
        #expect(template.values == ["ok": 1])
        #expect(
            template.droppedParameters.map(\.path) == [
                "parameters.a.valueType", "parameters.b.defaultValue.value", "parameters.c.defaultValue.value",
                "parameterGroups.a_group.parameters.dup", "parameterGroups.a_group.parameters.z_bad.defaultValue.value",
                "parameterGroups.b_group.parameters.a_bad.defaultValue.value",
            ])
    }

    @Test("with dropsInvalidParameters off, the first problem in report order refuses the template")
    func strictModeThrowsTheFirstProblem() {
        let json = """
            {"parameterGroups": {"g": {"parameters": {\(parameter("a", type: "BOOLEAN", value: "no"))}}},
             "parameters": {\(parameter("z", type: "NUMBER", value: "x")), \(parameter("y", type: "NUMBER", value: "x"))}}
            """
        do throws(PayloadError) {
            let template = try FirebaseTemplateFormat(dropsInvalidParameters: false).decodeTemplate(Data(json.utf8))
            Issue.record("expected a PayloadError, got \(template)")
        } catch {
            #expect(error.path == "parameters.y.defaultValue.value")
        }
    }

    @Test("with dropsInvalidParameters off, a duplicate name refuses the template at its first path")
    func strictModeRefusesDuplicates() {
        let json = """
            {"parameterGroups": {"g": {"parameters": {\(parameter("d", type: "STRING", value: "2"))}}},
             "parameters": {\(parameter("d", type: "STRING", value: "1")), \(parameter("e", type: "NUMBER", value: "x"))}}
            """
        do throws(PayloadError) {
            let template = try FirebaseTemplateFormat(dropsInvalidParameters: false).decodeTemplate(Data(json.utf8))
            Issue.record("expected a PayloadError, got \(template)")
        } catch {
            #expect(error.path == "parameters.d")
            #expect(error.reason.contains("more than once"))
        }
    }
}
