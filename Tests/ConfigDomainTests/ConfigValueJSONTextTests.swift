import ConfigDomain
import Foundation
import Testing

@Suite("ConfigValue.jsonText renders JSON that parses back to the same value")
struct ConfigValueJSONTextTests {
    static let values: [ConfigValue] = [
        .null, .bool(false), .int(.min), .int(.max), .double(0.1), .double(-0.0), .double(1e20), .double(1e-7),
        .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude), .string(""),
        .string("quote \" backslash \\ slash / controls \u{0}\u{1}\u{8}\u{C}\n\r\t\u{1F} unicode é😀 del \u{7F}"),
        .array([]), .object([:]), .array([.int(1), .array([.object(["a": .null])])]),
        .object(["z": .int(1), "a": .string("x"), "m": .array([.bool(true)])]),
    ]

    @Test("round trip through the parser", arguments: values)
    func roundTrips(_ value: ConfigValue) throws {
        let parsed = try JSONParser().parse(value.jsonText())
        #expect(parsed == value)
        #expect(try JSONParser().parse(value.jsonData(sortedKeys: false)) == value)
        if case .double(let d) = value, case .double(let back) = parsed { #expect(d.sign == back.sign) }
    }

    @Test("doubles always render as doubles, never as integers")
    func doublesRenderAsDoubles() {
        #expect(ConfigValue.double(1).jsonText() == "1.0")
        #expect(ConfigValue.double(-0.0).jsonText() == "-0.0")
        #expect(ConfigValue.double(1e20).jsonText() == "1e+20")
    }

    @Test("control characters are escaped, with short forms where JSON has them")
    func escapes() {
        #expect(ConfigValue.string("a\u{1}\n\"\\").jsonText() == #""a\u0001\n\"\\""#)
    }

    @Test("keys are sorted by default and description is the same text")
    func sortedKeys() {
        let value: ConfigValue = ["b": 1, "a": 2]
        #expect(value.jsonText() == #"{"a":2,"b":1}"#)
        #expect(value.description == value.jsonText())
        #expect(value.jsonData() == Data(#"{"a":2,"b":1}"#.utf8))
    }

    @Test("non-finite doubles, which JSON cannot hold, render as null")
    func nonFinite() {
        #expect(ConfigValue.double(.nan).jsonText() == "null")
        #expect(ConfigValue.double(.infinity).jsonText() == "null")
    }

    @Test("literals build the matching cases and accessors read them")
    func literalsAndAccessors() {
        let value: ConfigValue = ["n": nil, "b": true, "i": 1, "d": 1.5, "s": "x", "a": [1, 2]]
        #expect(value["n"]?.isNull == true)
        #expect(value["b"]?.boolValue == true)
        #expect(value["i"]?.intValue == 1)
        #expect(value["d"]?.doubleValue == 1.5)
        #expect(value["s"]?.stringValue == "x")
        #expect(value["a"]?.arrayValue == [.int(1), .int(2)])
        #expect(value.objectValue?.count == 6)
        #expect(value["i"]?.doubleValue == nil)
        #expect(ConfigValue.int(1)["x"] == nil)
        #expect(ConfigValue.Kind.allCases.map(\.description) == ["null", "bool", "int", "double", "string", "array", "object"])
    }
}
