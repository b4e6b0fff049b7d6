import Foundation

/// A value decided by a rule, rollout or experiment, read for the first time for one targeting key:
/// what an analytics or experiment pipeline records (GrowthBook's tracking callback, ConfigCat's
/// `onFlagEvaluated`, OpenFeature's hooks).
///
/// A client that reports exposures (`RemoteConfigBuilder.reportingExposures()`) sends one per key,
/// variant and targeting key, as `ConfigEvent.exposure(_:)`, from a task of its own: never on the read.
public struct Exposure: Sendable, Hashable, CustomStringConvertible {
    /// The key read.
    public var key: String
    /// The variant served, by its name or index, if the rules name one.
    public var variant: String?
    /// The value served, as text (redacted for a secret key).
    public var value: String
    /// Why: `TARGETING_MATCH` or `SPLIT`.
    public var reason: EvaluationReason
    /// The rule or rollout that decided, if the dialect names it.
    public var ruleID: String?
    /// The targeting key of the context the value was read for (nil when the context has none).
    public var targetingKey: String?

    /// Creates an exposure.
    public init(
        key: String, variant: String?, value: String, reason: EvaluationReason, ruleID: String?, targetingKey: String?
    ) {
        self.key = key
        self.variant = variant
        self.value = value
        self.reason = reason
        self.ruleID = ruleID
        self.targetingKey = targetingKey
    }

    /// `new_checkout = true (variant on, SPLIT by rule "exp") for u1`.
    public var description: String {
        var text = "\(key) = \(value) ("
        if let variant { text += "variant \(variant), " }
        text += reason.rawValue
        if let ruleID { text += " by rule \"\(ruleID)\"" }
        return text + ") for \(targetingKey ?? "no targeting key")"
    }
}
