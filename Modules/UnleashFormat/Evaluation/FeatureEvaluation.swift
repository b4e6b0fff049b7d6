import ConfigDomain

/// What one feature gave for one context: enabled or not, the variant, and why.
struct FeatureEvaluation: Sendable {
    /// Whether the feature is enabled (Unleash's `isEnabled`).
    var enabled = false
    /// The strategy that enabled it, or nil.
    var enabledBy: TargetingMatch?
    /// The variant served (Unleash's `getVariant`), or nil for the `disabled` variant.
    var variant: UnleashVariant?
    /// How the variant was chosen: an override or a weighted bucket.
    var variantMatch: TargetingMatch?
    /// The strategies and checks that did not enable it, in order.
    var unmatched: [UnmatchedRule] = []
    /// Attributes of the wrong type met on the way; each skipped its strategy.
    var problems: [RuleProblem] = []
    /// The context fields read, in first-read order.
    var fieldsRead: [String] = []

    /// The name of the variant served: `disabled` when none.
    var variantName: String { variant?.name ?? UnleashFormat.disabledVariantName }
}
