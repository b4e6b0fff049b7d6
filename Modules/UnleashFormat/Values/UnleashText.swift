/// Strings compared, folded and trimmed as Unleash's engine (Yggdrasil, written in Rust) does.
///
/// Swift compares strings by canonical equivalence and characters (`"é"` written as one scalar
/// equals `"e"` plus a combining accent, and `"é".hasPrefix("e")` is false); Rust compares bytes.
/// Unleash's engine is the reference, so these compare UTF-8 bytes.
enum UnleashText {
    /// Whether `a` and `b` are the same UTF-8 bytes.
    static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `list` holds `text`, byte for byte.
    static func contains(_ list: [String], _ text: String) -> Bool {
        list.contains { equal($0, text) }
    }

    /// Whether `text`'s bytes start with `prefix`'s.
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    /// Whether `text`'s bytes end with `suffix`'s.
    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        let count = suffix.utf8.count
        return count <= text.utf8.count && text.utf8.suffix(count).elementsEqual(suffix.utf8)
    }

    /// Whether `part`'s bytes occur in `text`'s (the empty string occurs in every string).
    static func contains(_ text: String, _ part: String) -> Bool {
        let bytes = text.utf8
        let needle = part.utf8
        guard needle.count <= bytes.count else { return false }
        var start = bytes.startIndex
        for _ in 0...(bytes.count - needle.count) {
            if bytes[start...].starts(with: needle) { return true }
            start = bytes.index(after: start)
        }
        return false
    }

    /// `text` in lower case as Rust's `str::to_lowercase` writes it: each scalar's full lower-case
    /// mapping, and a capital sigma that ends a word as the final sigma `ς`.
    static func lowercased(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\u{03A3}" {
                let endsWord =
                    casedBeforeIgnorables(scalars[..<index].reversed())
                    && !casedBeforeIgnorables(scalars[(index + 1)...])
                result.append(endsWord ? "\u{03C2}" : "\u{03C3}")
            } else {
                result.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(result)
    }

    /// Whether the first scalar of `scalars` that is not case-ignorable is cased (Unicode's `Final_Sigma` test).
    private static func casedBeforeIgnorables<S: Sequence>(_ scalars: S) -> Bool where S.Element == Unicode.Scalar {
        scalars.first { !$0.properties.isCaseIgnorable }?.properties.isCased ?? false
    }

    /// `text` without leading and trailing Unicode white space, as Rust's `str::trim`.
    static func trimmingWhitespace(_ text: String) -> String {
        trimming(text) { $0.properties.isWhitespace }
    }

    /// `text` without leading and trailing spaces and tabs: the blanks Unleash's engine skips
    /// around a constraint's number, date or version.
    static func trimmingBlanks(_ text: String) -> String {
        trimming(text) { $0 == " " || $0 == "\t" }
    }

    private static func trimming(_ text: String, _ isBlank: (Unicode.Scalar) -> Bool) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
