import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import Testing

@Suite("Firebase Remote Config template format")
struct FirebaseTemplateFormatTests {
    private let format = FirebaseTemplateFormat()

    private func decode(_ text: String, _ format: FirebaseTemplateFormat = FirebaseTemplateFormat()) throws
        -> FirebaseTemplateFormat.Template
    {
        try format.decodeTemplate(Data(text.utf8))
    }

    private func failure(_ text: String, _ format: FirebaseTemplateFormat = FirebaseTemplateFormat()) -> PayloadError? {
        do throws(PayloadError) {
            let template = try format.decodeTemplate(Data(text.utf8))
            Issue.record("expected a PayloadError, got \(template)")
            return nil
        } catch {
            return error
        }
    }

    private func parameter(_ key: String, type: String?, value: String) -> String {
        let encoded = ConfigValue.string(value).jsonText()
        let typeMember = type.map { #", "valueType": "\#($0)""# } ?? ""
        return #""\#(key)": { "defaultValue": { "value": \#(encoded) }\#(typeMember) }"#
    }

    /// A template shaped like a console export: parameters, a group, conditions, version.
    private static let exported = #"""
        {
          "conditions": [
            { "name": "ios", "expression": "device.os == 'ios'", "tagColor": "BLUE" }
          ],
          "parameters": {
            "welcome": {
              "defaultValue": { "value": "Hello" },
              "conditionalValues": { "ios": { "value": "Hello iOS" } },
              "description": "Greeting",
              "valueType": "STRING"
            },
            "max_items": { "defaultValue": { "value": "20" }, "valueType": "NUMBER" },
            "ratio": { "defaultValue": { "value": "0.25" }, "valueType": "NUMBER" },
            "legacy": { "defaultValue": { "value": "no type" } },
            "unset": { "defaultValue": { "useInAppDefault": true }, "valueType": "BOOLEAN" },
            "only_conditional": { "conditionalValues": { "ios": { "value": "x" } }, "valueType": "STRING" }
          },
          "parameterGroups": {
            "checkout": {
              "description": "Checkout flags",
              "parameters": {
                "new_checkout": { "defaultValue": { "value": "true" }, "valueType": "BOOLEAN" },
                "theme": { "defaultValue": { "value": "{\"dark\":true,\"accent\":[1,2.5]}" }, "valueType": "JSON" }
              }
            },
            "empty_group": { "description": "nothing yet" }
          },
          "version": { "versionNumber": "42", "updateTime": "2024-05-01T10:00:00.000Z", "updateOrigin": "CONSOLE" }
        }
        """#

    @Test("an exported template yields each parameter's default value by its valueType, groups merged in")
    func exportedTemplate() throws {
        let template = try decode(Self.exported)
        #expect(
            template.values == [
                "welcome": .string("Hello"), "max_items": .int(20), "ratio": .double(0.25), "legacy": .string("no type"),
                "new_checkout": .bool(true), "theme": ["dark": true, "accent": [1, 2.5]],
            ])
        #expect(template.droppedParameters.isEmpty)
        #expect(template.versionNumber == "42")
        #expect(try format.decode(Data(Self.exported.utf8)).values == template.values)
        #expect(format.name == "firebase-template")
    }

    @Test("a client template's condition (an expression) never matches: its parameters serve their defaults, with a problem")
    func clientConditionsServeDefaults() throws {
        let template = try decode(Self.exported)
        #expect(template.values["welcome"] == .string("Hello"))
        #expect(template.values["only_conditional"] == nil)
        #expect(template.conditionProblems.map(\.path) == ["conditions[0]"])
        let payload = try format.decode(Data(Self.exported.utf8))
        let welcome = payload.evaluate("welcome", in: EvaluationContext(attributes: ["device.os": "ios"]))
        #expect(welcome.value == "Hello")
        #expect(welcome.reason == .defaultValue)
        #expect(welcome.decision?.problems.first?.ruleID == "ios")
        #expect(welcome.decision?.problems.first?.reason.contains("client template's condition") == true)
        #expect(payload.evaluate("only_conditional").value == nil)
    }

    @Test("useInAppDefault and a missing defaultValue leave the key absent")
    func inAppDefaultIsAbsent() throws {
        let template = try decode(Self.exported)
        #expect(template.values["unset"] == nil)
        #expect(!template.values.keys.contains("unset"))
    }

    @Test(
        "BOOLEAN values", arguments: [("true", true), ("false", false), ("TRUE", true), (" False ", false)])
    func booleans(text: String, expected: Bool) throws {
        let template = try decode("{\"parameters\": {\(parameter("flag", type: "BOOLEAN", value: text))}}")
        #expect(template.values == ["flag": .bool(expected)])
    }

    @Test(
        "NUMBER values keep integer and fraction apart",
        arguments: [
            ("20", ConfigValue.int(20)), ("-3", .int(-3)), ("0.5", .double(0.5)), ("1e3", .double(1000)), ("2.0", .double(2.0)),
            (" 7 ", .int(7)), (".5", .double(0.5)), ("+4", .double(4)),
            ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ])
    func numbers(text: String, expected: ConfigValue) throws {
        let template = try decode("{\"parameters\": {\(parameter("n", type: "NUMBER", value: text))}}")
        #expect(template.values == ["n": expected])
    }

    @Test(
        "STRING values are verbatim, including text that looks like another type",
        arguments: ["true", "20", "{}", "", " spaced "])
    func strings(text: String) throws {
        let template = try decode("{\"parameters\": {\(parameter("s", type: "STRING", value: text))}}")
        #expect(template.values == ["s": .string(text)])
    }

    @Test(
        "JSON values parse to any JSON value",
        arguments: [
            ("{\"a\":1}", ConfigValue.object(["a": .int(1)])), ("[1,\"x\"]", .array([.int(1), .string("x")])), ("3", .int(3)),
            ("null", .null), ("\"s\"", .string("s")),
        ] as [(String, ConfigValue)])
    func jsonValues(text: String, expected: ConfigValue) throws {
        let template = try decode("{\"parameters\": {\(parameter("j", type: "JSON", value: text))}}")
        #expect(template.values == ["j": expected])
    }

    @Test("a missing or unspecified valueType reads as STRING")
    func unspecifiedValueType() throws {
        let template = try decode(
            "{\"parameters\": {\(parameter("a", type: nil, value: "1")), \(parameter("b", type: "PARAMETER_VALUE_TYPE_UNSPECIFIED", value: "true"))}}"
        )
        #expect(template.values == ["a": "1", "b": "true"])
    }

    @Test(
        "a bad value drops that parameter alone and reports its path",
        arguments: [
            ("BOOLEAN", "maybe", "must be \"true\" or \"false\""), ("NUMBER", "abc", "finite number"),
            ("NUMBER", "NaN", "finite number"),
            ("NUMBER", "inf", "finite number"), ("NUMBER", "", "finite number"), ("NUMBER", "1e999", "finite number"),
            ("JSON", "{\"a\":", "not valid JSON"), ("JSON", "{'a':1}", "not valid JSON"),
            ("DATE", "2024-01-01", "unknown valueType"),
        ])
    func badValueIsDroppedAlone(type: String, text: String, reason: String) throws {
        let json =
            "{\"parameters\": {\(parameter("bad", type: type, value: text)), \(parameter("good", type: "STRING", value: "kept"))}}"
        let template = try decode(json)
        #expect(template.values == ["good": "kept"])
        let problem = try #require(template.droppedParameters.first)
        #expect(template.droppedParameters.count == 1)
        #expect(problem.format == "firebase-template")
        #expect(problem.path?.hasPrefix("parameters.bad.") == true)
        #expect(problem.reason.contains(reason), "\(problem.reason)")
    }

    @Test("a bad value inside a group names the group in its path")
    func badValueInGroup() throws {
        let json = """
            {"parameterGroups": {"checkout": {"parameters": {\(parameter("flag", type: "BOOLEAN", value: "yes please"))}}}}
            """
        let template = try decode(json)
        #expect(template.values.isEmpty)
        #expect(template.droppedParameters.first?.path == "parameterGroups.checkout.parameters.flag.defaultValue.value")
    }

    @Test("decode reports each dropped parameter to the handler and returns the rest")
    func droppedParametersReachTheHandler() throws {
        let collected = Collected()
        let reporting = FirebaseTemplateFormat(onDroppedParameter: { collected.add($0) })
        let json =
            "{\"parameters\": {\(parameter("a", type: "NUMBER", value: "x")), \(parameter("b", type: "NUMBER", value: "2"))}}"
        #expect(try reporting.decode(Data(json.utf8)).values == ["b": 2])
        #expect(collected.all.map(\.path) == ["parameters.a.defaultValue.value"])
    }

    @Test("with dropsInvalidParameters off, a bad value refuses the whole template naming the parameter")
    func strictModeRefusesTemplate() {
        let strict = FirebaseTemplateFormat(dropsInvalidParameters: false)
        let json =
            "{\"parameters\": {\(parameter("a", type: "BOOLEAN", value: "maybe")), \(parameter("b", type: "STRING", value: "ok"))}}"
        let error = failure(json, strict)
        #expect(error?.path == "parameters.a.defaultValue.value")
        #expect(error?.description.contains("parameters.a.defaultValue.value") == true)
    }

    @Test(
        "a parameter of the wrong shape is dropped alone",
        arguments: [
            (#""p": "plain""#, "parameters.p", "must be an object"),
            (#""p": {"defaultValue": "x"}"#, "parameters.p.defaultValue", "must be an object"),
            (#""p": {"defaultValue": {"value": 3}, "valueType": "NUMBER"}"#, "parameters.p.defaultValue.value", "JSON string"),
            (#""p": {"defaultValue": {"value": "3"}, "valueType": 3}"#, "parameters.p.valueType", "must be a string"),
            (
                #""p": {"defaultValue": {"personalizationValue": {"personalizationId": "x"}}}"#, "parameters.p.defaultValue",
                "not supported"
            ),
        ])
    func wrongShapeIsDropped(member: String, path: String, reason: String) throws {
        let template = try decode("{\"parameters\": {\(member), \(parameter("ok", type: "STRING", value: "v"))}}")
        #expect(template.values == ["ok": "v"])
        #expect(template.droppedParameters.first?.path == path)
        #expect(template.droppedParameters.first?.reason.contains(reason) == true)
    }

    @Test("a name defined twice (top level and in a group) is dropped everywhere and reported once")
    func duplicateNamesAreDropped() throws {
        let json = """
            {"parameters": {\(parameter("dup", type: "STRING", value: "top")), \(parameter("one", type: "STRING", value: "1"))},
             "parameterGroups": {"g": {"parameters": {\(parameter("dup", type: "STRING", value: "grouped"))}}}}
            """
        let template = try decode(json)
        #expect(template.values == ["one": "1"])
        #expect(template.droppedParameters.count == 1)
        #expect(template.droppedParameters.first?.reason.contains("more than once") == true)
    }

    @Test("an empty template and a template with only a version decode to no values")
    func emptyTemplates() throws {
        #expect(try decode("{}").values.isEmpty)
        #expect(try decode(#"{"version": {"versionNumber": "1"}}"#).values.isEmpty)
        #expect(try decode(#"{"parameters": {}, "conditions": []}"#).values.isEmpty)
    }

    @Test(
        "input that is not a template is refused whole",
        arguments: [
            (#"{"new_checkout": true, "max_items": 3}"#, "not a Firebase Remote Config template"),
            (#"[1, 2]"#, "found a JSON array"), (#""text""#, "found a JSON string"),
            (#"{"parameters": []}"#, "\"parameters\" must be an object"),
            (#"{"parameterGroups": 3}"#, "\"parameterGroups\" must be an object"),
            (#"{"parameterGroups": {"g": []}}"#, "must be an object"),
            (#"{"parameterGroups": {"g": {"parameters": "x"}}}"#, "must be an object"),
            (#"{"version": 3, "flag": true}"#, "not a Firebase Remote Config template"),
        ])
    func nonTemplateIsRefused(text: String, reason: String) {
        let error = failure(text)
        #expect(error?.format == "firebase-template")
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    @Test("bytes that are not JSON are refused with the parser's reason and byte offset")
    func malformedJSON() {
        let error = failure(#"{"parameters": {"a": }"#)
        #expect(error?.offset == 21)
        #expect(error?.reason.contains("unexpected character") == true)
    }
}

/// Collects reported problems.
private final class Collected: Sendable {
    private let items = Locked<[PayloadError]>([])
    func add(_ item: PayloadError) { items.withLock { $0.append(item) } }
    var all: [PayloadError] { items.current }
}
