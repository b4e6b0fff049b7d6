import ConfigDomain

/// The targeting rules of one key derived from an Unleash feature: the feature's Boolean, its
/// variant's name, or its variant's payload.
struct UnleashFeatureRules: TargetingRules {
    /// Which of the feature's answers the key serves.
    enum Output: Sendable {
        /// `isEnabled`, as a Boolean.
        case enabled
        /// `getVariant().name`, as a string (`disabled` when none).
        case variantName
        /// `getVariant().payload`, converted; no value (the key's default) when the variant has none.
        case payload
    }

    /// The key these rules decide.
    let key: String
    /// The feature evaluated.
    let feature: String
    /// What the key serves.
    let output: Output
    /// The payload's features.
    let evaluator: UnleashEvaluator
    /// Warnings about the feature (reported on its Boolean key only).
    let warnings: [RuleProblem]

    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        let result = evaluator.evaluate(feature, in: context, choosingVariant: output != .enabled)
        let value: ConfigValue?
        let match: TargetingMatch?
        switch output {
        case .enabled:
            value = .bool(result.enabled)
            match = result.enabledBy
        case .variantName:
            value = .string(result.variantName)
            match = result.variantMatch
        case .payload:
            value = result.variant?.payload
            match = result.variant?.payload == nil ? nil : result.variantMatch
        }
        var problems = result.problems
        for index in problems.indices where problems[index].key == feature { problems[index].key = key }
        return TargetingDecision(
            value: value, match: match, attributesRead: result.fieldsRead,
            unmatched: Array(result.unmatched.prefix(TargetingDecision.unmatchedLimit)), problems: problems)
    }

    func lint() -> [RuleProblem] { warnings }
}
