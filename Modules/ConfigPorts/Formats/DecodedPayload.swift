import ConfigDomain
import Foundation

/// What a ``PayloadFormat`` read from one payload: values, targeting rules and rule problems, by key.
///
/// For a key with rules, `values` holds its default: the value served when no rule decides (absent
/// when the dialect has none). A key with problems is rejected alone: leave it out of `rules`, and
/// the client reports its problems and keeps its last good value.
///
/// Immutable and shared: a client's states hold the payload they were resolved from by reference,
/// so each raw value is kept once, here.
public final class DecodedPayload: Sendable {
    /// Values by key (for keys with rules: the default).
    public let values: [String: ConfigValue]
    /// Targeting rules by key.
    public let rules: [String: any TargetingRules]
    /// Problems that rejected a key's rules, by key.
    public let ruleProblems: [String: [RuleProblem]]
    /// Metadata the payload states for each key (flagd's flag metadata, over its flag set's), by key; empty when the dialect has none.
    public let flagMetadata: [String: [String: ConfigValue]]

    /// Creates a decoded payload.
    public init(
        values: [String: ConfigValue], rules: [String: any TargetingRules] = [:], ruleProblems: [String: [RuleProblem]] = [:],
        flagMetadata: [String: [String: ConfigValue]] = [:]
    ) {
        self.values = values
        self.rules = rules
        self.ruleProblems = ruleProblems
        self.flagMetadata = flagMetadata
    }
}
