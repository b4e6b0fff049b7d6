import ConfigDomain
import Foundation

/// One ConfigCat setting as a key's ``TargetingRules``, evaluated as ConfigCat's SDKs evaluate it.
///
/// The decision names what decided as config JSON locates it: `r[1]` for the second targeting rule
/// (`TARGETING_MATCH`), `r[1].p[0]` for the first percentage option of that rule and `p[2]` for the
/// third of the setting's own (`SPLIT`, with the user's bucket, 0 … 99, and the option's range); the
/// variant is the variation ID served. When nothing decides, the setting's own value is served:
/// `STATIC` for a setting without targeting rules and percentage options, `DEFAULT` otherwise, its
/// variation ID as the default variant. A failure of the config model serves nothing: `ERROR` with
/// `PARSE_ERROR` and ConfigCat's message.
struct ConfigCatSettingRules: TargetingRules {
    let key: String
    let config: ConfigCatConfig

    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        guard let setting = config.settings[key] else {
            return .failure(.flagNotFound, "the config has no setting \"\(key)\"")
        }
        var evaluator = SettingEvaluator(config: config, context: context, key: key, explaining: explaining)
        let selection: SettingEvaluator.Selection
        let value: ConfigValue
        do throws(ConfigModelError) {
            (selection, value) = try evaluator.evaluateRoot(setting)
        } catch {
            return .failure(.parseError, error.message, attributesRead: evaluator.attributesRead)
        }
        let variant = selection.served.variationID
        let match: TargetingMatch
        switch (selection.rule, selection.option) {
        case (let rule?, nil):
            match = TargetingMatch(ruleID: "r[\(rule)]", kind: .rule, variant: variant)
        case (let rule, let option?):
            let ruleID = rule.map { "r[\($0)].p[\(option)]" } ?? "p[\(option)]"
            match = TargetingMatch(ruleID: ruleID, kind: .rollout, bucket: selection.bucket, variant: variant)
        case (nil, nil):
            return TargetingDecision(
                value: value, attributesRead: evaluator.attributesRead, unmatched: evaluator.unmatched,
                problems: evaluator.problems,
                reason: setting.isSimple ? .staticValue : nil, defaultVariant: variant)
        }
        return TargetingDecision(
            value: value, match: match, attributesRead: evaluator.attributesRead, unmatched: evaluator.unmatched,
            problems: evaluator.problems)
    }

    /// What would fail an evaluation that reaches it, found without evaluating (see ``ConfigCatLint``).
    func lint() -> [RuleProblem] {
        guard let setting = config.settings[key] else { return [] }
        return ConfigCatLint(key: key, setting: setting, config: config).problems()
    }
}
