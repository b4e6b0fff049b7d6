import ConfigDomain
import Foundation

/// Where a key's value came from and why: the answer of `explain(key)`.
public struct Explanation: Sendable, Hashable, CustomStringConvertible {
    /// The key's name.
    public var key: String
    /// Whether the key is registered (unregistered keys are read from the snapshot as raw values).
    public var isRegistered: Bool
    /// The resolved value as text (redacted for secret keys).
    public var value: String
    /// The layer that supplied it.
    public var layer: ValueLayer
    /// Every candidate refused on the way, in layer order.
    public var rejected: [Rejection]
    /// The name of the remote provider whose snapshot supplied the value (nil for other layers).
    public var provider: String?
    /// The metadata of that provider's snapshot, else of the builder's own fetcher's snapshot, if there is one.
    public var snapshot: SnapshotMetadata?
    /// The active snapshot's age in seconds at the time of the call (negative if the clock moved back).
    public var snapshotAge: TimeInterval?
    /// The active snapshot's freshness at the time of the call.
    public var freshness: Freshness?
    /// The state generation the answer describes.
    public var generation: UInt64
    /// What the key's targeting rules decided for the current context: the rule or rollout (id,
    /// bucket and range), the attributes read, the first rules that did not match. Nil for a key without rules.
    public var targeting: TargetingDecision? = nil
    /// The context given with the call that the value was evaluated for; nil for the client's own context.
    public var context: EvaluationContext? = nil

    /// A few lines for a person.
    public var description: String {
        var lines = ["\(key) = \(value)  [from \(layer)]"]
        if !isRegistered { lines.append("  (not a registered key: read as a raw value)") }
        if let context {
            let attributes = context.attributes.keys.sorted().map { "\($0)=\(context.attributes[$0]?.jsonText() ?? "")" }
            lines.append("  for context targetingKey=\(context.targetingKey ?? "nil") \(attributes.joined(separator: " "))")
        }
        if let snapshot, let snapshotAge, let freshness {
            lines.append(
                "  snapshot from \(snapshot.source)\(provider.map { " (provider \($0))" } ?? ""), age \(Int(snapshotAge)) s, \(freshness), etag \(snapshot.validators.etag ?? "none")"
            )
        } else {
            lines.append("  no snapshot held")
        }
        if let targeting { lines.append("  targeting: \(targeting)") }
        for rejection in rejected { lines.append("  rejected: \(rejection)") }
        return lines.joined(separator: "\n")
    }
}
