import Foundation

/// Reads the response headers the fetcher acts on, besides `Retry-After` (HTTPSupport's `RetryAfter`):
/// `Cache-Control`, `Age`, `Content-Type`.
enum ResponseHeaderParsing {
    /// The `max-age` of a `Cache-Control` value less the response's `Age`, in seconds, or `nil`.
    ///
    /// Only `max-age` counts: `s-maxage` is for shared caches, and `no-cache` or `no-store` do not
    /// make a TTL (the client's own policy applies).
    static func maxAge(cacheControl: String?, age: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        var maxAge: Int?
        for directive in cacheControl.split(separator: ",") {
            let pair = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard pair.count == 2, pair[0].lowercased() == "max-age" else { continue }
            var number = pair[1]
            if number.count >= 2 && number.hasPrefix("\"") && number.hasSuffix("\"") {
                number = String(number.dropFirst().dropLast())
            }
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            maxAge = Int(number) ?? Int.max
        }
        guard let maxAge else { return nil }
        var elapsed = 0
        if let age = age?.trimmingCharacters(in: .whitespaces), !age.isEmpty, age.allSatisfy({ $0.isASCII && $0.isNumber }) {
            elapsed = Int(age) ?? Int.max
        }
        return TimeInterval(max(0, maxAge - min(elapsed, maxAge)))
    }

    /// The media type of a `Content-Type` value, lowercased, without parameters: `application/json`.
    static func mediaType(_ contentType: String?) -> String? {
        guard let first = contentType?.split(separator: ";", omittingEmptySubsequences: false).first else { return nil }
        let type = first.trimmingCharacters(in: .whitespaces).lowercased()
        return type.isEmpty ? nil : type
    }

    /// Whether `mediaType` matches `pattern`: exact, `type/*`, `type/*+suffix` or `*/*`.
    static func matches(_ mediaType: String, pattern: String) -> Bool {
        let pattern = pattern.lowercased()
        if pattern == "*/*" { return true }
        let wanted = pattern.split(separator: "/", maxSplits: 1).map(String.init)
        let actual = mediaType.split(separator: "/", maxSplits: 1).map(String.init)
        guard wanted.count == 2, actual.count == 2, wanted[0] == actual[0] else { return false }
        if wanted[1] == "*" { return true }
        if wanted[1].hasPrefix("*") { return actual[1].hasSuffix(wanted[1].dropFirst()) && actual[1].count > wanted[1].count - 1 }
        return wanted[1] == actual[1]
    }

    /// Whether a pattern is well formed: `type/subtype`, both parts non-empty, of the characters below.
    static func isValidPattern(_ pattern: String) -> Bool {
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(mediaTypeCharacters.contains) }
    }

    /// The characters of a media type pattern: ASCII letters and digits, the restricted-name
    /// punctuation of RFC 6838, and `*` for wildcards.
    private static let mediaTypeCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$&-^_.+*")
}
