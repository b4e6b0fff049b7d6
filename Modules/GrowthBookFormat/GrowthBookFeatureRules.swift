import ConfigDomain
import Foundation
import Targeting

/// One GrowthBook feature's rules as a key's ``TargetingRules``; it keeps the whole payload for prerequisites.
struct GrowthBookFeatureRules: TargetingRules {
    let id: String
    let payload: Shared

    /// The payload the features of one snapshot share (immutable).
    final class Shared: Sendable {
        let features: [String: GrowthBookFeature]
        let savedGroups: [String: [ConfigValue]]

        init(features: [String: GrowthBookFeature], savedGroups: [String: [ConfigValue]]) {
            self.features = features
            self.savedGroups = savedGroups
        }
    }

    /// GrowthBook's value for the context; `null` (unknown, blocked by a prerequisite, no default) serves nothing.
    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        var evaluator = GrowthBookEvaluator(features: payload.features, savedGroups: payload.savedGroups, context: context)
        let result = evaluator.evaluateFeature(id)
        let rules = payload.features[id]?.rules ?? []
        let unmatched = evaluator.skippedRules.prefix(TargetingDecision.unmatchedLimit).map { skipped in
            UnmatchedRule(ruleID: Self.ruleID(rules[skipped.index], at: skipped.index), reason: skipped.reason)
        }
        let decided = result.ruleIndex ?? rules.count - 1
        var read: [String] = []
        for rule in rules.prefix(decided + 1) {
            let names = (rule.condition?.attributes ?? []) + (usesHash(rule) ? [rule.hashAttribute ?? "id"] : [])
            for name in names where !read.contains(name) { read.append(name) }
        }
        let value: ConfigValue? = result.value.isNull ? .none : .some(result.value)
        guard let index = result.ruleIndex else {
            return TargetingDecision(value: value, attributesRead: read, unmatched: unmatched)
        }
        let rule = rules[index]
        var match = TargetingMatch(ruleID: Self.ruleID(rule, at: index), kind: usesHash(rule) ? .rollout : .rule)
        if let outcome = result.experimentResult, let bucket = outcome.bucket {
            let ranges =
                rule.ranges
                ?? Bucketing.ranges(count: rule.variations?.count ?? 0, coverage: rule.coverage ?? 1, weights: rule.weights)
            let range = outcome.variationID < ranges.count ? ranges[outcome.variationID] : BucketRange(lower: 0, upper: 0)
            match.bucket = BucketPlacement(
                attribute: outcome.hashAttribute, value: bucket, lower: range.lower, upper: range.upper)
            match.variant = outcome.key
        } else if usesHash(rule), let placement = forcePlacement(rule, context: context) {
            match.bucket = placement
        }
        return TargetingDecision(value: value, match: match, attributesRead: read, unmatched: unmatched)
    }

    /// Where a context landed in a force rule's rollout.
    private func forcePlacement(_ rule: GrowthBookRule, context: EvaluationContext) -> BucketPlacement? {
        let attribute = GrowthBookEvaluator.nonEmpty(rule.hashAttribute) ?? "id"
        let value =
            attribute == "id"
            ? (context.attributes["id"] ?? context.targetingKey.map(ConfigValue.string)) : context.attributes[attribute]
        guard let text = Bucketing.hashText(of: value),
            let bucket = Bucketing.hash(
                seed: GrowthBookEvaluator.nonEmpty(rule.seed) ?? id, value: text,
                version: GrowthBookEvaluator.version(rule.hashVersion, else: 1))
        else { return nil }
        let range = rule.range ?? BucketRange(lower: 0, upper: rule.coverage ?? 1)
        return BucketPlacement(attribute: attribute, value: bucket, lower: range.lower, upper: range.upper)
    }

    private func usesHash(_ rule: GrowthBookRule) -> Bool {
        rule.variations != nil || rule.coverage != nil || rule.range != nil
    }

    private static func ruleID(_ rule: GrowthBookRule, at index: Int) -> String {
        rule.id.flatMap { $0.isEmpty ? nil : $0 } ?? "rules[\(index)]"
    }
}
