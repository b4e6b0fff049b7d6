import ConfigDomain
import Foundation
import Testing

/// The rules documented on `ConfigValueConvertible`, for `init(configValue:)`.
@Suite("Conversion rules from ConfigValue to Swift types")
struct ConversionRuleTests {
    // MARK: Bool

    @Test("Bool reads .bool")
    func boolReadsBool() throws {
        #expect(try Bool(configValue: .bool(true)) == true)
        #expect(try Bool(configValue: .bool(false)) == false)
    }

    @Test(
        "Bool refuses every other kind, saying what it found",
        arguments: [
            (ConfigValue.int(1), "int"), (.double(1), "double"), (.string("true"), "string"), (.null, "null"),
            (.array([.bool(true)]), "array"), (.object([:]), "object"),
        ] as [(ConfigValue, String)])
    func boolRefuses(_ value: ConfigValue, kind: String) {
        let error = conversionFailure(Bool.self, value)
        #expect(
            error == ConversionError(expectedType: "Bool", found: value.jsonText(), reason: "expected Bool, found a JSON \(kind)")
        )
    }

    // MARK: Int

    @Test(
        "Int reads integers, and doubles that are integral and exact",
        arguments: [
            (ConfigValue.int(42), 42), (.int(-7), -7), (.int(.max), Int(Int64.max)), (.double(2.0), 2), (.double(-0.0), 0),
            (.double(-3e3), -3000), (.double(9_007_199_254_740_992), 9_007_199_254_740_992),
        ] as [(ConfigValue, Int)])
    func intReads(_ value: ConfigValue, expected: Int) throws {
        #expect(try Int(configValue: value) == expected)
    }

    @Test(
        "Int refuses fractional and out-of-range doubles",
        arguments: [ConfigValue.double(2.5), .double(-0.1), .double(1e300), .double(9.3e18), .double(.nan), .double(.infinity)])
    func intRefusesInexactDoubles(_ value: ConfigValue) {
        #expect(
            conversionFailure(Int.self, value)
                == ConversionError(
                    expectedType: "Int", found: value.jsonText(), reason: "not an integral number that fits in Int"))
    }

    @Test("Int refuses strings (never silently a number), Booleans and null")
    func intRefusesOtherKinds() {
        #expect(conversionFailure(Int.self, .string("42"))?.reason == "expected Int, found a JSON string")
        #expect(conversionFailure(Int.self, .bool(true))?.reason == "expected Int, found a JSON bool")
        #expect(conversionFailure(Int.self, .null)?.reason == "expected Int, found a JSON null")
    }

    // MARK: Double

    @Test("Double reads doubles and integers (large integers round to the nearest double)")
    func doubleReads() throws {
        #expect(try Double(configValue: .double(0.25)) == 0.25)
        #expect(try Double(configValue: .int(3)) == 3.0)
        #expect(try Double(configValue: .int(9_007_199_254_740_993)) == 9_007_199_254_740_992.0)
        #expect(try Double(configValue: .int(.max)) == 9_223_372_036_854_775_808.0)
    }

    @Test("Double refuses strings, Booleans and null")
    func doubleRefuses() {
        #expect(
            conversionFailure(Double.self, .string("1.5"))
                == ConversionError(expectedType: "Double", found: #""1.5""#, reason: "expected Double, found a JSON string"))
        #expect(conversionFailure(Double.self, .bool(false))?.reason == "expected Double, found a JSON bool")
        #expect(conversionFailure(Double.self, .null)?.reason == "expected Double, found a JSON null")
    }

    // MARK: String

    @Test("String reads only strings: a number is never silently a string")
    func stringRules() throws {
        #expect(try String(configValue: .string("hi")) == "hi")
        #expect(try String(configValue: .string("")) == "")
        #expect(conversionFailure(String.self, .int(1))?.reason == "expected String, found a JSON int")
        #expect(conversionFailure(String.self, .double(1.5))?.reason == "expected String, found a JSON double")
        #expect(conversionFailure(String.self, .bool(true))?.reason == "expected String, found a JSON bool")
    }

    // MARK: URL

    @Test("URL reads a string that is an absolute URL with a scheme")
    func urlReads() throws {
        #expect(try URL(configValue: .string("https://example.com/x?y=1")).absoluteString == "https://example.com/x?y=1")
        #expect(try URL(configValue: .string("mailto:someone@example.com")).scheme == "mailto")
    }

    @Test("URL refuses relative paths, empty text and non-strings", arguments: ["/relative/path", "example.com", ""])
    func urlRefusesRelative(_ text: String) {
        #expect(
            conversionFailure(URL.self, .string(text))
                == ConversionError(expectedType: "URL", found: text, reason: "not an absolute URL with a scheme"))
    }

    @Test("URL refuses a number")
    func urlRefusesNumber() {
        #expect(conversionFailure(URL.self, .int(1))?.reason == "expected URL, found a JSON int")
    }

    // MARK: Arrays

    @Test("arrays read when every element converts, with the element rules")
    func arraysRead() throws {
        #expect(try [Int](configValue: [1, 2, 3]) == [1, 2, 3])
        #expect(try [Int](configValue: [1, 2.0]) == [1, 2])
        #expect(try [Double](configValue: [1, 2.5]) == [1.0, 2.5])
        #expect(try [String](configValue: []) == [])
        #expect(try [[Bool]](configValue: [[true], []]) == [[true], []])
        #expect(try [URL](configValue: ["https://a.example"]).map(\.host) == ["a.example"])
    }

    @Test("an array with a bad element names the first bad index")
    func arrayNamesBadIndex() {
        #expect(
            conversionFailure([Int].self, [1, "two", 3, "four"])
                == ConversionError(
                    expectedType: "[Int]", found: #"[1,"two",3,"four"]"#, reason: "element [1]: expected Int, found a JSON string"
                ))
        #expect(conversionFailure([Int].self, [1, 2, 2.5])?.reason == "element [2]: not an integral number that fits in Int")
        #expect(
            conversionFailure([[Int]].self, [[1], [true]])?.reason
                == "element [1]: element [0]: expected Int, found a JSON bool")
    }

    @Test("a non-array is refused as the array type")
    func arrayRefusesScalar() {
        #expect(conversionFailure([String].self, "a")?.reason == "expected [String], found a JSON string")
    }

    // MARK: Back to values and names

    @Test("configValue renders each type as the matching case (1.0 stays a double)")
    func configValueRendering() throws {
        #expect(true.configValue == .bool(true))
        #expect(1.configValue == .int(1))
        #expect(1.0.configValue == .double(1.0))
        #expect("s".configValue == .string("s"))
        #expect(try #require(URL(string: "https://example.com")).configValue == .string("https://example.com"))
        #expect([1, 2].configValue == .array([.int(1), .int(2)]))
    }

    @Test("type names in messages")
    func typeNames() {
        #expect(Bool.configTypeName == "Bool")
        #expect(Int.configTypeName == "Int")
        #expect(Double.configTypeName == "Double")
        #expect(String.configTypeName == "String")
        #expect(URL.configTypeName == "URL")
        #expect([[String]].configTypeName == "[[String]]")
    }
}
