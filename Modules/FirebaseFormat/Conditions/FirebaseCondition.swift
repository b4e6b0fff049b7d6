import ConfigDomain
import Foundation
import Targeting

/// One of a template's named conditions, read for server-side evaluation: its name, its place in
/// `conditions`, its tree, and the parts of the tree that cannot be read.
struct FirebaseCondition: Sendable {
    /// One node of the tree, as Firebase's server templates write it (one member of `orCondition`,
    /// `andCondition`, `true`, `false`, `percent`, `customSignal`).
    indirect enum Node: Sendable {
        /// True when any of the nodes is (false when there are none).
        case or([Node])
        /// True when every node is (true when there are none).
        case and([Node])
        /// `true` or `false`.
        case constant(Bool)
        /// A percentage of randomization ids.
        case percent(PercentCondition)
        /// A comparison of one custom signal.
        case signal(SignalCondition)
        /// A part that cannot be read (see ``FirebaseCondition/issues``): it never matches, as
        /// Firebase's SDKs answer false for what they cannot evaluate.
        case unreadable
    }

    /// What is wrong with a part of the condition, and where.
    struct Issue: Sendable, Hashable {
        /// The path from the template's top level, for example `conditions[2].condition.percent.percentOperator`.
        let path: String
        /// What is wrong.
        let kind: RuleProblem.Kind
    }

    /// The condition's name, which parameters' `conditionalValues` refer to.
    let name: String
    /// The condition's index in the template's `conditions`.
    let index: Int
    /// The condition's tree.
    let root: Node
    /// The parts that cannot be read, in the order they appear.
    let issues: [Issue]

    /// Whether the condition matches every context: its tree is `true`.
    var isAlwaysTrue: Bool {
        if case .constant(true) = root { true } else { false }
    }

    /// The issues as problems of the parameter `key`'s rules, naming this condition.
    func problems(forKey key: String) -> [RuleProblem] {
        issues.map { RuleProblem(key: key, ruleID: name, path: $0.path, kind: $0.kind) }
    }
}

/// A `percent` condition: the randomization id's place among 100,000,000 micro-percents, after
/// hashing it (with the seed) with SHA-256, compared with a limit or a range.
struct PercentCondition: Sendable {
    /// The micro-percents that match.
    enum Range: Sendable {
        /// `LESS_OR_EQUAL`: from 0 through the limit.
        case atMost(Double)
        /// `GREATER_THAN`: above the limit.
        case above(Double)
        /// `BETWEEN`: above the lower bound, through the upper one.
        case between(lower: Double, upper: Double)
    }

    /// The seed hashed before the randomization id (`seed.id`); empty for none.
    let seed: String
    /// The micro-percents that match.
    let range: Range

    /// Whether the micro-percentile of `randomizationID` is in the range.
    func matches(randomizationID: String) -> Bool {
        let percentile = Double(Self.microPercentile(of: randomizationID, seed: seed))
        switch range {
        case .atMost(let limit): return percentile <= limit
        case .above(let limit): return percentile > limit
        case .between(let lower, let upper): return lower < percentile && percentile <= upper
        }
    }

    /// The SHA-256 digest of `seed.id` (of `id` without a seed), read as one big-endian 256-bit
    /// number, modulo 100,000,000.
    static func microPercentile(of randomizationID: String, seed: String) -> UInt64 {
        let hashed = seed.isEmpty ? randomizationID : seed + "." + randomizationID
        var remainder: UInt64 = 0
        // Horner's rule over the digest's bytes: the remainder stays below 10^8 · 256.
        for byte in SHA.sha256(hashed) { remainder = (remainder << 8 | UInt64(byte)) % 100_000_000 }
        return remainder
    }
}

/// A `customSignal` condition: the context's signal `key`, compared by one operator with the targets.
struct SignalCondition: Sendable {
    /// The comparison, with its targets read.
    enum Comparison: Sendable {
        /// `STRING_CONTAINS`: the text contains one of the targets.
        case contains([String])
        /// `STRING_DOES_NOT_CONTAIN`: the text contains none of the targets.
        case doesNotContain([String])
        /// `STRING_EXACTLY_MATCHES`: the text is one of the targets, both trimmed.
        case exactly([String])
        /// `STRING_CONTAINS_REGEX`: one of the patterns matches somewhere in the text.
        case regex([CompiledPattern])
        /// A `NUMERIC_…` operator: the signal as a number, against the first target.
        case numeric(Relation, Double)
        /// A `SEMANTIC_VERSION_…` operator: the signal as a version, against the first target.
        case version(Relation, SignalVersion)
    }

    /// The signal's name in the context.
    let key: String
    /// What the signal is compared with, and how.
    let comparison: Comparison
}

/// How a numeric or version comparison orders the signal against the target.
enum Relation: Sendable {
    case less, lessOrEqual, equal, notEqual, greater, greaterOrEqual

    /// Whether the relation holds for an ordering of the signal against the target (-1, 0 or 1).
    func holds(for order: Int) -> Bool {
        switch self {
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .equal: order == 0
        case .notEqual: order != 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        }
    }
}

/// A regular expression of a `STRING_CONTAINS_REGEX` target, compiled once.
struct CompiledPattern: Sendable {
    /// The pattern as written.
    let source: String
    /// The compiled expression (immutable, so safe to share between threads).
    let expression: NSRegularExpression

    /// Whether the pattern matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
