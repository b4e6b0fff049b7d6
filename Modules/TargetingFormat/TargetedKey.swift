import ConfigDomain
import Foundation

/// One key's rules in the native dialect: ordered rules, then rollouts; the default is the payload's plain value.
struct TargetedKey: TargetingRules {
    let key: String
    let rules: [TargetedRule]
    let rollouts: [TargetedRollout]
    /// The payload's saved groups, for `$inGroup` and `$notInGroup`.
    let groups: [String: [ConfigValue]]

    func evaluate(in context: EvaluationContext) -> TargetingDecision {
        var trace = Trace()
        for rule in rules {
            trace.read(rule.condition.attributes)
            guard trace.holds(rule.condition, ruleID: rule.id, key: key, in: context, groups: groups) else { continue }
            return trace.decision(value: rule.value, match: TargetingMatch(ruleID: rule.id, kind: .rule))
        }
        for rollout in rollouts {
            trace.read(rollout.condition.attributes)
            guard trace.holds(rollout.condition, ruleID: rollout.id, key: key, in: context, groups: groups) else { continue }
            trace.read([rollout.bucketBy])
            guard let id = Bucketing.hashText(of: context.value(at: rollout.bucketBy)),
                let bucket = Bucketing.hash(seed: rollout.seed, value: id, version: 2)
            else {
                trace.miss(rollout.id, .attributeMissing(rollout.bucketBy))
                continue
            }
            guard let index = Bucketing.variation(for: bucket, in: rollout.ranges) else {
                let covered = BucketPlacement(
                    attribute: rollout.bucketBy, value: bucket, lower: rollout.ranges.first?.lower ?? 0,
                    upper: rollout.ranges.last?.upper ?? 0)
                trace.miss(rollout.id, .outsideRollout(covered))
                continue
            }
            let range = rollout.ranges[index]
            let placement = BucketPlacement(attribute: rollout.bucketBy, value: bucket, lower: range.lower, upper: range.upper)
            let variant = rollout.variants[index]
            return trace.decision(
                value: variant.value,
                match: TargetingMatch(ruleID: rollout.id, kind: .rollout, bucket: placement, variant: variant.name))
        }
        return trace.decision(value: nil, match: nil)
    }

    /// Rules that can never decide: after a rule without condition, or with the same condition as an earlier rule.
    func lint() -> [RuleProblem] {
        var problems: [RuleProblem] = []
        var seen: [Condition: String] = [:]
        var catchAll: String?
        for (index, rule) in rules.enumerated() {
            let path = "targeting.\(key).rules[\(index)]"
            if let earlier = catchAll ?? seen[rule.condition] {
                problems.append(RuleProblem(key: key, ruleID: rule.id, path: path, kind: .unreachable(shadowedBy: earlier)))
            } else if rule.condition == .always {
                catchAll = rule.id
            }
            if seen[rule.condition] == nil { seen[rule.condition] = rule.id }
        }
        for (index, rollout) in rollouts.enumerated() {
            let path = "targeting.\(key).rollouts[\(index)]"
            if let earlier = catchAll {
                problems.append(RuleProblem(key: key, ruleID: rollout.id, path: path, kind: .unreachable(shadowedBy: earlier)))
            } else if rollout.condition == .always, rollout.bucketBy == EvaluationContext.targetingKeyAttribute,
                abs((rollout.ranges.last?.upper ?? 0) - 1) < 1e-9,
                zip(rollout.ranges, rollout.ranges.dropFirst()).allSatisfy({ abs($0.upper - $1.lower) < 1e-9 })
            {
                catchAll = rollout.id
            }
        }
        return problems
    }
}

/// What an evaluation read and passed over on the way to its decision.
private struct Trace {
    private(set) var attributes: [String] = []
    private(set) var unmatched: [UnmatchedRule] = []
    private(set) var problems: [RuleProblem] = []

    mutating func read(_ names: [String]) {
        for name in names where !attributes.contains(name) { attributes.append(name) }
    }

    mutating func miss(_ ruleID: String, _ reason: UnmatchedRule.Reason) {
        if unmatched.count < TargetingDecision.unmatchedLimit { unmatched.append(UnmatchedRule(ruleID: ruleID, reason: reason)) }
    }

    /// Whether `condition` holds; an attribute of the wrong type records a problem and skips the rule.
    mutating func holds(
        _ condition: Condition, ruleID: String, key: String, in context: EvaluationContext, groups: [String: [ConfigValue]]
    ) -> Bool {
        if condition.attributes.isEmpty, condition.groups.isEmpty, condition == .always { return true }
        let result = condition.evaluate(context, savedGroups: groups)
        if !result.mismatches.isEmpty {
            for mismatch in result.mismatches {
                problems.append(
                    RuleProblem(
                        key: key, ruleID: ruleID,
                        kind: .attributeType(attribute: mismatch.attribute, expected: mismatch.expected, found: mismatch.found)))
            }
            miss(ruleID, .problem)
            return false
        }
        if !result.matches { miss(ruleID, .conditionFailed) }
        return result.matches
    }

    func decision(value: ConfigValue?, match: TargetingMatch?) -> TargetingDecision {
        TargetingDecision(value: value, match: match, attributesRead: attributes, unmatched: unmatched, problems: problems)
    }
}
