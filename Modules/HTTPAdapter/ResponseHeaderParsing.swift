import Foundation

/// Reads the response headers that make a payload's TTL, `Cache-Control` and `Age` (HTTPSupport reads
/// `Retry-After` and media types).
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
}
