import Foundation
import Targeting

/// Checks a `REGEX` constraint's pattern: Unleash uses RE2 syntax, so look-around, back-references
/// and atomic groups (which this platform's engine would accept) are refused like a syntax error.
enum RegexPattern {
    /// Why `pattern` cannot be used, or nil when it can (the empty pattern can: it matches every string).
    static func problem(in pattern: String) -> String? {
        if pattern.isEmpty { return nil }
        if let construct = unsupportedConstruct(in: pattern) {
            return "the regular expression /\(pattern)/ uses \(construct), which Unleash's RE2 syntax does not support"
        }
        do {
            _ = try NSRegularExpression(pattern: pattern)
            return nil
        } catch {
            return "the regular expression /\(pattern)/ does not compile"
        }
    }

    /// Whether `text` contains a match of `pattern` anywhere (as RE2's partial match does).
    static func matches(_ text: String, pattern: String, caseInsensitive: Bool) -> Bool {
        if pattern.isEmpty { return true }
        let options: String.CompareOptions = caseInsensitive ? [.regularExpression, .caseInsensitive] : .regularExpression
        return text.range(of: pattern, options: options) != nil
    }

    /// The first construct RE2 lacks, named, or nil. Escaped characters and bracket expressions are skipped.
    private static func unsupportedConstruct(in pattern: String) -> String? {
        let characters = Array(pattern)
        var index = 0
        var inBrackets = false
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                let next = characters[index + 1]
                if !inBrackets, next.isASCIIDigit, next != "0" { return "a back-reference (\\\(next))" }
                if !inBrackets, next == "k" { return "a named back-reference (\\k)" }
                index += 2
                continue
            }
            if inBrackets {
                if character == "]" { inBrackets = false }
            } else if character == "[" {
                inBrackets = true
                // A `]` right after `[` or `[^` is a literal member, not the end.
                if index + 1 < characters.count, characters[index + 1] == "^" { index += 1 }
                if index + 1 < characters.count, characters[index + 1] == "]" { index += 1 }
            } else if character == "(", index + 2 < characters.count, characters[index + 1] == "?" {
                let rest = String(characters[(index + 2)...].prefix(2))
                if rest.hasPrefix("=") || rest.hasPrefix("!") { return "a look-ahead (?\(rest.prefix(1))" }
                if rest == "<=" || rest == "<!" { return "a look-behind (?\(rest)" }
                if rest.hasPrefix(">") { return "an atomic group (?>" }
            }
            index += 1
        }
        return nil
    }
}
