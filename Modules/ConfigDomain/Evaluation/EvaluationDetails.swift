import Foundation

/// A key's value with what decided it, in OpenFeature's shape: the variant, the reason, the error code
/// and the flag's metadata, plus the layer and the deciding rule or bucket.
///
/// ```swift
/// let details = client.details(Flags.newCheckout, for: EvaluationContext(targetingKey: "u1", attributes: ["country": "DE"]))
/// print(details.value, details.variant ?? "-", details.reason)  // true on TARGETING_MATCH
/// ```
///
/// The reason follows the layer that supplied the value:
/// - an override: `STATIC` (it holds for every context);
/// - a remote snapshot: what its rules decided (`STATIC`, `TARGETING_MATCH`, `SPLIT`, `DEFAULT`);
/// - a last good value kept because the current one was refused: `CACHED`;
/// - bundled defaults: `DEFAULT`;
/// - the key's default: `DEFAULT` when the payload's rules served nothing, `DISABLED` for a flag
///   turned off, and `ERROR` with a code when something went wrong: `FLAG_NOT_FOUND` (no payload
///   has the key), `PROVIDER_NOT_READY` (no payload is held yet), `TYPE_MISMATCH` (the value is not
///   of the key's type), `PARSE_ERROR` (its rules could not be read) or `GENERAL` (a key's rule
///   refused it; ``errorMessage`` says which).
public struct EvaluationDetails<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The key's name.
    public var key: String
    /// The value a read returns.
    public var value: Value
    /// The variant served, by its name or index, when the payload's rules name one.
    public var variant: String?
    /// Why the value is what it is.
    public var reason: Evaluation.Reason
    /// What went wrong, for ``Evaluation/Reason/error``.
    public var errorCode: Evaluation.ErrorCode?
    /// The error in words, for a person, with ``errorCode``.
    public var errorMessage: String?
    /// The flag's metadata in the payload that supplied it (a flag set's, merged under the flag's own).
    public var flagMetadata: [String: ConfigValue]
    /// The layer that supplied the value.
    public var layer: ValueLayer
    /// What the payload's rules decided for the context (the rule or bucket, the attributes read, the
    /// rules that did not match); nil for a key without rules.
    public var decision: TargetingDecision?
    /// Every candidate refused on the way, in layer order.
    public var rejected: [Rejection]

    /// Creates details.
    public init(
        key: String, value: Value, variant: String? = nil, reason: Evaluation.Reason, errorCode: Evaluation.ErrorCode? = nil,
        errorMessage: String? = nil, flagMetadata: [String: ConfigValue] = [:], layer: ValueLayer,
        decision: TargetingDecision? = nil, rejected: [Rejection] = []
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.flagMetadata = flagMetadata
        self.layer = layer
        self.decision = decision
        self.rejected = rejected
    }

    /// `new_checkout = true (TARGETING_MATCH, variant on) from snapshot https://…: rule "de"`.
    public var description: String {
        var text = "\(key) = \(value) (\(reason.rawValue)"
        if let errorCode { text += " \(errorCode.rawValue)" }
        if let variant { text += ", variant \(variant)" }
        text += ") from \(layer)"
        if let errorMessage { return text + ": " + errorMessage }
        if let match = decision?.match { text += ": \(match)" }
        return text
    }
}
