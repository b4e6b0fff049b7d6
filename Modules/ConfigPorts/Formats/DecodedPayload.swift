import ConfigDomain
import Foundation

/// What a ``PayloadFormat`` read from one payload: values, targeting rules and rule problems, by key.
///
/// For a key with rules, `values` holds its default: the value served when no rule decides (absent
/// when the dialect has none). A key with problems is rejected alone: leave it out of `rules`, and
/// the client reports its problems and keeps its last good value.
public struct DecodedPayload: Sendable {
    /// Values by key (for keys with rules: the default).
    public var values: [String: ConfigValue]
    /// Targeting rules by key.
    public var rules: [String: any TargetingRules]
    /// Problems that rejected a key's rules, by key.
    public var ruleProblems: [String: [RuleProblem]]

    /// Creates a decoded payload.
    public init(
        values: [String: ConfigValue], rules: [String: any TargetingRules] = [:], ruleProblems: [String: [RuleProblem]] = [:]
    ) {
        self.values = values
        self.rules = rules
        self.ruleProblems = ruleProblems
    }

    /// A snapshot of these values and rules with `metadata`.
    public func snapshot(_ metadata: SnapshotMetadata) -> ConfigSnapshot {
        ConfigSnapshot(values: values, metadata: metadata, rules: rules, ruleProblems: ruleProblems)
    }
}
