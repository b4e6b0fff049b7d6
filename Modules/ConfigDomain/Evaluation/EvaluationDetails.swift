import Foundation

/// Why a key's value is what it is: the one answer to "why", for a client's read or a payload alone.
///
/// ```swift
/// let details = client.details(Flags.newCheckout, for: EvaluationContext(targetingKey: "u1", attributes: ["country": "DE"]))
/// print(details.value, details.variant ?? "-", details.reason)  // true on TARGETING_MATCH
/// print(details)                                                // the whole story, a few lines
/// ```
///
/// It carries OpenFeature's fields (value, variant, reason, error code and message, flag metadata)
/// and where the value came from (layer, provider and snapshot, freshness, rejections, the deciding
/// rule or bucket). The reason follows the layer that supplied the value:
/// - an override: `STATIC` (it holds for every context);
/// - a remote snapshot: what its rules decided (`STATIC`, `TARGETING_MATCH`, `SPLIT`, `DEFAULT`), or,
///   for a remote evaluator such as OFREP, what its server said;
/// - a last good value kept because the current one was refused: `CACHED`;
/// - bundled defaults: `DEFAULT`;
/// - the key's default: `DEFAULT` when the payload's rules served nothing, `DISABLED` for a flag
///   turned off, and `ERROR` with a code when something went wrong: `FLAG_NOT_FOUND` (no payload
///   has the key), `PROVIDER_NOT_READY` (no payload is held yet), `TYPE_MISMATCH` (the value is not
///   of the key's type), `PARSE_ERROR` (its rules could not be read), `INVALID_CONTEXT` (a context the
///   provider does not hold) or `GENERAL` (a key's rule refused it; ``errorMessage`` says which).
///
/// A payload evaluated alone (`DecodedPayload.evaluate(_:in:)`) answers with a `ConfigValue?`: nil
/// when it serves no value, and the client fields (snapshot, freshness, generation) empty.
public struct EvaluationDetails<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The key's name.
    public var key: String
    /// The variant served, by its name or index, when the payload's rules name one.
    public var variant: String?
    /// Why the value is what it is.
    public var reason: EvaluationReason
    /// What went wrong, for ``EvaluationReason/error``.
    public var errorCode: EvaluationErrorCode?
    /// The error in words, for a person, with ``errorCode``.
    public var errorMessage: String?
    /// The flag's metadata in the payload that supplied it (a flag set's, merged under the flag's own), under what
    /// the evaluation itself stated (``TargetingDecision/metadata``: LaunchDarkly's reason, say).
    public var flagMetadata: [String: ConfigValue]
    /// The layer that supplied the value.
    public var layer: ValueLayer
    /// What the payload's rules decided for the context (the rule or bucket; with details, the
    /// attributes read and the rules that did not match); nil for a key without rules.
    public var decision: TargetingDecision?
    /// Every candidate refused on the way, in layer order.
    public var rejected: [Rejection]
    /// Whether the key read is registered (an unregistered key is resolved alone, with its own default and rules).
    public var isRegistered: Bool
    /// Whether the key is secret: ``description`` then shows no value.
    public var isSecret: Bool
    /// The name of the remote provider whose snapshot supplied the value, now or as its last good value.
    public var provider: String?
    /// The metadata of that provider's snapshot, else of the builder's own fetcher's snapshot, if there is one.
    public var snapshot: SnapshotMetadata?
    /// That snapshot's age in seconds when the details were made (negative if the clock moved back).
    public var snapshotAge: TimeInterval?
    /// That snapshot's freshness when the details were made.
    public var freshness: Freshness?
    /// The generation of the client's state the details describe (0 for a payload alone).
    public var generation: UInt64
    /// The context the value was evaluated for.
    public var context: EvaluationContext?
    // Stored last, so that the other fields keep one layout whatever `Value` is (see Integration/Benchmarks/README.md).
    /// The value a read returns.
    public var value: Value

    /// Creates details.
    public init(
        key: String, value: Value, variant: String? = nil, reason: EvaluationReason, errorCode: EvaluationErrorCode? = nil,
        errorMessage: String? = nil, flagMetadata: [String: ConfigValue] = [:], layer: ValueLayer,
        decision: TargetingDecision? = nil, rejected: [Rejection] = [], isRegistered: Bool = true, isSecret: Bool = false,
        provider: String? = nil,
        snapshot: SnapshotMetadata? = nil, snapshotAge: TimeInterval? = nil, freshness: Freshness? = nil,
        generation: UInt64 = 0, context: EvaluationContext? = nil
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
        self.isRegistered = isRegistered
        self.isSecret = isSecret
        self.provider = provider
        self.snapshot = snapshot
        self.snapshotAge = snapshotAge
        self.freshness = freshness
        self.generation = generation
        self.context = context
    }

    /// The first line: `new_checkout = true (TARGETING_MATCH, variant on) from snapshot https://…: rule "de"`.
    public var summary: String {
        var text = "\(key) = \(isSecret ? Rejection.redacted : Self.render(value)) (\(reason)"
        if let errorCode { text += " \(errorCode)" }
        if let variant { text += ", variant \(variant)" }
        text += ") from \(layer)"
        if let errorMessage { return text + ": " + errorMessage }
        if let match = decision?.match { text += ": \(match)" }
        return text
    }

    /// The summary, then the context, the snapshot, the rules' decision and each rejection, a line each.
    public var description: String {
        var lines = [summary]
        if !isRegistered { lines.append("  (not a registered key: resolved alone, with its own default and rules)") }
        if let context, context != .empty {
            let attributes = context.attributes.keys.sorted().map { "\($0)=\(context.attributes[$0]?.jsonText() ?? "")" }
            lines.append("  for context targetingKey=\(context.targetingKey ?? "nil") \(attributes.joined(separator: " "))")
        }
        if let snapshot, let snapshotAge, let freshness {
            lines.append(
                "  snapshot from \(snapshot.source)\(provider.map { " (provider \($0))" } ?? ""), age \(Int(snapshotAge)) s, "
                    + "\(freshness), etag \(snapshot.validators.etag ?? "none")")
        } else if generation > 0 {
            lines.append("  no snapshot held")
        }
        if !flagMetadata.isEmpty { lines.append("  metadata: \(ConfigValue.object(flagMetadata).jsonText())") }
        if let decision { lines.append("  targeting: \(decision)") }
        for rejection in rejected { lines.append("  rejected: \(rejection)") }
        return lines.joined(separator: "\n")
    }

    /// A value for a person: JSON text for a ``ConfigValue`` (or `(none)`), else the value as Swift prints it.
    private static func render(_ value: Value) -> String {
        if let value = value as? ConfigValue { return value.jsonText() }
        if let value = value as? ConfigValue? { return value?.jsonText() ?? "(none)" }
        return "\(value)"
    }

    /// The same details with `value` in place of this value.
    public func with<Other>(value: Other) -> EvaluationDetails<Other> {
        EvaluationDetails<Other>(
            key: key, value: value, variant: variant, reason: reason, errorCode: errorCode, errorMessage: errorMessage,
            flagMetadata: flagMetadata, layer: layer, decision: decision, rejected: rejected, isRegistered: isRegistered,
            isSecret: isSecret,
            provider: provider, snapshot: snapshot, snapshotAge: snapshotAge, freshness: freshness, generation: generation,
            context: context)
    }
}

extension EvaluationDetails: Equatable where Value: Equatable {}
extension EvaluationDetails: Hashable where Value: Hashable {}
