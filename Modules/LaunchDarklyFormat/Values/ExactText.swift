import ConfigDomain
import Foundation

/// A string compared by its Unicode scalars, as LaunchDarkly's SDKs compare keys and text: `"é"` and
/// `"e\u{301}"` are two different keys, where Swift's `String` would call them equal.
struct ExactText: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for byte in text.utf8 { hasher.combine(byte) }
    }
}

extension String {
    /// Whether the two strings have the same Unicode scalars (not merely canonically equivalent ones).
    func isExactly(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }

    /// Whether this string starts with `prefix`, scalar by scalar (as Python's `str.startswith`).
    func startsExactly(with prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }

    /// Whether this string ends with `suffix`, scalar by scalar (as Python's `str.endswith`).
    func endsExactly(with suffix: String) -> Bool { utf8.reversed().starts(with: suffix.utf8.reversed()) }

    /// Whether `part` occurs in this string, scalar by scalar (as Python's `part in text`): UTF-8 is
    /// self-synchronizing, so a byte match is a scalar match.
    func containsExactly(_ part: String) -> Bool {
        let haystack = Array(utf8)
        let needle = Array(part.utf8)
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var start = 0
        while start + needle.count <= haystack.count {
            if haystack[start] == first, haystack[start..<start + needle.count].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}

extension Dictionary where Key == String {
    /// The value of the member named exactly `name` (scalar by scalar); nil when there is none, or when the
    /// member Swift finds under that name is only canonically equivalent to it.
    func exactMember(_ name: String) -> Value? {
        guard let index = index(forKey: name), self[index].key.isExactly(name) else { return nil }
        return self[index].value
    }
}

/// JSON values compared as LaunchDarkly's Python SDK compares them with `==` (its `in` operator): numbers by
/// value (`1 == 1.0`, exactly: `2^53 + 1` is not `2^53`), strings and member names by scalars, arrays element by
/// element, objects member by member. Inside arrays and objects a Boolean equals the number it stands for
/// (`[true] == [1]`), as Python's `True == 1`; the `in` operator itself keeps a Boolean from matching a number.
enum PythonEquality {
    static func equal(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.string(let x), .string(let y)): return x.isExactly(y)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            for (name, value) in x {
                guard let other = y.exactMember(name), equal(value, other) else { return false }
            }
            return true
        default:
            guard let x = Number(a), let y = Number(b) else { return false }
            return x == y
        }
    }

    /// A number as Python holds it: an integer (a Boolean is 0 or 1) or a double, compared exactly.
    enum Number: Equatable {
        case integer(Int64)
        case double(Double)

        init?(_ value: ConfigValue) {
            switch value {
            case .bool(let flag): self = .integer(flag ? 1 : 0)
            case .int(let integer): self = .integer(integer)
            case .double(let double): self = .double(double)
            default: return nil
            }
        }

        static func == (a: Number, b: Number) -> Bool {
            switch (a, b) {
            case (.integer(let x), .integer(let y)): return x == y
            case (.double(let x), .double(let y)): return x == y
            case (.integer(let x), .double(let y)), (.double(let y), .integer(let x)):
                // Exact: the double must be a whole number that is exactly this integer.
                guard y.isFinite, y.rounded(.towardZero) == y, let whole = Int64(exactly: y) else { return false }
                return whole == x
            }
        }
    }
}
