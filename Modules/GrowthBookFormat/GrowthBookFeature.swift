import ConfigDomain
import Foundation
import Targeting

/// A GrowthBook feature: its default value and its rules, in order.
public struct GrowthBookFeature: Sendable, Hashable {
    /// The value when no rule applies (nil when absent: GrowthBook's `null`).
    public var defaultValue: ConfigValue?
    /// The rules, in order.
    public var rules: [GrowthBookRule]

    /// Creates a feature.
    public init(defaultValue: ConfigValue?, rules: [GrowthBookRule]) {
        self.defaultValue = defaultValue
        self.rules = rules
    }
}

/// One rule of a GrowthBook feature: a forced value (optionally for a percentage) or an experiment.
public struct GrowthBookRule: Sendable, Hashable {
    /// The rule's id.
    public var id: String?
    /// Who the rule applies to.
    public var condition: Condition?
    /// Prerequisite features.
    public var parentConditions: [GrowthBookParentCondition]?
    /// The forced value, when the rule forces one (it may be `null`).
    public var force: ConfigValue?
    /// The share of contexts a force rule or experiment includes.
    public var coverage: Double?
    /// The bucket range a force rule includes (replaces coverage).
    public var range: BucketRange?
    /// The attribute hashed (nil: `id`).
    public var hashAttribute: String?
    /// The attribute hashed when `hashAttribute` is missing, with sticky bucketing.
    public var fallbackAttribute: String?
    /// The hash version (nil: 1).
    public var hashVersion: Int?
    /// The hash seed (nil or empty: the experiment key, or the feature id for a force rule).
    public var seed: String?
    /// The experiment key (nil or empty: the feature id).
    public var key: String?
    /// The experiment's variations (nil for a force rule).
    public var variations: [ConfigValue]?
    /// The variations' weights.
    public var weights: [Double]?
    /// The experiment's namespace.
    public var namespace: GrowthBookNamespace?
    /// Per-variation metadata.
    public var meta: [GrowthBookVariationMeta]?
    /// Explicit bucket ranges per variation.
    public var ranges: [BucketRange]?
    /// Mutual-exclusion filters.
    public var filters: [GrowthBookFilter]?
    /// Sticky-bucket version.
    public var bucketVersion: Int?
    /// Minimum sticky-bucket version.
    public var minBucketVersion: Int?
    /// Whether sticky bucketing is off.
    public var disableStickyBucketing = false
    /// The experiment's name.
    public var name: String?
    /// The experiment's phase.
    public var phase: String?

    /// Creates an empty rule; set the members as needed.
    public init() {}

    /// The experiment this rule runs for the feature `featureID` (nil for a rule without variations).
    func experiment(featureID: String) -> GrowthBookExperiment? {
        guard let variations else { return nil }
        var experiment = GrowthBookExperiment(key: GrowthBookEvaluator.nonEmpty(key) ?? featureID, variations: variations)
        experiment.coverage = coverage
        experiment.weights = weights
        experiment.hashAttribute = hashAttribute
        experiment.fallbackAttribute = fallbackAttribute
        experiment.disableStickyBucketing = disableStickyBucketing
        experiment.bucketVersion = bucketVersion
        experiment.minBucketVersion = minBucketVersion
        experiment.namespace = namespace
        experiment.meta = meta
        experiment.ranges = ranges
        experiment.name = name
        experiment.phase = phase
        experiment.seed = seed
        experiment.hashVersion = hashVersion
        experiment.filters = filters
        experiment.condition = condition
        return experiment
    }
}
