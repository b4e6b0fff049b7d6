import Foundation

/// One decoded payload: values by key, targeting rules by key, plus its metadata. Immutable.
///
/// A key with rules serves what its rules decide for the client's context, else its plain value.
/// A key with rule problems has its remote value rejected alone (see ``RuleProblem``).
public struct ConfigSnapshot: Sendable, Hashable {
    /// The values by key name, as decoded by a ``PayloadFormat`` (for a key with rules: its default).
    public var values: [String: ConfigValue]
    /// When, from where, and which version.
    public var metadata: SnapshotMetadata
    /// Targeting rules by key name; keys without rules are absent.
    public var rules: [String: any TargetingRules]
    /// Problems that rejected a key's rules, by key name; keys without problems are absent.
    public var ruleProblems: [String: [RuleProblem]]

    /// Creates a snapshot.
    public init(
        values: [String: ConfigValue], metadata: SnapshotMetadata, rules: [String: any TargetingRules] = [:],
        ruleProblems: [String: [RuleProblem]] = [:]
    ) {
        self.values = values
        self.metadata = metadata
        self.rules = rules
        self.ruleProblems = ruleProblems
    }

    /// Equal values, metadata (whose content hash names the payload's bytes), rule problems, and keys with rules.
    public static func == (lhs: ConfigSnapshot, rhs: ConfigSnapshot) -> Bool {
        lhs.values == rhs.values && lhs.metadata == rhs.metadata && lhs.ruleProblems == rhs.ruleProblems
            && Set(lhs.rules.keys) == Set(rhs.rules.keys)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
        hasher.combine(metadata)
        hasher.combine(ruleProblems)
        hasher.combine(Set(rules.keys))
    }

    /// The value for `key`, if the payload has it.
    public subscript(key: String) -> ConfigValue? { values[key] }
}
