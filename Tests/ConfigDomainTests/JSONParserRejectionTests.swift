import ConfigDomain
import Foundation
import Testing

/// One input the parser must refuse, with the exact reason and byte offset.
struct RejectedInput: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: JSONParseError

    init(_ name: String, _ text: String, _ reason: JSONParseError.Reason, at offset: Int) {
        self.init(name, bytes: Array(text.utf8), reason, at: offset)
    }

    init(_ name: String, bytes: [UInt8], _ reason: JSONParseError.Reason, at offset: Int) {
        self.name = name
        self.bytes = bytes
        self.expected = JSONParseError(offset: offset, reason: reason)
    }

    var testDescription: String { name }
}

@Suite("JSONParser refuses malformed JSON with the exact reason and byte offset")
struct JSONParserRejectionTests {
    static let structure: [RejectedInput] = [
        RejectedInput("empty input", "", .emptyInput, at: 0),
        RejectedInput("whitespace only", " \t\r\n ", .emptyInput, at: 5),
        RejectedInput("byte-order mark", "\u{FEFF}{}", .unexpectedByte(0xEF), at: 0),
        RejectedInput("literal tru cut short", "tru", .unexpectedEnd, at: 3),
        RejectedInput("literal nul cut short", "nul", .unexpectedEnd, at: 3),
        RejectedInput("literal fals cut short in an array", "[fals", .unexpectedEnd, at: 5),
        RejectedInput("literal with a wrong letter", "trUe", .unexpectedByte(UInt8(ascii: "U")), at: 2),
        RejectedInput("capitalised literal", "True", .unexpectedByte(UInt8(ascii: "T")), at: 0),
        RejectedInput("literal followed by letters", "truex", .trailingData, at: 4),
        RejectedInput("literal followed by letters in an array", "[nullx]", .unexpectedByte(UInt8(ascii: "x")), at: 5),
        RejectedInput("NaN", "NaN", .unexpectedByte(UInt8(ascii: "N")), at: 0),
        RejectedInput("Infinity", "Infinity", .unexpectedByte(UInt8(ascii: "I")), at: 0),
        RejectedInput("single-quoted string", "'a'", .unexpectedByte(UInt8(ascii: "'")), at: 0),
        RejectedInput("comment", "// note\n1", .unexpectedByte(UInt8(ascii: "/")), at: 0),
        RejectedInput("vertical tab is not JSON white space", "\u{0B}1", .unexpectedByte(0x0B), at: 0),
        RejectedInput("no-break space is not JSON white space", "\u{A0}1", .unexpectedByte(0xC2), at: 0),
        RejectedInput("stray byte 0xFF outside a string", bytes: [0xFF], .unexpectedByte(0xFF), at: 0),
        RejectedInput("trailing comma in an array", "[1,]", .trailingComma(closing: "]"), at: 2),
        RejectedInput("trailing comma and a line break in an array", "[1,\n ]", .trailingComma(closing: "]"), at: 2),
        RejectedInput("leading comma in an array", "[,1]", .unexpectedByte(UInt8(ascii: ",")), at: 1),
        RejectedInput("double comma in an array", "[1,,2]", .unexpectedByte(UInt8(ascii: ",")), at: 3),
        RejectedInput("trailing comma in an object", #"{"a":1,}"#, .trailingComma(closing: "}"), at: 6),
        RejectedInput("two commas in an object", #"{"a":1,,"b":2}"#, .unexpectedByte(UInt8(ascii: ",")), at: 7),
        RejectedInput("leading comma in an object", #"{,"a":1}"#, .unexpectedByte(UInt8(ascii: ",")), at: 1),
        RejectedInput("double comma in an object", #"{"a":1,,"b":2}"#, .unexpectedByte(UInt8(ascii: ",")), at: 7),
        RejectedInput("missing comma in an array", "[1 2]", .unexpectedByte(UInt8(ascii: "2")), at: 3),
        RejectedInput("missing comma in an object", #"{"a":1 "b":2}"#, .unexpectedByte(UInt8(ascii: "\"")), at: 7),
        RejectedInput("missing colon", #"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1")), at: 5),
        RejectedInput("missing value", #"{"a":}"#, .unexpectedByte(UInt8(ascii: "}")), at: 5),
        RejectedInput("number as a key", "{1:2}", .unexpectedByte(UInt8(ascii: "1")), at: 1),
        RejectedInput("unclosed array", "[1", .unexpectedEnd, at: 2),
        RejectedInput("unclosed object", #"{"a":1"#, .unexpectedEnd, at: 6),
        RejectedInput("unclosed object after the key", #"{"a""#, .unexpectedEnd, at: 4),
        RejectedInput("unclosed string", #""abc"#, .unexpectedEnd, at: 4),
        RejectedInput("unclosed long string", #""abcdefghijklmnopqrstuvwxyz"#, .unexpectedEnd, at: 27),
        RejectedInput("mismatched brackets", "[1}", .unexpectedByte(UInt8(ascii: "}")), at: 2),
        RejectedInput("garbage after an array", "[1]x", .trailingData, at: 3),
        RejectedInput("second top-level value", "1 2", .trailingData, at: 2),
        RejectedInput("two objects", "{}{}", .trailingData, at: 2),
        RejectedInput("extra closing bracket", "[1]]", .trailingData, at: 3),
    ]

    static let numbers: [RejectedInput] = [
        RejectedInput("leading zero", "01", .invalidNumber, at: 0),
        RejectedInput("leading zero after minus", "-01", .invalidNumber, at: 0),
        RejectedInput("double zero", "[00]", .invalidNumber, at: 1),
        RejectedInput("fraction without digits", "1.", .invalidNumber, at: 0),
        RejectedInput("fraction without digits in an array", "[1.]", .invalidNumber, at: 1),
        RejectedInput("fraction without integer part", ".5", .unexpectedByte(UInt8(ascii: ".")), at: 0),
        RejectedInput("plus sign", "+1", .unexpectedByte(UInt8(ascii: "+")), at: 0),
        RejectedInput("lone minus", "-", .unexpectedEnd, at: 1),
        RejectedInput("minus before a letter", "-a", .invalidNumber, at: 0),
        RejectedInput("minus Infinity", "-Infinity", .invalidNumber, at: 0),
        RejectedInput("exponent without digits", "1e", .invalidNumber, at: 0),
        RejectedInput("exponent sign without digits", "1e+", .invalidNumber, at: 0),
        RejectedInput("dot before exponent", "1.e5", .invalidNumber, at: 0),
        RejectedInput("hexadecimal", "0x10", .trailingData, at: 1),
        RejectedInput("exponent followed by a letter", "1e5x", .trailingData, at: 3),
        RejectedInput(
            "Int64.max + 1", "9223372036854775808", .numberOutOfRange("9223372036854775808"), at: 0),
        RejectedInput(
            "Int64.min - 1", "-9223372036854775809", .numberOutOfRange("-9223372036854775809"), at: 0),
        RejectedInput(
            "thirty-digit integer", "123456789012345678901234567890",
            .numberOutOfRange("123456789012345678901234567890"), at: 0),
        RejectedInput("1e400", "1e400", .numberOutOfRange("1e400"), at: 0),
        RejectedInput("-1e400", "-1e400", .numberOutOfRange("-1e400"), at: 0),
        RejectedInput("just beyond Double.greatestFiniteMagnitude", "[0, 1.8e308]", .numberOutOfRange("1.8e308"), at: 4),
        RejectedInput("huge exponent", "1e99999999999999999999", .numberOutOfRange("1e99999999999999999999"), at: 0),
    ]

    static let strings: [RejectedInput] = [
        RejectedInput("unknown escape \\x", #""\x""#, .invalidEscape, at: 1),
        RejectedInput("escaped single quote", #""\'""#, .invalidEscape, at: 1),
        RejectedInput("escape at the end", #""\"#, .unexpectedEnd, at: 2),
        RejectedInput("\\u with two digits", #""\u12""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("\\u cut off by the end", #""\u12"#, .unexpectedEnd, at: 5),
        RejectedInput("\\u with letters that are not hex", #""\uZZZZ""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("\\U in capitals", #""\U0041""#, .invalidEscape, at: 1),
        RejectedInput("lone high surrogate", #""\ud83d""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("lone high surrogate before text", #""\ud83dx""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("lone high surrogate at the end", #""\ud83d"#, .unexpectedEnd, at: 7),
        RejectedInput("lone low surrogate", #""\udc00""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("surrogates reversed", #""\ude00\ud83d""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("high surrogate then a plain \\u", #""\ud83d\u0041""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("two high surrogates", #""\ud83d\ud83d""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("high surrogate then another escape", #""\ud83d\n""#, .invalidUnicodeEscape, at: 1),
        RejectedInput("high surrogate then a malformed \\u", #""\ud83d\uZZZZ""#, .invalidUnicodeEscape, at: 7),
        RejectedInput("raw line feed in a string", "\"a\nb\"", .controlCharacterInString, at: 2),
        RejectedInput("raw tab in a string", "\"\t\"", .controlCharacterInString, at: 1),
        RejectedInput("raw NUL in a string", bytes: [0x22, 0x00, 0x22], .controlCharacterInString, at: 1),
        RejectedInput("raw 0x1F in a string", bytes: [0x22, 0x1F, 0x22], .controlCharacterInString, at: 1),
        RejectedInput(
            "control character after an escape", bytes: Array(#""\n"#.utf8) + [0x01, 0x22], .controlCharacterInString,
            at: 3),
        RejectedInput(
            "control character deep in a long string", "\"abcdefghijklmnop\u{01}\"", .controlCharacterInString, at: 17),
    ]

    static let utf8: [RejectedInput] = [
        RejectedInput("overlong two-byte form of /", bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, at: 1),
        RejectedInput("overlong two-byte lead 0xC1", bytes: [0x22, 0xC1, 0xBF, 0x22], .invalidUTF8, at: 1),
        RejectedInput("overlong three-byte form", bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, at: 1),
        RejectedInput("overlong four-byte form", bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8, at: 1),
        RejectedInput("encoded high surrogate U+D800", bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectedInput("encoded low surrogate U+DFFF", bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], .invalidUTF8, at: 1),
        RejectedInput("beyond U+10FFFF", bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectedInput("lead byte 0xF5", bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectedInput("byte 0xFF", bytes: [0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
        RejectedInput("lone continuation byte", bytes: [0x22, 0x61, 0x80, 0x22], .invalidUTF8, at: 2),
        RejectedInput("truncated sequence before the quote", bytes: [0x22, 0xE2, 0x82, 0x22], .invalidUTF8, at: 1),
        RejectedInput("truncated sequence at the end", bytes: [0x22, 0xE2, 0x82], .invalidUTF8, at: 1),
        RejectedInput("truncated four-byte sequence", bytes: [0x22, 0xF0, 0x9F, 0x98, 0x22], .invalidUTF8, at: 1),
        RejectedInput(
            "invalid byte after an escape", bytes: Array(#""\n"#.utf8) + [0xFF, 0x22], .invalidUTF8, at: 3),
        RejectedInput(
            "invalid byte deep in a long string", bytes: Array("\"abcdefghijklmnop".utf8) + [0xFE, 0x22], .invalidUTF8,
            at: 17),
        RejectedInput("invalid UTF-8 in a key", bytes: Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8), .invalidUTF8, at: 2),
    ]

    static let duplicates: [RejectedInput] = [
        RejectedInput("repeated key", #"{"a":1,"a":2}"#, .duplicateKey("a"), at: 7),
        RejectedInput("repeated key with white space", #"{ "a" : 1 , "a" : 2 }"#, .duplicateKey("a"), at: 12),
        RejectedInput("repeated key with different value kinds", #"{"a":true,"b":0,"a":[1]}"#, .duplicateKey("a"), at: 16),
        RejectedInput("repeated key in a nested object", #"{"x":{"c":1,"c":2},"y":3}"#, .duplicateKey("c"), at: 12),
        RejectedInput("repeated key spelled with an escape", #"{"a":1,"\u0061":2}"#, .duplicateKey("a"), at: 7),
        RejectedInput(
            "keys equal under Unicode canonical equivalence", #"{"\u00e9":1,"e\u0301":2}"#, .duplicateKey("\u{E9}"), at: 12),
        RejectedInput("empty key twice", #"{"":1,"":2}"#, .duplicateKey(""), at: 6),
    ]

    @Test("structure: literals, commas, brackets, white space, trailing data", arguments: structure)
    func refusesBadStructure(_ input: RejectedInput) {
        #expect(parseFailure(input.bytes) == input.expected)
    }

    @Test("numbers: grammar and range", arguments: numbers)
    func refusesBadNumbers(_ input: RejectedInput) {
        #expect(parseFailure(input.bytes) == input.expected)
    }

    @Test("strings: escapes, surrogates, control characters", arguments: strings)
    func refusesBadStrings(_ input: RejectedInput) {
        #expect(parseFailure(input.bytes) == input.expected)
    }

    @Test("invalid UTF-8: overlong, surrogates, truncated, bad bytes", arguments: utf8)
    func refusesInvalidUTF8(_ input: RejectedInput) {
        #expect(parseFailure(input.bytes) == input.expected)
    }

    @Test("duplicate keys are refused at the second key", arguments: duplicates)
    func refusesDuplicateKeys(_ input: RejectedInput) {
        #expect(parseFailure(input.bytes) == input.expected)
    }

    @Test("65 nested arrays exceed the default limit of 64, at the 65th bracket")
    func refusesNestingBeyondDefaultLimit() {
        let text = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(parseFailure(text) == JSONParseError(offset: 64, reason: .tooDeep(limit: 64)))
    }

    @Test("65 nested objects exceed the default limit of 64")
    func refusesObjectNestingBeyondDefaultLimit() {
        let text = String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65)
        #expect(parseFailure(text) == JSONParseError(offset: 64 * 5, reason: .tooDeep(limit: 64)))
    }

    @Test("an empty container one level too deep is refused too")
    func refusesEmptyContainerBeyondLimit() {
        #expect(parseFailure("[[[]]]", maxDepth: 2) == JSONParseError(offset: 2, reason: .tooDeep(limit: 2)))
        #expect(parseFailure("[[{}]]", maxDepth: 2) == JSONParseError(offset: 2, reason: .tooDeep(limit: 2)))
    }

    @Test("a custom limit applies: 3 accepts depth 3 and refuses depth 4")
    func customDepthLimit() {
        #expect(parseFailure("[[[1]]]", maxDepth: 3) == nil)
        #expect(parseFailure(#"[{"a":[[1]]}]"#, maxDepth: 3) == JSONParseError(offset: 7, reason: .tooDeep(limit: 3)))
    }

    @Test("a top-level object counts as one level, like any other container")
    func topLevelObjectDepth() {
        #expect(parseFailure(#"{"a":{"b":{}}}"#, maxDepth: 2) == JSONParseError(offset: 10, reason: .tooDeep(limit: 2)))
        #expect(parseFailure(#"{"a":{"b":1}}"#, maxDepth: 2) == nil)
        #expect(parseFailure(#"{"a":[]}"#, maxDepth: 1) == JSONParseError(offset: 5, reason: .tooDeep(limit: 1)))
        #expect(parseFailure(#"{"a":1}"#, maxDepth: 1) == nil)
        #expect(parseFailure(#"{"a":1}"#, maxDepth: 0) == JSONParseError(offset: 0, reason: .tooDeep(limit: 0)))
        #expect(parseFailure("{}", maxDepth: 0) == JSONParseError(offset: 0, reason: .tooDeep(limit: 0)))
    }

    @Test("a repeated key is reported at its quote, before a syntax error later in the object; the first repeat is the one reported")
    func repeatedKeyThenSyntaxError() {
        #expect(parseFailure(#"{"a":1,"a":2,x}"#) == JSONParseError(offset: 7, reason: .duplicateKey("a")))
        #expect(parseFailure(#"[{"a":1,"a":2,x}]"#) == JSONParseError(offset: 8, reason: .duplicateKey("a")))
        #expect(parseFailure(#"{"a":1,"a":2,"a":3}"#) == JSONParseError(offset: 7, reason: .duplicateKey("a")))
        #expect(parseFailure(#"{"a":1,x,"a":2}"#) == JSONParseError(offset: 7, reason: .unexpectedByte(UInt8(ascii: "x"))))
    }

    @Test("a limit of zero accepts scalars and refuses every container")
    func zeroDepthLimit() {
        #expect(parseFailure("1", maxDepth: 0) == nil)
        #expect(parseFailure("[]", maxDepth: 0) == JSONParseError(offset: 0, reason: .tooDeep(limit: 0)))
    }

    @Test("the depth error comes before the input ends, however deep it goes")
    func deepUnclosedInputReportsDepth() {
        let text = String(repeating: "[", count: 100_000)
        #expect(parseFailure(text) == JSONParseError(offset: 64, reason: .tooDeep(limit: 64)))
    }

    @Test("a custom limit of 1,000 accepts 1,000 levels and refuses 1,001")
    func largeCustomLimit() {
        let depth = 1_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(parseFailure(text, maxDepth: depth) == nil)
        #expect(parseFailure(text, maxDepth: depth - 1) == JSONParseError(offset: depth - 1, reason: .tooDeep(limit: depth - 1)))
    }

    @Test("parse(String) and parse(Data) report the same error")
    func entryPointsAgree() {
        let text = #"{"a":[1,2,}"#
        let expected = JSONParseError(offset: 10, reason: .unexpectedByte(UInt8(ascii: "}")))
        var fromString: JSONParseError?
        do throws(JSONParseError) { _ = try JSONParser().parse(text) } catch { fromString = error }
        #expect(fromString == expected)
        #expect(parseFailure(text) == expected)  // through parse(Data)
    }

    @Test("a trailing comma is named as one, at the comma, with what to do")
    func trailingCommaMessage() {
        let failure = parseFailure("{\n  \"max_retries\": 5,\n}")
        #expect(failure?.offset == 20)
        #expect(
            failure?.description
                == "invalid JSON at byte 20: a comma before the closing '}'; JSON allows no trailing comma, so remove it")
    }

}
