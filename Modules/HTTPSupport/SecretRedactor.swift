import ConfigDomain
import Foundation

/// Removes secret header values from text before the adapter lets it out.
///
/// Every message an HTTP adapter's fetcher produces passes through this, as a second line of defence: the
/// messages are built without header values in the first place.
public struct SecretRedactor: Sendable {
    /// What replaces a secret.
    public static let placeholder = "<redacted>"

    /// The header names that are always secret, lowercased.
    public static let alwaysSecretHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-api-key"]

    private let fragments: [String]

    /// Creates a redactor for these secret values; each long word inside a value (a token after
    /// `Bearer`) is also redacted on its own.
    public init(secretValues: some Sequence<String>) {
        var found = Set<String>()
        for value in secretValues {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { found.insert(trimmed) }
            for word in trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }) where word.count >= 8 {
                found.insert(String(word))
            }
        }
        fragments = found.sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced by `<redacted>`.
    public func redact(_ text: String) -> String {
        var out = text
        for fragment in fragments where out.contains(fragment) {
            out = out.replacingOccurrences(of: fragment, with: Self.placeholder)
        }
        return out
    }

    /// `error` with its message redacted.
    public func redact(_ error: FetchError) -> FetchError {
        var copy = error
        copy.message = redact(error.message)
        if case .unsupportedContentType(let type?) = error.kind { copy.kind = .unsupportedContentType(redact(type)) }
        return copy
    }
}
