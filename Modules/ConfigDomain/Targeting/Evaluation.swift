import Foundation

/// What one key of a payload serves one context, and why, in OpenFeature's vocabulary.
///
/// Made by `DecodedPayload.evaluate(_:in:)`: payload plus context in, value, variant and reason out,
/// with no client, fetcher or registered key.
public struct Evaluation: Sendable, Hashable, CustomStringConvertible {
    /// Why the value is what it is (OpenFeature's resolution reasons).
    public enum Reason: String, Sendable, Hashable {
        /// The key has no rules: its plain value.
        case staticValue = "STATIC"
        /// A rule whose condition matched decided.
        case targetingMatch = "TARGETING_MATCH"
        /// A percentage rollout or experiment decided, by the context's bucket.
        case split = "SPLIT"
        /// The key has rules and none decided: the payload's default for it, or none.
        case defaultValue = "DEFAULT"
        /// The flag is turned off where it is defined: the app's default applies.
        case disabled = "DISABLED"
        /// A value kept from an earlier payload (a last good value), because the current one was refused.
        case cached = "CACHED"
        /// The key cannot be evaluated (see ``Evaluation/errorCode``).
        case error = "ERROR"
    }

    /// Why a key could not be evaluated (OpenFeature's error codes).
    public enum ErrorCode: String, Sendable, Hashable {
        /// The payload has no such key.
        case flagNotFound = "FLAG_NOT_FOUND"
        /// The key's rules could not be read; ``Evaluation/problems`` says why.
        case parseError = "PARSE_ERROR"
        /// The value is not of the type the key asks for.
        case typeMismatch = "TYPE_MISMATCH"
        /// The rules need a targeting key and the context has none.
        case targetingKeyMissing = "TARGETING_KEY_MISSING"
        /// The context cannot be evaluated (an attribute of the wrong type, say).
        case invalidContext = "INVALID_CONTEXT"
        /// No payload is held yet: neither fetched nor cached.
        case providerNotReady = "PROVIDER_NOT_READY"
        /// Any other error; the message says what.
        case general = "GENERAL"
    }

    /// The key evaluated.
    public var key: String
    /// The value served; nil when the payload serves none (the app's default applies).
    public var value: ConfigValue?
    /// The variant served, by its name or index, when a rule names one.
    public var variant: String?
    /// Why the value is what it is.
    public var reason: Reason
    /// Why the key could not be evaluated, for ``Reason/error``.
    public var errorCode: ErrorCode?
    /// What the key's rules decided and why (nil for a key without rules).
    public var decision: TargetingDecision?
    /// The problems met: those that rejected the key's rules, or those met while evaluating them.
    public var problems: [RuleProblem]

    /// Creates an evaluation.
    public init(
        key: String, value: ConfigValue?, variant: String? = nil, reason: Reason, errorCode: ErrorCode? = nil,
        decision: TargetingDecision? = nil, problems: [RuleProblem] = []
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.decision = decision
        self.problems = problems
    }

    /// `checkout = true (SPLIT, variant 1): rollout "exp" variant 1 (id bucket 0.2371 in [0, 0.5))`.
    public var description: String {
        var text = "\(key) = \(value?.jsonText() ?? "(none)") (\(reason.rawValue)"
        if let errorCode { text += " \(errorCode.rawValue)" }
        if let variant { text += ", variant \(variant)" }
        text += ")"
        if let problem = problems.first { return text + ": " + problem.description }
        if let decision { text += ": \(decision)" }
        return text
    }
}
