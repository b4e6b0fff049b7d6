import Foundation

/// What a key's ``TargetingRules`` decided for one context, and why: a client's details show it.
public struct TargetingDecision: Sendable, Hashable, CustomStringConvertible {
    /// How many rules that did not match a decision keeps, in order.
    public static let unmatchedLimit = 3

    /// The value the rules serve, or nil when none decided (the payload's plain value for the key applies).
    public var value: ConfigValue?
    /// The rule or rollout that decided, or nil when none did.
    public var match: TargetingMatch?
    /// The context attributes the evaluated rules read, without repeats: those of their conditions
    /// in rule order, then those rollouts bucketed on.
    public var attributesRead: [String]
    /// The first rules (at most ``unmatchedLimit``) that were evaluated and did not match, in order.
    public var unmatched: [UnmatchedRule]
    /// Problems met while evaluating (an attribute of the wrong type); each skipped its rule and is reported as a rejection.
    public var problems: [RuleProblem]
    /// The reason the rules state for themselves, or nil to take it from ``match`` (a rule: `TARGETING_MATCH`,
    /// a rollout: `SPLIT`, none: `DEFAULT`). A dialect whose flags can be off or fail says so here: `STATIC`,
    /// `DISABLED`, or `ERROR` with ``errorCode``; `ERROR` serves no value.
    public var reason: EvaluationReason?
    /// Why the rules could not decide, with ``reason`` `ERROR`.
    public var errorCode: EvaluationErrorCode?
    /// What went wrong, in words, with ``reason`` `ERROR`.
    public var errorMessage: String?
    /// The name of the variant served when no rule decided: the payload's default variant, when the dialect names one.
    public var defaultVariant: String?
    /// What this evaluation states about itself in the dialect's own words, for details: LaunchDarkly's reason
    /// (`reasonKind`, `ruleIndex`, `ruleId`, `prerequisiteKey`, `inExperiment`, `errorKind`), say. Details show it
    /// as the flag's metadata, over the metadata the payload states for the flag; empty for most dialects.
    public var metadata: [String: ConfigValue]

    /// Whether the rules state that they serve nothing, whatever the payload's plain value: `ERROR`.
    /// (A `DISABLED` flag serves what its rules give: flagd gives nothing, an OFREP server its value.)
    public var servesNothing: Bool { reason == .error }

    /// The reason of this decision: the one the rules state, else `TARGETING_MATCH` for a rule,
    /// `SPLIT` for a rollout and `DEFAULT` when none decided.
    public var effectiveReason: EvaluationReason {
        if let reason { return reason }
        switch match?.kind {
        case .rule?: return .targetingMatch
        case .rollout?: return .split
        case nil: return .defaultValue
        }
    }

    /// The variant served: the deciding rule's, else the payload's default variant; none when the rules serve nothing.
    public var servedVariant: String? { servesNothing ? nil : match?.variant ?? defaultVariant }

    /// Creates a decision.
    @inlinable
    public init(
        value: ConfigValue?, match: TargetingMatch? = nil, attributesRead: [String] = [], unmatched: [UnmatchedRule] = [],
        problems: [RuleProblem] = [], reason: EvaluationReason? = nil, errorCode: EvaluationErrorCode? = nil,
        errorMessage: String? = nil, defaultVariant: String? = nil, metadata: [String: ConfigValue] = [:]
    ) {
        self.value = value
        self.match = match
        self.attributesRead = attributesRead
        self.unmatched = unmatched
        self.problems = problems
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.defaultVariant = defaultVariant
        self.metadata = metadata
    }

    /// A decision that serves nothing because the rules failed: reason `ERROR` with `code` and `message`.
    public static func failure(_ code: EvaluationErrorCode, _ message: String, attributesRead: [String] = [])
        -> TargetingDecision
    {
        TargetingDecision(value: nil, attributesRead: attributesRead, reason: .error, errorCode: code, errorMessage: message)
    }

    /// A decision in which no rule served a value.
    public static func noMatch(
        attributesRead: [String] = [], unmatched: [UnmatchedRule] = [], problems: [RuleProblem] = []
    ) -> TargetingDecision {
        TargetingDecision(value: nil, attributesRead: attributesRead, unmatched: unmatched, problems: problems)
    }

