import ConfigDomain
import Foundation
import Targeting

/// A rule of the native dialect: when the condition holds, the key takes the value.
///
/// A class, so that evaluating a key's rules on each context change copies one reference per rule.
final class TargetedRule: Sendable {
    /// The rule's `id`, or `rules[i]`.
    let id: String
    /// When the rule applies (``Condition/always`` without `when`).
    let condition: Condition
    /// Whether the rule has no condition.
    let isUnconditional: Bool
    /// The value served.
    let value: ConfigValue

    init(id: String, condition: Condition, value: ConfigValue) {
        self.id = id
        self.condition = condition
        self.isUnconditional = condition == .always
        self.value = value
    }
}

/// A percentage rollout of the native dialect: contexts whose bucket falls in a variant's range get its value.
final class TargetedRollout: Sendable {
    /// One weighted value of a rollout.
    struct Variant: Sendable, Hashable {
        /// The variant's `name`, or its index.
        let name: String
        let value: ConfigValue
    }

    /// The rollout's `id`, or `rollouts[i]`.
    let id: String
    /// Which contexts take part (``Condition/always`` without `when`).
    let condition: Condition
    /// Whether the rollout has no condition.
    let isUnconditional: Bool
    /// The hash seed (default: the key's name).
    let seed: String
    /// The attribute path whose value is hashed (default: the targeting key).
    let bucketBy: String
    let variants: [Variant]
    /// Each variant's bucket range, from the weights and the coverage.
    let ranges: [BucketRange]

    init(id: String, condition: Condition, seed: String, bucketBy: String, variants: [Variant], ranges: [BucketRange]) {
        self.id = id
        self.condition = condition
        self.isUnconditional = condition == .always
        self.seed = seed
        self.bucketBy = bucketBy
        self.variants = variants
        self.ranges = ranges
    }

    /// Whether the ranges cover every bucket without a gap (so every context with the attribute is in).
    var coversEveryone: Bool {
        abs((ranges.last?.upper ?? 0) - 1) < 1e-9 && ranges.first?.lower == 0
            && zip(ranges, ranges.dropFirst()).allSatisfy { abs($0.upper - $1.lower) < 1e-9 }
    }
}
