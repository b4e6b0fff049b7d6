import Foundation

/// A candidate value refused for one key: which key, what value, which rule, and why.
///
/// A rejection never takes a payload down: the key falls through to the next layer and the
/// rejection is reported (events, `explain`).
public struct Rejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key's name.
    public var key: String
    /// The refused value as text, or ``redacted`` for secret keys.
    public var value: String
    /// The rule that refused it, for example `range(0...10)` or `type(Bool)`.
    public var rule: String
    /// Why, in words.
    public var reason: String
    /// Where the value came from: a layer, an environment variable, an argument.
    public var origin: String?
    /// The targeting-rule problem behind the rejection, when a key's rules caused it.
    public var targeting: RuleProblem?

    /// Stands in for a secret value in every message.
    public static let redacted = "<redacted>"

    /// Creates a rejection.
    public init(
        key: String, value: String, rule: String, reason: String, origin: String? = nil, targeting: RuleProblem? = nil
    ) {
        self.key = key
        self.value = value
        self.rule = rule
        self.reason = reason
        self.origin = origin
        self.targeting = targeting
    }

    /// Removes every occurrence of `secret` from `text`.
    public static func redact(_ text: String, secret: String) -> String {
        guard !secret.isEmpty else { return text }
        return text.replacingOccurrences(of: secret, with: redacted)
    }

    /// `key "retries": value 42 rejected by range(0...10): 42 is outside 0...10 (from env MYAPP_RETRIES)`.
    public var description: String {
        var text = "key \"\(key)\": value \(value) rejected by \(rule): \(reason)"
        if let origin { text += " (from \(origin))" }
        return text
    }
}
