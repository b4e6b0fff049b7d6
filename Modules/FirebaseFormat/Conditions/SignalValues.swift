import Foundation
import Targeting

/// How a custom signal reads as a number and as text, as Firebase's server-side templates compare
/// them (`FORMAT.md`, "Custom signals").
enum SignalValues {
    /// A number: an optionally signed decimal number with an optional fraction and exponent (`3`,
    /// `-2.5`, `.5`, `5.`, `1e3`), or `Infinity` with an optional sign, with JavaScript's white space
    /// around it allowed. Nil for anything else: blank text, `NaN`, hexadecimal, `1_000`.
    static func number(_ text: String) -> Double? {
        let trimmed = JavaScriptText.trimmed(text)
        switch trimmed {
        case "Infinity", "+Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return isDecimal(trimmed) ? Double(trimmed) : nil
        }
    }

    /// Whether `text` is `[+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?`, ASCII digits only.
    private static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        func skip(_ characters: String) -> Bool {
            guard let first = bytes.first, characters.utf8.contains(first) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        _ = skip("+-")
        var mantissa = digits()
        if skip(".") { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if skip("eE") {
            _ = skip("+-")
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// Whether `text` contains `part`, code point by code point (the empty text is in every text).
    static func contains(_ text: String, _ part: String) -> Bool {
        // UTF-8 is self-synchronizing: a match of the bytes is a match of the code points.
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Whether `a` and `b` are the same code points once trimmed: Swift's `==` would also equate
    /// canonically equivalent texts, which Firebase's SDKs do not.
    static func sameTrimmedText(_ a: String, _ b: String) -> Bool {
        JavaScriptText.trimmed(a).utf8.elementsEqual(JavaScriptText.trimmed(b).utf8)
    }
}

/// A version as Firebase's server templates compare them: one to five dot-separated runs of ASCII
/// digits (`1`, `2.10`, `1.2.3.4.5`, leading zeros allowed), with JavaScript's white space around
/// the whole allowed, compared segment by segment by value, a missing segment counting as 0.
struct SignalVersion: Sendable {
    /// The most segments a version has.
    static let maxSegments = 5

    /// The five segments' digits without leading zeros (`0` for zero), missing ones as `0`.
    let segments: [Substring]

    /// Reads `text`, or nil when it is not such a version.
    init?(_ text: String) {
        let parts = JavaScriptText.trimmed(text).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= Self.maxSegments,
            parts.allSatisfy({ part in !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
        else { return nil }
        let normalized = parts.map { part -> Substring in
            let digits = part.drop { $0 == "0" }
            return digits.isEmpty ? "0" : digits
        }
        segments = normalized + Array(repeating: "0", count: Self.maxSegments - parts.count)
    }

    /// -1, 0 or 1 as this version is below, equal to or above `other`.
    func order(comparedWith other: SignalVersion) -> Int {
        for (mine, theirs) in zip(segments, other.segments) where mine != theirs {
            // Digits without leading zeros: the longer is the larger; of the same length, the first to differ decides.
            if mine.count != theirs.count { return mine.count < theirs.count ? -1 : 1 }
            return mine.utf8.lexicographicallyPrecedes(theirs.utf8) ? -1 : 1
        }
        return 0
    }
}
