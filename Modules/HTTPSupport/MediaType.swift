import Foundation

/// Reads media types (`Content-Type` without its parameters) and matches them against accepted patterns.
public enum MediaType {
    /// The media type of a `Content-Type` value, lowercased, without parameters: `application/json`; `nil` when empty.
    public static func of(_ contentType: String?) -> String? {
        guard let first = contentType?.split(separator: ";", omittingEmptySubsequences: false).first else { return nil }
        let type = first.trimmingCharacters(in: .whitespaces).lowercased()
        return type.isEmpty ? nil : type
    }

    /// Whether `mediaType` matches `pattern` (any case): exact, `type/*`, `type/*+suffix` or `*/*`.
    public static func matches(_ mediaType: String, pattern: String) -> Bool {
        let pattern = pattern.lowercased()
        if pattern == "*/*" { return true }
        let wanted = pattern.split(separator: "/", maxSplits: 1).map(String.init)
        let actual = mediaType.lowercased().split(separator: "/", maxSplits: 1).map(String.init)
        guard wanted.count == 2, actual.count == 2, wanted[0] == actual[0] else { return false }
        if wanted[1] == "*" { return true }
        if wanted[1].hasPrefix("*") { return actual[1].hasSuffix(wanted[1].dropFirst()) && actual[1].count > wanted[1].count - 1 }
        return wanted[1] == actual[1]
    }

    /// Whether a pattern is well formed: `type/subtype`, both parts non-empty.
    ///
    /// Each part is made of ASCII letters and digits, the restricted-name punctuation of RFC 6838, and `*` for wildcards.
    public static func isValidPattern(_ pattern: String) -> Bool {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(patternCharacters.contains) }
    }

    /// The characters of a media type pattern.
    private static let patternCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&-^_.+*")
}
