import ConfigDomain
import Foundation
import Targeting

/// flagd's `sem_ver`: `[version, operator, version]` with `=`, `!=`, `<`, `<=`, `>`, `>=`, `^` (same
/// major version) and `~` (same major and minor version).
///
/// Each version is read as flagd-core reads it: its text (a number as Python prints it, so `2` is
/// `2` and `1.5` is `1.5`), without a leading `v` or `V`, with a missing minor or patch number added
/// as 0 (`1` is `1.0.0`, `1.2-beta` is `1.2.0-beta`), then as a strict Semantic Versioning 2.0.0
/// version (``SemanticVersion``). Build metadata does not count. Anything else (another number of
/// arguments, an unknown operator, a text that is no version) gives `null`, so the flag's default
/// variant applies.
enum FlagdSemVer {
    /// The operators, in the order the documentation lists them.
    static let operators = ["=", "!=", "<", "<=", ">", ">=", "^", "~"]

    /// The comparison's result: `true`, `false`, or `null` when it cannot be made.
    static func compare(_ values: [ConfigValue]) -> ConfigValue {
        guard values.count == 3, let left = version(values[0]), let right = version(values[2]),
            case .string(let operation) = values[1]
        else { return .null }
        switch operation {
        case "=": return .bool(left == right)
        case "!=": return .bool(left != right)
        case "<": return .bool(left < right)
        case "<=": return .bool(left <= right)
        case ">": return .bool(left > right)
        case ">=": return .bool(left >= right)
        case "^": return .bool(left.major == right.major)
        case "~": return .bool(left.major == right.major && left.minor == right.minor)
        default: return .null
        }
    }

    /// The version `value` names, padded to three numbers; nil when it names none.
    static func version(_ value: ConfigValue) -> SemanticVersion? {
        guard var text = LogicValues.pythonText(value) else { return nil }
        if text.hasPrefix("v") || text.hasPrefix("V") { text.removeFirst() }
        // The numbers end at the first "-" (pre-release) or "+" (build metadata).
        let end = text.firstIndex { $0 == "-" || $0 == "+" } ?? text.endIndex
        let numbers = text[..<end]
        let dots = numbers.filter { $0 == "." }.count
        if dots < 2 {
            text = String(numbers) + String(repeating: ".0", count: 2 - dots) + text[end...]
        }
        return SemanticVersion(text)
    }
}
