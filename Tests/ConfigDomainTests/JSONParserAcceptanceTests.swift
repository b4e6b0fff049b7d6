import ConfigDomain
import Foundation
import Testing

/// One input the parser must accept, and the value it must produce.
struct AcceptedInput: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let expected: ConfigValue

    init(_ name: String, _ text: String, _ expected: ConfigValue) {
        self.name = name
        self.text = text
        self.expected = expected
    }

    var testDescription: String { name }
}

@Suite("JSONParser accepts every RFC 8259 form and keeps numbers as written")
struct JSONParserAcceptanceTests {
    static let scalars: [AcceptedInput] = [
        AcceptedInput("null", "null", .null),
        AcceptedInput("true", "true", .bool(true)),
        AcceptedInput("false", "false", .bool(false)),
        AcceptedInput("zero", "0", .int(0)),
        AcceptedInput("minus zero is the integer 0", "-0", .int(0)),
        AcceptedInput("one", "1", .int(1)),
        AcceptedInput("negative integer", "-42", .int(-42)),
        AcceptedInput("Int64.max", "9223372036854775807", .int(.max)),
        AcceptedInput("Int64.min", "-9223372036854775808", .int(.min)),
        AcceptedInput("1.0 is a double", "1.0", .double(1.0)),
        AcceptedInput("0.0 is a double", "0.0", .double(0.0)),
        AcceptedInput("fraction", "0.1", .double(0.1)),
        AcceptedInput("negative fraction", "-123.456", .double(-123.456)),
        AcceptedInput("exponent e", "1e2", .double(100)),
        AcceptedInput("exponent E", "1E2", .double(100)),
        AcceptedInput("exponent e+", "1e+2", .double(100)),
        AcceptedInput("exponent E-", "1E-2", .double(0.01)),
        AcceptedInput("1e0 is a double", "1e0", .double(1)),
        AcceptedInput("fraction and exponent", "-1.5e3", .double(-1500)),
        AcceptedInput("exponent with leading zeros", "2.5E+01", .double(25)),
        AcceptedInput(
            "integer too big for Int64 written as a double", "12345678901234567890.0", .double(12_345_678_901_234_567_890.0)),
        AcceptedInput("largest finite double", "1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        AcceptedInput("smallest subnormal double", "5e-324", .double(.leastNonzeroMagnitude)),
        AcceptedInput("underflow reads as zero", "1e-400", .double(0)),
        AcceptedInput("many fraction digits", "0.30000000000000004440892098500626", .double(0.30000000000000004)),
        AcceptedInput("empty string", #""""#, .string("")),
        AcceptedInput("plain string", #""hello""#, .string("hello")),
        AcceptedInput("every short escape", #""\" \\ \/ \b \f \n \r \t""#, .string("\" \\ / \u{08} \u{0C} \n \r \t")),
        AcceptedInput("unescaped solidus", #""a/b""#, .string("a/b")),
        AcceptedInput("\\u escape of ASCII", #""\u0041""#, .string("A")),
        AcceptedInput("\\u escape, lower-case hex", #""\u00e9""#, .string("é")),
        AcceptedInput("\\u escape, upper-case hex", #""\u00E9""#, .string("é")),
        AcceptedInput("\\u escape of a three-byte scalar", #""\u20ac""#, .string("€")),
        AcceptedInput("\\u escape of NUL", #""\u0000""#, .string("\u{0}")),
        AcceptedInput("\\u escape of U+FFFF", #""\uffff""#, .string("\u{FFFF}")),
        AcceptedInput("surrogate pair", #""\ud83d\ude00""#, .string("😀")),
        AcceptedInput("surrogate pair, upper-case hex", #""\uD83D\uDE00""#, .string("😀")),
        AcceptedInput("highest scalar as a surrogate pair", #""\udbff\udfff""#, .string("\u{10FFFF}")),
        AcceptedInput("raw UTF-8 of every length", #""aé€😀""#, .string("aé€😀")),
        AcceptedInput("raw DEL is not a control character for JSON", "\"\u{7F}\"", .string("\u{7F}")),
        AcceptedInput(
            "escapes at every position of a long string", #""abcdefg\nhijklmno\u00e9pqrstuv\"w""#,
            .string("abcdefg\nhijklmnoépqrstuv\"w")),
        AcceptedInput("non-ASCII after eight ASCII bytes", #""abcdefghé""#, .string("abcdefghé")),
    ]

    static let containers: [AcceptedInput] = [
        AcceptedInput("empty array", "[]", .array([])),
        AcceptedInput("empty object", "{}", .object([:])),
        AcceptedInput("empty containers with white space", "[ { } , [ ] ]", .array([.object([:]), .array([])])),
        AcceptedInput(
            "array of every kind", #"[null,true,1,1.5,"s",[],{}]"#,
            .array([.null, .bool(true), .int(1), .double(1.5), .string("s"), .array([]), .object([:])])),
        AcceptedInput(
            "nested object", #"{"a":{"b":[1,2,{"c":null}]}}"#,
            .object(["a": .object(["b": .array([.int(1), .int(2), .object(["c": .null])])])])),
        AcceptedInput(
            "all four white-space bytes everywhere", " \t\n\r{ \"a\" \t:\n[ 1 ,\r2 ] } \r\n",
            .object(["a": .array([.int(1), .int(2)])])),
        AcceptedInput("empty key", #"{"":1}"#, .object(["": .int(1)])),
        AcceptedInput("escaped key", #"{"a\nb":1}"#, .object(["a\nb": .int(1)])),
        AcceptedInput("keys that differ only in case", #"{"a":1,"A":2}"#, .object(["a": .int(1), "A": .int(2)])),
        AcceptedInput("top-level string", #""x""#, .string("x")),
        AcceptedInput("top-level number with white space", "  7  ", .int(7)),
    ]

    @Test("scalars: literals, numbers, strings and escapes", arguments: scalars)
    func acceptsScalars(_ input: AcceptedInput) throws {
        #expect(try JSONParser().parse(input.text) == input.expected)
    }

    @Test("arrays, objects and white space", arguments: containers)
    func acceptsContainers(_ input: AcceptedInput) throws {
        #expect(try JSONParser().parse(input.text) == input.expected)
    }

    @Test("-0.0 is the double minus zero, -0 the integer zero")
    func minusZero() throws {
        let double = try #require(try JSONParser().parse("-0.0").doubleValue)
        #expect(double == 0 && double.sign == .minus)
        #expect(try JSONParser().parse("-0") == .int(0))
        let exponent = try #require(try JSONParser().parse("-0e0").doubleValue)
        #expect(exponent.sign == .minus)
    }

    @Test("64 nested arrays, the default limit, are accepted")
    func acceptsNestingAtDefaultLimit() throws {
        let text = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        var value = try JSONParser().parse(text)
        var depth = 0
        while case .array(let items) = value, let first = items.first {
            depth += 1
            value = first
        }
        #expect(depth == 64)
        #expect(value == .int(1))
    }

    @Test("an object with 1,000 keys keeps every key and value")
    func largeObject() throws {
        let text = "{" + (0..<1_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let members = try #require(try JSONParser().parse(text).objectValue)
        #expect(members.count == 1_000)
        #expect(members["k0"] == .int(0))
        #expect(members["k999"] == .int(999))
    }

    @Test("strings holding commas, brackets and escaped quotes do not split an object's members")
    func membersPastTrickyStrings() throws {
        let text = #"{"a,}":"x,}{\",","b":[1,{"c":"]"},[]],"c\\":{"d":",","e":[","]},"f":"\\\\"}"#
        let members = try #require(try JSONParser().parse(text).objectValue)
        #expect(members.count == 4)
        #expect(members["a,}"] == .string(#"x,}{","#))
        #expect(members["b"] == .array([.int(1), .object(["c": .string("]")]), .array([])]))
        #expect(members[#"c\"#] == .object(["d": .string(","), "e": .array([.string(",")])]))
        #expect(members["f"] == .string(#"\\"#))
        // The same object nested one level down gives the same members.
        let nested = try #require(try JSONParser().parse("[" + text + "]").arrayValue)
        #expect(nested == [.object(members)])
    }

    @Test("an object of large members keeps them all, and reports a repeated key and the depth limit")
    func objectOfLargeMembers() throws {
        let long = String(repeating: "x", count: 200)
        let members = (0..<20).map { #""k\#($0)":{"text":"\#(long)","n":\#($0)}"# }
        let text = "{" + members.joined(separator: ",") + "}"
        let parsed = try #require(try JSONParser().parse(text).objectValue)
        #expect(parsed.count == 20)
        #expect(parsed["k19"] == .object(["text": .string(long), "n": .int(19)]))
        let repeated = "{" + (members + [members[3]]).joined(separator: ",") + "}"
        let offset = repeated.utf8.count - members[3].utf8.count - 1
        #expect(parseFailure(repeated) == JSONParseError(offset: offset, reason: .duplicateKey("k3")))
        #expect(parseFailure(text, maxDepth: 1) == JSONParseError(offset: 6, reason: .tooDeep(limit: 1)))
    }

    @Test("parse(String) and parse(Data) give the same value")
    func entryPointsAgree() throws {
        let text = #"{"a":[1,2.5,"é"],"b":{"c":null}}"#
        let fromString = try JSONParser().parse(text)
        let fromData = try JSONParser().parse(Data(text.utf8))
        #expect(fromString == .object(["a": [1, 2.5, "é"], "b": ["c": nil]]))
        #expect(fromString == fromData)
    }

    @Test("the default parser's depth limit is 64")
    func defaultLimit() {
        #expect(JSONParser().maxDepth == 64)
    }
}
