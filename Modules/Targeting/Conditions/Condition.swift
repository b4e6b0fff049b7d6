import ConfigDomain
import Foundation

/// A targeting condition in GrowthBook's MongoDB-style language, parsed once and evaluated many times.
///
/// ```swift
/// let condition = try Condition(["country": ["$in": ["DE", "AT"]], "app.version": ["$vgte": "2.1.0"]])
/// condition.matches(EvaluationContext(attributes: ["country": "DE", "app": ["version": "2.3.0"]]))  // true
/// ```
///
/// A condition is a JSON object. Each member is a logical operator (`$and`, `$or`, `$nor` with an
/// array of conditions, `$not` with a condition) or a dot path into the context's attributes with
/// what the attribute must be: a plain value (equal to it) or an object of operators
/// (``ConditionOperator``). A path steps into objects by member and into arrays by index or
/// `length` (`address.city`, `tags.0`, `tags.length`). Every member must hold. `{}` always holds.
/// Comparisons follow JavaScript's loose rules, as GrowthBook defines them: a missing attribute is
/// `null`, `"8"` is greater than `5`, strings are equal when their code points are.
///
/// A ``Strictness/strict`` condition refuses an unknown operator or a malformed operand with a
/// ``ConditionError``; a ``Strictness/lenient`` one (GrowthBook's SDK behaviour) evaluates them to false.
public struct Condition: Sendable, Hashable {
    /// How parsing treats unknown operators and malformed operands.
    public enum Strictness: Sendable, Hashable {
        /// Throw a ``ConditionError``.
        case strict
        /// Evaluate that part to false, as GrowthBook's SDKs do.
        case lenient
    }

    /// The condition `{}`, which always holds.
    public static let always = Condition(node: .and([]), attributes: [], groups: [])

    let node: ConditionNode
    /// The attribute paths the condition reads, in order of appearance, without repeats.
    public let attributes: [String]
    /// The saved groups `$inGroup` and `$notInGroup` name, without repeats.
    public let groups: [String]

    init(node: ConditionNode, attributes: [String], groups: [String]) {
        self.node = node
        self.attributes = attributes
        self.groups = groups
    }

    /// Parses a strict condition.
    /// - Throws: ``ConditionError`` naming the unknown operator or the malformed part, and where.
    public init(_ json: ConfigValue) throws(ConditionError) {
        var parser = ConditionParser(strict: true)
        let node = try parser.condition(json, path: "")
        self.init(node: node, attributes: parser.attributes, groups: parser.groups)
    }

    /// Parses a lenient condition: unknown operators and malformed operands evaluate to false.
    public static func lenient(_ json: ConfigValue) -> Condition {
        var parser = ConditionParser(strict: false)
        let node = (try? parser.condition(json, path: "")) ?? .never
        return Condition(node: node, attributes: parser.attributes, groups: parser.groups)
    }

    /// Whether the condition holds for `context`, with `savedGroups` (group id to its members) for `$inGroup`.
    public func matches(_ context: EvaluationContext, savedGroups: [String: [ConfigValue]] = [:]) -> Bool {
        evaluate(context, savedGroups: savedGroups).matches
    }

    /// Hashes the attributes and groups the condition reads, which equal conditions share.
    public func hash(into hasher: inout Hasher) {
        // The parsed tree is compared by `==` only: hashing it too would add a hash function per node type.
        hasher.combine(attributes)
        hasher.combine(groups)
    }

    /// Whether the condition holds, and the attributes that had a type its comparisons did not expect.
    public func evaluate(_ context: EvaluationContext, savedGroups: [String: [ConfigValue]] = [:]) -> ConditionResult {
        var evaluation = ConditionEvaluation()
        let matches = evaluation.holds(node, in: .context, context, savedGroups)
        return ConditionResult(matches: matches, mismatches: evaluation.mismatches)
    }
}

/// The outcome of evaluating a ``Condition``.
public struct ConditionResult: Sendable, Hashable {
    /// Whether the condition holds.
    public var matches: Bool
    /// Attributes compared with a value of another type (`"abc"` with `$gt: 5`): the comparison
    /// followed the loose rules, and a strict dialect reports these and skips its rule.
    public var mismatches: [AttributeMismatch]

    /// Creates a result.
    public init(matches: Bool, mismatches: [AttributeMismatch] = []) {
        self.matches = matches
        self.mismatches = mismatches
    }
}

/// An attribute whose type differs from what a comparison expected.
public struct AttributeMismatch: Sendable, Hashable {
    /// The attribute's path.
    public var attribute: String
    /// What the comparison expected, for example `number` or `version string`.
    public var expected: String
    /// What the attribute is.
    public var found: ConfigValue.Kind

    /// Creates a mismatch.
    public init(attribute: String, expected: String, found: ConfigValue.Kind) {
        self.attribute = attribute
        self.expected = expected
        self.found = found
    }
}
