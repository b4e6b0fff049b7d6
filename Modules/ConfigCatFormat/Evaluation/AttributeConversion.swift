import ConfigDomain
import Foundation
import Targeting

/// How ConfigCat reads a User Object attribute for each kind of comparison, as its reference SDK
/// (JavaScript) does and its shared test data fixes: a non-string value as text, a number, a Unix
/// time, a string array or a semantic version.
enum AttributeConversion {
    /// The text of an attribute, for text comparisons and percentage options: a string as it is; a
    /// string array as compact JSON (`["a","b"]`); a number as JavaScript writes it (`3`, `0.5`,
    /// `1e+21`); `true`/`false`; other arrays and objects as JavaScript's `String(value)` does.
    static func text(of value: ConfigValue) -> String {
        switch value {
        case .string(let text): return text
        case .array(let elements):
            let strings = elements.compactMap(\.stringValue)
            return strings.count == elements.count ? json(strings) : javaScriptString(value)
        default: return javaScriptString(value)
        }
    }

    /// JavaScript's `String(value)`: arrays joined with commas (`null` as nothing), objects as `[object Object]`.
    static func javaScriptString(_ value: ConfigValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): JavaScriptText.text(of: number)
        case .double(let number): JavaScriptText.text(of: number)
        case .string(let text): text
        case .array(let elements): elements.map { $0.isNull ? "" : javaScriptString($0) }.joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// `JSON.stringify` of strings: `"`, `\` and control characters escaped, everything else as it is.
    static func json(_ strings: [String]) -> String {
        let items = strings.map { text in
            var quoted = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\u{08}": quoted += "\\b"
                case "\u{0C}": quoted += "\\f"
                case "\n": quoted += "\\n"
                case "\r": quoted += "\\r"
                case "\t": quoted += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// A number attribute as a number; a string in ConfigCat's number syntax (`1.5`, ` 3 `, `2,1`,
    /// `-Infinity`, `NaN`); anything else nil.
    static func number(of value: ConfigValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        case .string(let text): number(in: text)
        default: nil
        }
    }

    /// The number `text` holds in ConfigCat's syntax: its first `,` read as a decimal point, then
    /// JavaScript's number syntax (surrounding white space allowed, `Infinity` with a sign, no hex,
    /// octal or binary literal, nothing after a leading `0` but a digit, `.` or an exponent), or `NaN`.
    static func number(in text: String) -> Double? {
        var decimal = text
        if let comma = decimal.firstIndex(of: ",") { decimal.replaceSubrange(comma...comma, with: ".") }
        if let number = strictNumber(decimal) { return number }
        return JavaScriptText.trimmed(text) == "NaN" ? .nan : nil
    }

    /// JavaScript's `Number(text)` for the decimal literals ConfigCat accepts; nil for anything else.
    private static func strictNumber(_ text: String) -> Double? {
        let trimmed = JavaScriptText.trimmed(text)
        let bytes = Array(trimmed.utf8)
        guard !bytes.isEmpty, !hasBadLeadingZero(bytes, in: text) else { return nil }
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return isDecimalLiteral(bytes) ? Double(trimmed) : nil
        }
    }

    /// Whether a leading `0` is followed by anything but a digit, a point or an exponent, white space
    /// included: how the reference SDK refuses `0x10`, `0b1` and `0 `.
    private static func hasBadLeadingZero(_ trimmed: [UInt8], in text: String) -> Bool {
        guard trimmed.first == UInt8(ascii: "0") else { return false }
        // "0" alone: bad when white space follows it in the text.
        guard trimmed.count > 1 else { return text.utf8.last != UInt8(ascii: "0") }
        let next = trimmed[1]
        return !(isDigit(next) || next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E"))
    }

    /// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?` in ASCII.
    private static func isDecimalLiteral(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func skipSign() {
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        }
        func digits() -> Int {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start
        }
        skipSign()
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            skipSign()
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A string array, or a string holding one as JSON (`["a", "b"]`); nil for anything else.
    static func stringArray(of value: ConfigValue) -> [String]? {
        var candidate = value
        if case .string(let text) = value, let parsed = try? JSONParser().parse(text) { candidate = parsed }
        guard case .array(let elements) = candidate else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    /// A string holding a semantic version (white space around it ignored); nil for anything else.
    static func version(of value: ConfigValue) -> SemanticVersion? {
        guard case .string(let text) = value else { return nil }
        return SemanticVersion(JavaScriptText.trimmed(text))
    }
}

/// Text compared as ConfigCat's SDKs compare it: by code points (Swift's `==` would also equate
/// canonically equivalent strings, `é` and `e` with a combining accent), on UTF-8 bytes.
enum CodePoints {
    /// Whether `a` and `b` have the same code points.
    static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// Whether `text` starts with `prefix`.
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool { text.utf8.starts(with: prefix.utf8) }

    /// Whether `text` ends with `suffix`.
    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        let (text, suffix) = (Array(text.utf8), Array(suffix.utf8))
        return suffix.count <= text.count && text[(text.count - suffix.count)...].elementsEqual(suffix)
    }

    /// Whether `text` contains `part` (the empty text is in every text).
    static func contains(_ text: String, _ part: String) -> Bool {
        let (text, part) = (Array(text.utf8), Array(part.utf8))
        guard part.count <= text.count else { return false }
        guard let first = part.first else { return true }
        for start in 0...(text.count - part.count) where text[start] == first {
            if text[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }
}

/// ConfigCat's hashes: SHA-1 for percentage options, salted SHA-256 for confidential comparisons.
enum ConfigCatHash {
    /// The bucket, 0 ... 99, of `text` for the setting `key`: the first 7 hex digits of SHA-1 of the
    /// key followed by the text, as a number, modulo 100.
    static func bucket(key: String, text: String) -> Int64 {
        let digest = SHA.sha1(key + text)
        let leading = Int64(digest[0]) << 20 | Int64(digest[1]) << 12 | Int64(digest[2]) << 4 | Int64(digest[3] >> 4)
        return leading % 100
    }

    /// The lowercase hex SHA-256 of `bytes` followed by the config's salt and the context salt (the
    /// setting's key, or the segment's name).
    static func confidential(_ bytes: some Sequence<UInt8>, salt: String, contextSalt: String) -> String {
        SHA.hex(SHA.sha256(Array(bytes) + Array(salt.utf8) + Array(contextSalt.utf8)))
    }
}
