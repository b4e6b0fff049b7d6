import Targeting
import Testing

/// JavaScript's text of numbers and `trim()`; each expected text is what Node.js 18 prints.
@Suite("JavaScript's number text and trim")
struct JavaScriptTextTests {
    @Test(
        "doubles as String(number) writes them",
        arguments: [
            (0.0, "0"), (-0.0, "0"), (2.0, "2"), (-2.5, "-2.5"), (0.1 + 0.2, "0.30000000000000004"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"), (1.5e21, "1.5e+21"), (1e-6, "0.000001"), (1.5e-6, "0.0000015"), (1e-7, "1e-7"),
            (2.5e-7, "2.5e-7"), (123.456, "123.456"), (Double.leastNonzeroMagnitude, "5e-324"),
            (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
            (Double.nan, "NaN"), (Double.infinity, "Infinity"), (-Double.infinity, "-Infinity"),
        ])
    func doubles(number: Double, text: String) {
        #expect(JavaScriptText.text(of: number) == text)
    }

    @Test(
        "integers exact to 2^53, then as the nearest double",
        arguments: [
            (Int64(0), "0"), (-42, "-42"), (9_007_199_254_740_992, "9007199254740992"),
            (9_007_199_254_740_993, "9007199254740992"), (Int64.max, "9223372036854776000"), (Int64.min, "-9223372036854776000"),
        ])
    func integers(number: Int64, text: String) {
        #expect(JavaScriptText.text(of: number) == text)
    }

    @Test(
        "trim removes Unicode white space, line terminators and U+FEFF, not U+0085 or the C0 separators",
        arguments: [
            (" \t\n\r\u{0B}\u{0C}a b\u{A0}\u{2028}\u{2029}\u{3000}\u{FEFF}", "a b"),
            ("\u{1680}\u{2000}\u{200A}x\u{202F}\u{205F}", "x"),
            ("\u{85}x\u{85}", "\u{85}x\u{85}"), ("\u{1C}x\u{1F}", "\u{1C}x\u{1F}"), ("", ""), ("   ", ""),
            ("\u{200B}x", "\u{200B}x"),
        ])
    func trim(text: String, trimmed: String) {
        #expect(JavaScriptText.trimmed(text).unicodeScalars.elementsEqual(trimmed.unicodeScalars))
    }

    @Test("white space is exactly the code points Node.js's trim() removes")
    func whiteSpaceSet() {
        // Node.js 20: every code point c for which (String.fromCodePoint(c) + "x").trim() is "x".
        let expected: Set<UInt32> = [
            0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
            0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
        ]
        let found = Set((UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init).filter(JavaScriptText.isWhiteSpace).map(\.value))
        #expect(found == expected)
    }
}
