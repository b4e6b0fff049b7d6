import ConfigDomain
import Foundation

/// One LaunchDarkly feature flag, as a server-side SDK holds it (a class: every evaluation passes it around).
final class LDFlag: Sendable {
    let key: String
    let on: Bool
    let variations: [ConfigValue]
    let offVariation: Int64?
    let `fallthrough`: LDVariationOrRollout
    let prerequisites: [LDPrerequisite]
    let targets: [LDTarget]
    let contextTargets: [LDTarget]
    let rules: [LDFlagRule]
    let salt: String

    init(
        key: String, on: Bool, variations: [ConfigValue], offVariation: Int64?, fallthrough: LDVariationOrRollout,
        prerequisites: [LDPrerequisite], targets: [LDTarget], contextTargets: [LDTarget], rules: [LDFlagRule], salt: String
    ) {
        self.key = key
        self.on = on
        self.variations = variations
        self.offVariation = offVariation
        self.fallthrough = `fallthrough`
        self.prerequisites = prerequisites
        self.targets = targets
        self.contextTargets = contextTargets
        self.rules = rules
        self.salt = salt
    }
}

/// A flag that must serve a variation before this one evaluates its targeting.
struct LDPrerequisite: Sendable {
    let key: String
    let variation: Int64
}

/// An individual target list: the keys of one context kind that get one variation.
struct LDTarget: Sendable {
    let contextKind: String?
    let variation: Int64
    let values: Set<ExactText>
}

/// A flag rule: clauses that must all match, and what it serves.
struct LDFlagRule: Sendable {
    let id: String?
    let clauses: [LDClause]
    let outcome: LDVariationOrRollout

    /// A rule's name in details and problems: its `id` when it has a non-empty one, else `rules[index]`.
    static func name(id: String?, index: Int) -> String {
        if let id, !id.isEmpty { return id }
        return "rules[\(index)]"
    }
}

/// A fixed variation, a percentage rollout, or (malformed) neither.
struct LDVariationOrRollout: Sendable {
    let variation: Int64?
    let rollout: LDRollout?
}

/// A percentage rollout or an experiment.
struct LDRollout: Sendable {
    let contextKind: String?
    let bucketBy: AttributeReference?
    let isExperiment: Bool
    let seed: Int64?
    let variations: [LDWeightedVariation]
}

/// One bucket of a rollout: a variation and its weight in 1/100,000ths.
struct LDWeightedVariation: Sendable {
    let variation: Int64
    let weight: Int64
    let untracked: Bool
}

/// A clause's operator.
enum LDOperator: Sendable, Hashable {
    case `in`, endsWith, startsWith, matches, contains
    case lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual
    case before, after
    case semVerEqual, semVerLessThan, semVerGreaterThan
    case segmentMatch
    /// An operator LaunchDarkly does not know: it never matches (a negated clause then always does).
    case unknown(String)

    init(_ name: String) {
        switch name {
        case "in": self = .in
        case "endsWith": self = .endsWith
        case "startsWith": self = .startsWith
        case "matches": self = .matches
        case "contains": self = .contains
        case "lessThan": self = .lessThan
        case "lessThanOrEqual": self = .lessThanOrEqual
        case "greaterThan": self = .greaterThan
        case "greaterThanOrEqual": self = .greaterThanOrEqual
        case "before": self = .before
        case "after": self = .after
        case "semVerEqual": self = .semVerEqual
        case "semVerLessThan": self = .semVerLessThan
        case "semVerGreaterThan": self = .semVerGreaterThan
        case "segmentMatch": self = .segmentMatch
        default: self = .unknown(name)
        }
    }

    /// Every operator's name, for messages.
    static let names = [
        "in", "endsWith", "startsWith", "matches", "contains", "lessThan", "lessThanOrEqual", "greaterThan",
        "greaterThanOrEqual", "before", "after", "semVerEqual", "semVerLessThan", "semVerGreaterThan", "segmentMatch",
    ]
}

/// A clause: an attribute of a context kind, an operator, the values it compares with, and `negate`.
struct LDClause: Sendable {
    let contextKind: String?
    let attribute: AttributeReference
    let op: LDOperator
    let values: [ConfigValue]
    let negate: Bool
    /// The values read once for the operators that need it (`matches`, `before`/`after`, the `semVer`
    /// operators), one per value; empty for the others.
    let prepared: [LDPreparedValue]
}

/// A clause value read for its operator when the payload is decoded, as LaunchDarkly preprocesses it.
enum LDPreparedValue: Sendable {
    case regex(LDRegex?)
    case time(Double?)
    case version(LDSemanticVersion?)
}

/// One LaunchDarkly segment.
final class LDSegment: Sendable {
    let key: String
    let included: Set<ExactText>
    let excluded: Set<ExactText>
    let includedContexts: [LDSegmentTarget]
    let excludedContexts: [LDSegmentTarget]
    let rules: [LDSegmentRule]
    let salt: String
    let unbounded: Bool
    let unboundedContextKind: String?
    let generation: Int64?

    init(
        key: String, included: Set<ExactText>, excluded: Set<ExactText>, includedContexts: [LDSegmentTarget],
        excludedContexts: [LDSegmentTarget], rules: [LDSegmentRule], salt: String, unbounded: Bool,
        unboundedContextKind: String?, generation: Int64?
    ) {
        self.key = key
        self.included = included
        self.excluded = excluded
        self.includedContexts = includedContexts
        self.excludedContexts = excludedContexts
        self.rules = rules
        self.salt = salt
        self.unbounded = unbounded
        self.unboundedContextKind = unboundedContextKind
        self.generation = generation
    }
}

/// Keys of one context kind included in or excluded from a segment.
struct LDSegmentTarget: Sendable {
    let contextKind: String?
    let values: Set<ExactText>
}

/// A segment rule: clauses, and an optional weight that lets only a share of the matching contexts in.
struct LDSegmentRule: Sendable {
    let clauses: [LDClause]
    let rolloutContextKind: String?
    let bucketBy: AttributeReference?
    let weight: Int64?
}

/// Everything a payload holds, shared by every flag's rules: flags reach their prerequisites and segments here.
final class LDDataSet: Sendable {
    let flags: [ExactText: LDFlag]
    let segments: [ExactText: LDSegment]
    /// Flags that are in the payload but could not be read, with why.
    let unreadableFlags: [ExactText: String]
    /// Segments that are in the payload but could not be read, with why.
    let unreadableSegments: [ExactText: String]

    init(
        flags: [ExactText: LDFlag], segments: [ExactText: LDSegment], unreadableFlags: [ExactText: String],
        unreadableSegments: [ExactText: String]
    ) {
        self.flags = flags
        self.segments = segments
        self.unreadableFlags = unreadableFlags
        self.unreadableSegments = unreadableSegments
    }
}
