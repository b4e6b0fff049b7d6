import ConfigDomain
import Foundation

/// A clause's or rollout's attribute, as LaunchDarkly reads it: with a `contextKind` beside it, a path
/// (`/address/city`, `~1` for `/` and `~0` for `~` in a name); without one, a literal attribute name (`a/b`
/// is the attribute named `a/b`).
struct AttributeReference: Sendable, Hashable, CustomStringConvertible {
    /// The names to follow: the attribute, then members of objects.
    let components: [String]
    /// Why the reference is invalid (an empty name, a double slash, a bad `~` escape); an evaluation that
    /// needs it fails with `MALFORMED_FLAG`.
    let error: String?
    /// The reference as written.
    let text: String

    /// The reference `text`: a path when `contextKind` is a non-empty string, else a literal name.
    init(_ text: String, contextKind: String?) {
        self.text = text
        if contextKind?.isEmpty ?? true {
            (components, error) = text.isEmpty ? ([], "attribute reference cannot be empty") : ([text], nil)
        } else {
            (components, error) = Self.path(text)
        }
    }

    /// Whether the reference names the context's kind (`kind`, or `/kind` as a path).
    var isKind: Bool { error == nil && components.count == 1 && components[0] == "kind" }

    var description: String { text }

    /// The components of a path, or the error (scalar by scalar: a `/` followed by a combining mark still separates).
    private static func path(_ text: String) -> ([String], String?) {
        let scalars = Array(text.unicodeScalars)
        if scalars.isEmpty || (scalars.count == 1 && scalars[0] == "/") { return ([], "attribute reference cannot be empty") }
        guard scalars[0] == "/" else { return ([text], nil) }
        var components: [String] = []
        for part in scalars.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty { return ([], "attribute reference contained a double slash or a trailing slash") }
            guard let name = unescape(Array(part)) else {
                return ([], "attribute reference contained an escape character (~) that was not followed by 0 or 1")
            }
            components.append(name)
        }
        return (components, nil)
    }

    /// `~1` as `/` then `~0` as `~`, as LaunchDarkly unescapes; nil for a `~` not followed by `0` or `1`.
    private static func unescape(_ scalars: [Unicode.Scalar]) -> String? {
        var text = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "~" else {
                text.append(scalar)
                index += 1
                continue
            }
            guard index + 1 < scalars.count else { return nil }
            switch scalars[index + 1] {
            case "0": text.append("~")
            case "1": text.append("/")
            default: return nil
            }
            index += 2
        }
        return String(text)
    }
}
