import ConfigDomain
import Foundation

/// How JavaScript writes a number as text and trims white space, for the dialects a JavaScript SDK
/// defines: GrowthBook's conditions, and Firebase's server-side templates (whose reference is
/// Firebase's Node.js Admin SDK).
///
/// ```swift
/// JavaScriptText.text(of: 2.0)        // "2"
/// JavaScriptText.text(of: 1e21)       // "1e+21"
/// JavaScriptText.trimmed("\u{FEFF} a ")  // "a"
/// ```
public enum JavaScriptText {
    /// `String(number)` (ECMAScript's Number::toString): the shortest digits that read back as the
    /// number, plain from 1e-6 to below 1e21 (`0.000001`, `2`, `100000000000000000000`) and with an
    /// exponent beyond (`1e-7`, `1.5e+21`); `NaN`, `Infinity` and `-Infinity`; `-0` is `0`.
    public static func text(of number: Double) -> String { LooseValue.numberText(number) }

    /// `String(integer)` for an integer JavaScript holds as a double: exact up to 2^53 in magnitude,
    /// beyond it the text of the nearest double (`9223372036854775807` is `9223372036854776000`).
    public static func text(of integer: Int64) -> String { LooseValue.integerText(integer) }

    /// `text.trim()`: without the white space and line terminators JavaScript removes at either end.
    public static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhiteSpace($0) }),
            let last = scalars.lastIndex(where: { !isWhiteSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Whether `scalar` is one of ECMAScript's WhiteSpace or LineTerminator code points, which
    /// `trim()` removes: tab, line feed, vertical tab, form feed, carriage return, U+FEFF, U+2028,
    /// U+2029 and the space separators (U+0020, U+00A0, U+1680, U+2000 to U+200A, U+202F, U+205F,
    /// U+3000). Not U+0085, nor U+200B. Written out: Foundation's white space differs between platforms.
    public static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }
}
