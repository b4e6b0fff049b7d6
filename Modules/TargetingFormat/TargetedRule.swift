import ConfigDomain
import Foundation

/// A rule of the native dialect: when the condition holds, the key takes the value.
struct TargetedRule: Sendable, Hashable {
    /// The rule's `id`, or `rules[i]`.
    let id: String
    /// When the rule applies (``Condition/always`` without `when`).
    let condition: Condition
    /// The value served.
    let value: ConfigValue
}

/// A percentage rollout of the native dialect: contexts whose bucket falls in a variant's range get its value.
struct TargetedRollout: Sendable, Hashable {
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
    /// The hash seed (default: the key's name).
    let seed: String
    /// The attribute path whose value is hashed (default: the targeting key).
    let bucketBy: String
    let variants: [Variant]
    /// Each variant's bucket range, from the weights and the coverage.
    let ranges: [BucketRange]
}
