import ConfigDomain
import Foundation
import Logging

/// Replaces known secret texts with `<redacted>` in what is logged.
struct LogRedactor: Sendable {
    /// The texts to remove, longest first so that a secret containing another is removed whole.
    private let fragments: [String]

    /// A redactor for `secrets` and for each word of eight characters or more inside one (the token after `Bearer`).
    init(secrets: [String]) {
        var found = Set<String>()
        for secret in secrets {
            let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { found.insert(trimmed) }
            for word in trimmed.split(whereSeparator: \.isWhitespace) where word.count >= 8 { found.insert(String(word)) }
        }
        fragments = found.sorted { $0.count > $1.count }
    }

    /// `text` without any secret.
    func redact(_ text: String) -> String {
        fragments.reduce(text) { text, fragment in Rejection.redact(text, secret: fragment) }
    }

    /// `value` without any secret, in every string it holds.
    func redact(_ value: Logger.MetadataValue) -> Logger.MetadataValue {
        switch value {
        case .string(let text): .string(redact(text))
        case .stringConvertible(let convertible): .string(redact(convertible.description))
        case .array(let items): .array(items.map(redact))
        case .dictionary(let members): .dictionary(members.mapValues(redact))
        }
    }
}
