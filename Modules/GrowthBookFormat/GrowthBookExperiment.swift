import ConfigDomain
import Foundation
import Targeting

/// A GrowthBook experiment: variations, who takes part, and how contexts are bucketed.
///
/// A feature's experiment rule becomes one of these; GrowthBook's `run` evaluates one directly.
public struct GrowthBookExperiment: Sendable, Hashable {
    /// The experiment key (the seed when `seed` is absent).
    public var key: String
    /// The values served, by variation index.
    public var variations: [ConfigValue]
    /// The share of contexts that take part, 0 to 1 (nil: all).
    public var coverage: Double?
    /// Each variation's share (nil: equal).
    public var weights: [Double]?
    /// The attribute hashed (nil: `id`).
    public var hashAttribute: String?
    /// The attribute hashed when `hashAttribute` is missing, with sticky bucketing.
    public var fallbackAttribute: String?
    /// Whether sticky bucketing is off for this experiment.
    public var disableStickyBucketing = false
    /// The sticky-bucket version (nil: 0).
    public var bucketVersion: Int?
    /// Contexts with a sticky bucket below this version are excluded (nil: 0).
    public var minBucketVersion: Int?
    /// The namespace and its share.
    public var namespace: GrowthBookNamespace?
    /// Per-variation key, name and passthrough.
    public var meta: [GrowthBookVariationMeta]?
    /// Explicit bucket ranges per variation (replacing coverage and weights).
    public var ranges: [BucketRange]?
    /// The experiment's name.
    public var name: String?
    /// The experiment's phase.
    public var phase: String?
    /// The hash seed (nil or empty: the key).
    public var seed: String?
    /// The hash version (nil: 1).
    public var hashVersion: Int?
    /// Mutual-exclusion filters.
    public var filters: [GrowthBookFilter]?
    /// Who takes part.
    public var condition: Condition?
    /// Prerequisite features.
    public var parentConditions: [GrowthBookParentCondition]?
    /// False for an inactive experiment.
    public var active: Bool?
    /// `draft`, `running` or `stopped`.
    public var status: String?
    /// A variation index every context gets (`force`), when present.
    public var forcedVariation: Int??

    /// Creates an experiment with `key` and `variations`; set the other members as needed.
    public init(key: String, variations: [ConfigValue]) {
        self.key = key
        self.variations = variations
    }
}

/// A GrowthBook namespace: contexts whose namespace hash falls in `range` take part.
public struct GrowthBookNamespace: Sendable, Hashable {
    /// The namespace id.
    public var id: String
    /// The share of the namespace, `[start, end)`.
    public var range: BucketRange

    /// Creates a namespace.
    public init(id: String, range: BucketRange) {
        self.id = id
        self.range = range
    }
}

/// A variation's metadata.
public struct GrowthBookVariationMeta: Sendable, Hashable {
    /// The variation key (nil: its index).
    public var key: String?
    /// The variation name.
    public var name: String?
    /// Whether contexts in this variation fall through to the next rule.
    public var passthrough: Bool

    /// Creates metadata.
    public init(key: String? = nil, name: String? = nil, passthrough: Bool = false) {
        self.key = key
        self.name = name
        self.passthrough = passthrough
    }
}

/// A mutual-exclusion filter: contexts whose hash falls in none of `ranges` are filtered out.
public struct GrowthBookFilter: Sendable, Hashable {
    /// The attribute hashed (nil: `id`).
    public var attribute: String?
    /// The hash seed.
    public var seed: String
    /// The hash version (nil: 2).
    public var hashVersion: Int?
    /// The ranges that keep a context in.
    public var ranges: [BucketRange]

    /// Creates a filter.
    public init(attribute: String?, seed: String, hashVersion: Int?, ranges: [BucketRange]) {
        self.attribute = attribute
        self.seed = seed
        self.hashVersion = hashVersion
        self.ranges = ranges
    }
}

/// A prerequisite: the feature `id`'s value must meet `condition` (on the member `value`).
public struct GrowthBookParentCondition: Sendable, Hashable {
    /// The prerequisite feature.
    public var id: String
    /// The condition on `{"value": <the feature's value>}`.
    public var condition: Condition
    /// Whether failing blocks the whole feature (true) or only skips the rule (false).
    public var gate: Bool

    /// Creates a prerequisite.
    public init(id: String, condition: Condition, gate: Bool) {
        self.id = id
        self.condition = condition
        self.gate = gate
    }
}
