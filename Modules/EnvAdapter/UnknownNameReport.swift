import ConfigDomain
import Foundation

/// The sentences that report a name (a variable, an argument) that overrides no registered key.
enum UnknownNameReport {
    /// A problem for an environment or `.env` variable that matches no registered key, or `nil`
    /// when it should not be reported (`reportAll` is false and no registered name is close).
    static func variable(_ variable: String, index: VariableIndex, reportAll: Bool) -> String? {
        let hint = index.suggestion(for: variable).map { suggestion in
            hintText(wrote: variable, meant: suggestion.variable, key: suggestion.key.name)
        }
        guard reportAll || hint != nil else { return nil }
        return "\(variable) is set but overrides no registered key" + (hint ?? "")
    }

    /// `; did you mean X (key "x")?`, noting when only the letter case differs.
    static func hintText(wrote: String, meant: String, key: String) -> String {
        var text = "; did you mean \(meant) (key \"\(key)\")?"
        if wrote.uppercased() == meant.uppercased() { text += " Names are case-sensitive." }
        return text
    }
}
