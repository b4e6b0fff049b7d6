import ConfigDomain
import Foundation

/// What evaluating a GrowthBook feature gave, with the same members as GrowthBook's SDKs.
public struct GrowthBookFeatureResult: Sendable, Hashable {
    /// Where the value came from.
    public enum Source: String, Sendable, Hashable {
        /// No feature has this id.
        case unknownFeature
        /// No rule applied: the feature's default.
        case defaultValue
        /// A force rule.
        case force
        /// An experiment rule.
        case experiment
        /// A gating prerequisite failed.
        case prerequisite
        /// Prerequisites form a cycle.
        case cyclicPrerequisite
    }

    /// The value (`null` when none).
    public var value: ConfigValue
    /// Where it came from.
    public var source: Source
    /// The deciding rule's id (empty when none).
    public var ruleID: String
    /// The experiment that decided, for `experiment`.
    public var experiment: GrowthBookExperiment?
    /// The experiment's result, for `experiment`.
    public var experimentResult: GrowthBookExperimentResult?
    /// The index of the deciding rule in the feature's rules.
    public var ruleIndex: Int?

    /// Whether the value is truthy (GrowthBook's `on`).
    public var on: Bool {
        switch value {
        case .null, .bool(false), .int(0), .string(""): false
        case .double(let number): number != 0 && !number.isNaN
        default: true
        }
    }

    /// The opposite of ``on``.
    public var off: Bool { !on }
}

/// What running a GrowthBook experiment gave, with the same members as GrowthBook's SDKs.
public struct GrowthBookExperimentResult: Sendable, Hashable {
    /// The variation key (its meta key, else its index).
    public var key: String
    /// The feature that ran the experiment, if any.
    public var featureID: String?
    /// Whether the context takes part.
    public var inExperiment: Bool
    /// Whether the context was bucketed by hashing.
    public var hashUsed: Bool
    /// The variation index (0 when not in the experiment).
    public var variationID: Int
    /// The variation's value.
    public var value: ConfigValue
    /// The attribute hashed.
    public var hashAttribute: String
    /// Its value (`""` when missing).
    public var hashValue: ConfigValue
    /// Whether a stored sticky bucket decided.
    public var stickyBucketUsed: Bool
    /// The variation's name, if any.
    public var name: String?
    /// The bucket the hash gave, when hashed.
    public var bucket: Double?
    /// Whether the variation passes through to the next rule.
    public var passthrough: Bool
}

/// Stored sticky-bucket assignments for one attribute value (`id||u1`): experiment key and version to variation key.
public struct StickyBucketDocument: Sendable, Hashable {
    /// The attribute's name.
    public var attributeName: String
    /// The attribute's value as text.
    public var attributeValue: String
    /// `experimentKey__bucketVersion` to the assigned variation key.
    public var assignments: [String: String]

    /// Creates a document.
    public init(attributeName: String, attributeValue: String, assignments: [String: String]) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
        self.assignments = assignments
    }

    /// The key a document is stored under: `attributeName||attributeValue`.
    public var storageKey: String { "\(attributeName)||\(attributeValue)" }
}
