import Foundation

/// Why a key's value is what it is: OpenFeature's resolution reasons, printed in its words (`TARGETING_MATCH`).
public enum EvaluationReason: String, Sendable, Hashable, CustomStringConvertible {
    /// The key has no rules: its plain value, or an override that holds for every context.
    case staticValue = "STATIC"
    /// A rule whose condition matched decided.
    case targetingMatch = "TARGETING_MATCH"
    /// A percentage rollout or experiment decided, by the context's bucket.
    case split = "SPLIT"
    /// The key has rules and none decided: the payload's default for it, bundled defaults, or the key's default.
    case defaultValue = "DEFAULT"
    /// The flag is turned off where it is defined: the app's default applies.
    case disabled = "DISABLED"
    /// A value kept from an earlier payload (a last good value), because the current one was refused.
    case cached = "CACHED"
    /// The key cannot be evaluated (see ``EvaluationErrorCode``).
    case error = "ERROR"
    /// A reason a remote evaluator stated that OpenFeature does not define (`UNKNOWN`, say).
    case unknown = "UNKNOWN"

    /// OpenFeature's word for the reason: `TARGETING_MATCH`.
    public var description: String { rawValue }

    /// The reason OpenFeature's word names, or ``unknown`` for a word it does not define.
    public init(openFeature word: String) { self = EvaluationReason(rawValue: word) ?? .unknown }
}

/// Why a key could not be evaluated: OpenFeature's error codes, printed in its words (`FLAG_NOT_FOUND`).
public enum EvaluationErrorCode: String, Sendable, Hashable, CustomStringConvertible {
    /// No payload has the key.
    case flagNotFound = "FLAG_NOT_FOUND"
    /// The key's rules could not be read.
    case parseError = "PARSE_ERROR"
    /// The value is not of the type the key asks for.
    case typeMismatch = "TYPE_MISMATCH"
    /// The rules need a targeting key and the context has none.
    case targetingKeyMissing = "TARGETING_KEY_MISSING"
    /// The context cannot be evaluated (an attribute of the wrong type, or a context this provider does not hold).
    case invalidContext = "INVALID_CONTEXT"
    /// No payload is held yet: neither fetched nor cached.
    case providerNotReady = "PROVIDER_NOT_READY"
    /// The provider is in an irrecoverable state.
    case providerFatal = "PROVIDER_FATAL"
    /// Any other error; the message says what.
    case general = "GENERAL"

    /// OpenFeature's word for the error: `FLAG_NOT_FOUND`.
    public var description: String { rawValue }

    /// The code OpenFeature's word names, or ``general`` for a word it does not define.
    public init(openFeature word: String) { self = EvaluationErrorCode(rawValue: word) ?? .general }
}
