import Foundation

/// Versions made comparable as plain strings, the way GrowthBook's version operators compare them.
///
/// `v1.2.3+build` becomes the parts `1`, `2`, `3` (a leading `v` and build metadata dropped); a
/// version with exactly three parts gets a fourth part `~` so that `1.0.0` sorts after
/// `1.0.0-beta`; numeric parts are left-padded with spaces to five characters; the parts are
/// joined with `-`. Comparing two padded strings then compares the versions.
public enum VersionString {
    /// The comparable form of `text`; `"0"` stands in for an empty text.
    public static func padded(_ text: String) -> String {
        var core = Substring(text.isEmpty ? "0" : text)
        if core.first == "v" { core = core.dropFirst() }
        if let plus = core.firstIndex(of: "+") { core = core[..<plus] }
        var parts = core.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "." }.map(String.init)
        if parts.count == 3 { parts.append("~") }
        return parts.map { part in
            let isNumber = !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
            return isNumber && part.count < 5 ? String(repeating: " ", count: 5 - part.count) + part : part
        }.joined(separator: "-")
    }

    /// The comparable form of a condition's value: strings as above, numbers as their text, anything else as `"0"`.
    public static func padded(_ value: ConfigValue?) -> String {
        switch value {
        case .string(let text): padded(text)
        case .int, .double: padded(LooseValue.text(of: value))
        default: padded("0")
        }
    }
}
