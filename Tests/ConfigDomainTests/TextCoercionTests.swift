import ConfigDomain
import Foundation
import Testing

/// `init(configText:)`: text typed by a person in an environment variable, argument or `.env` file.
@Suite("Text coercion for overrides typed by a person")
struct TextCoercionTests {
    @Test(
        "Bool accepts true/yes/on/1 in any case, around white space",
        arguments: ["true", "TRUE", "True", " yes ", "On", "1", "yes\n"])
    func boolTrue(_ text: String) throws {
        #expect(try Bool(configText: text) == true)
    }

    @Test("Bool accepts false/no/off/0 in any case", arguments: ["false", "FALSE", "no", "Off", "0", "\tno"])
    func boolFalse(_ text: String) throws {
        #expect(try Bool(configText: text) == false)
    }

    @Test("Bool refuses anything else, listing what it accepts", arguments: ["2", "maybe", "", "t", "enabled", "-1"])
    func boolRefuses(_ text: String) {
        #expect(
            textFailure(Bool.self, text)
                == ConversionError(expectedType: "Bool", found: text, reason: "use true/false, yes/no, on/off or 1/0"))
    }

    @Test(
        "Int accepts whole numbers, also written as 2.0 or 1e3",
        arguments: [("42", 42), ("-7", -7), (" 42 ", 42), ("+5", 5), ("2.0", 2), ("1e3", 1000), ("9223372036854775807", Int.max)]
            as [(String, Int)])
    func intAccepts(_ text: String, expected: Int) throws {
        #expect(try Int(configText: text) == expected)
    }

    @Test(
        "Int refuses fractions, words, hexadecimal, and numbers beyond Int",
        arguments: ["2.5", "abc", "", "0x10", "nan", "1_000", "99999999999999999999", "1e30", "4 2"])
    func intRefuses(_ text: String) {
        #expect(
            textFailure(Int.self, text)
                == ConversionError(expectedType: "Int", found: text, reason: "not a whole number that fits in Int"))
    }

    @Test(
        "Double accepts finite decimal numbers",
        arguments: [("0.25", 0.25), ("3", 3), ("1e-3", 0.001), ("-2.5", -2.5), (" .5 ", 0.5), ("1.", 1), ("+1E2", 100)]
            as [(String, Double)])
    func doubleAccepts(_ text: String, expected: Double) throws {
        #expect(try Double(configText: text) == expected)
    }

    @Test(
        "Double refuses nan, infinities, hexadecimal, words and out-of-range numbers",
        arguments: ["nan", "inf", "-infinity", "0x10", "0x1p3", "abc", "", "1e400", ".", "e5", "1e", "1.2.3"])
    func doubleRefuses(_ text: String) {
        #expect(
            textFailure(Double.self, text)
                == ConversionError(expectedType: "Double", found: text, reason: "not a finite decimal number"))
    }

    @Test("String takes the text exactly as typed, white space included")
    func stringVerbatim() throws {
        #expect(try String(configText: " spaced ") == " spaced ")
        #expect(try String(configText: "42") == "42")
    }

    @Test("URL takes an absolute URL with a scheme and refuses others")
    func url() throws {
        #expect(try URL(configText: "https://example.com/x").host == "example.com")
        #expect(
            textFailure(URL.self, "example.com")
                == ConversionError(expectedType: "URL", found: "example.com", reason: "not an absolute URL with a scheme"))
    }

    @Test("arrays take JSON text, with the element rules")
    func arrays() throws {
        #expect(try [Int](configText: "[1, 2, 3]") == [1, 2, 3])
        #expect(try [String](configText: #"["a","b"]"#) == ["a", "b"])
        #expect(try [Bool](configText: "[]") == [])
    }

    @Test("array text that is not JSON says so with the parser's reason")
    func arrayNotJSON() {
        #expect(
            textFailure([Int].self, "1,2,3")
                == ConversionError(
                    expectedType: "[Int]", found: "1,2,3",
                    reason: "not valid JSON text: invalid JSON at byte 1: unexpected data after the end of the JSON value"))
    }

    @Test("array text with a bad element names its index")
    func arrayBadElement() {
        #expect(textFailure([Int].self, #"[1,"x"]"#)?.reason == "element [1]: expected Int, found a JSON string")
    }
}
