import ConfigDomain

/// One feature of an Unleash `/api/client/features` payload, parsed and checked.
struct UnleashFeature: Sendable {
    /// The feature's name: also the name of its Boolean key.
    let name: String
    /// The feature's `enabled` switch for this environment; when false no strategy is evaluated.
    let enabled: Bool
    /// The activation strategies, in payload order; any one enables the feature. None means enabled.
    let strategies: [UnleashStrategy]
    /// The feature's own (global) variants, used when the deciding strategy has none.
    let variants: [UnleashVariant]
    /// The parent features this feature depends on; every one must be satisfied.
    let dependencies: [UnleashDependency]
    /// Things that still work as Unleash specifies but that a person should fix (an unknown strategy, an ignored IP).
    let warnings: [RuleProblem]
}