    /// `rule "beta-de" (bucket id 0.2371 in [0, 0.3)); read country, id; not matched: "vip" (condition failed)`.
    public var description: String {
        var text: String
        if let errorMessage {
            text = "error: " + errorMessage
        } else if reason == .disabled {
            text = "flag disabled"
        } else if let match {
            text = "\(match)"
        } else if let defaultVariant {
            text = "default variant \(defaultVariant)"
        } else {
            text = "no rule matched"
        }
        if !attributesRead.isEmpty { text += "; read " + attributesRead.joined(separator: ", ") }
        if !unmatched.isEmpty { text += "; not matched: " + unmatched.map(\.description).joined(separator: ", ") }
        if !metadata.isEmpty { text += "; " + ConfigValue.object(metadata).jsonText() }
        return text
    }
}

/// The rule or rollout that decided a key's value.
public struct TargetingMatch: Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule decided.
    public enum Kind: String, Sendable, Hashable {
        /// A rule whose condition matched (no bucketing).
        case rule
        /// A percentage rollout or experiment: the context's bucket fell in a variant's range.
        case rollout
    }

    /// The rule's id: its `id` in the payload, or its position (`rules[2]`) when it has none.
    public var ruleID: String
    /// Rule or rollout.
    public var kind: Kind
    /// Where the context landed, for a rollout.
    public var bucket: BucketPlacement?
    /// The variant served, by its name or index, for a rollout.
    public var variant: String?

    /// Creates a match.
    @inlinable
    public init(ruleID: String, kind: Kind, bucket: BucketPlacement? = nil, variant: String? = nil) {
        self.ruleID = ruleID
        self.kind = kind
        self.bucket = bucket
        self.variant = variant
    }

    /// `rollout "checkout-exp" variant 1 (id bucket 0.2371 in [0, 0.3))`.
    public var description: String {
        var text = "\(kind) \"\(ruleID)\""
        if let variant { text += " variant \(variant)" }
        if let bucket { text += " (\(bucket))" }
        return text
    }
}

/// Where a context landed in a rollout: the attribute hashed, the bucket value and the range it fell in.
///
/// The scale is the dialect's own: 0 ..< 1 for GrowthBook and the native dialect, 1 ... 100 for Unleash.
public struct BucketPlacement: Sendable, Hashable, CustomStringConvertible {
    /// The attribute whose value was hashed, for example `id`.
    public var attribute: String
    /// The bucket value the hash gave.
    public var value: Double
    /// The lower end of the range that served the variant (inclusive).
    public var lower: Double
    /// The upper end of the range (exclusive for a 0 ..< 1 scale, inclusive for 1 ... 100).
    public var upper: Double

    /// Creates a placement.
    public init(attribute: String, value: Double, lower: Double, upper: Double) {
        self.attribute = attribute
        self.value = value
        self.lower = lower
        self.upper = upper
    }

    /// `id bucket 0.2371 in [0, 0.3)`.
    public var description: String { "\(attribute) bucket \(value) in [\(lower), \(upper))" }
}

/// A rule that was evaluated and did not match, and why.
public struct UnmatchedRule: Sendable, Hashable, CustomStringConvertible {
    /// Why a rule did not match.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// Its condition was false for the context.
        case conditionFailed
        /// The attribute it buckets on is missing from the context.
        case attributeMissing(String)
        /// The context's bucket fell outside the rollout's coverage or ranges.
        case outsideRollout(BucketPlacement)
        /// The context is outside the rule's namespace.
        case outsideNamespace
        /// A prerequisite (parent feature or dependency) did not hold; its key.
        case prerequisiteFailed(String)
        /// A problem stopped it (see ``TargetingDecision/problems``).
        case problem
        /// A dialect's own reason, in words.
        case other(String)

        /// A few words: `condition failed`, `id missing`, …
        public var description: String {
            switch self {
            case .conditionFailed: "condition failed"
            case .attributeMissing(let name): "\(name) missing"
            case .outsideRollout(let bucket): "outside rollout: \(bucket)"
            case .outsideNamespace: "outside namespace"
            case .prerequisiteFailed(let key): "prerequisite \(key) failed"
            case .problem: "skipped: rule problem"
            case .other(let reason): reason
            }
        }
    }

    /// The rule's id.
    public var ruleID: String
    /// Why it did not match.
    public var reason: Reason

    /// Creates an unmatched rule.
    public init(ruleID: String, reason: Reason) {
        self.ruleID = ruleID
        self.reason = reason
    }

    /// `"vip" (condition failed)`.
    public var description: String { "\"\(ruleID)\" (\(reason))" }
}
