import ConfigDomain
import Foundation
import Targeting

/// One key's rules in the native dialect: ordered rules, then rollouts; the default is the payload's plain value.
///
/// Evaluation runs for every key on each context change, so what a decision reports in the common
/// case (the attributes the conditions read, rules whose condition failed) is prepared once here,
/// and the type is a class so that handing it around copies one reference.
final class TargetedKey: TargetingRules {
    let key: String
    let rules: [TargetedRule]
    let rollouts: [TargetedRollout]
    /// The payload's saved groups, for `$inGroup` and `$notInGroup`.
    let groups: [String: [ConfigValue]]
    /// By step (rules, then rollouts): the attributes the conditions of steps 0 through it read, in order.
    private let conditionAttributes: [[String]]
    /// By count of steps passed over: those first steps (at most ``TargetingDecision/unmatchedLimit``) as failed conditions.
    private let failedConditions: [[UnmatchedRule]]

    init(key: String, rules: [TargetedRule], rollouts: [TargetedRollout], groups: [String: [ConfigValue]]) {
        self.key = key
        self.rules = rules
        self.rollouts = rollouts
        self.groups = groups
        let steps = rules.map { ($0.id, $0.condition) } + rollouts.map { ($0.id, $0.condition) }
        var read: [String] = []
        var attributes: [[String]] = []
        for (_, condition) in steps {
            for name in condition.attributes where !read.contains(name) { read.append(name) }
            attributes.append(read)
        }
        conditionAttributes = attributes
        let limit = min(steps.count, TargetingDecision.unmatchedLimit)
        failedConditions = (0...limit).map { count in
            steps.prefix(count).map { UnmatchedRule(ruleID: $0.0, reason: .conditionFailed) }
        }
    }

    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision { walk(context, explaining: explaining) }

    /// Evaluates the steps in order; the decision lists what was read and passed over only when `explaining`
    /// (the rule or rollout that decided, and its bucket, always).
    private func walk(_ context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        var trace = Trace(failedConditions: failedConditions)
        for rule in rules {
            guard trace.holds(rule.condition, unconditional: rule.isUnconditional, ruleID: rule.id, key: key, context, groups)
            else { continue }
            let match = TargetingMatch(ruleID: rule.id, kind: .rule)
            guard explaining else { return TargetingDecision(value: rule.value, match: match, problems: trace.problems) }
            return decision(rule.value, match, trace)
        }
        for rollout in rollouts {
            guard
                trace.holds(
                    rollout.condition, unconditional: rollout.isUnconditional, ruleID: rollout.id, key: key, context, groups)
            else { continue }
            trace.readBucketAttribute(rollout.bucketBy)
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
            let variant = rollout.variants[index]
            let range = rollout.ranges[index]
            let placement = BucketPlacement(attribute: rollout.bucketBy, value: bucket, lower: range.lower, upper: range.upper)
            let match = TargetingMatch(ruleID: rollout.id, kind: .rollout, bucket: placement, variant: variant.name)
            guard explaining else { return TargetingDecision(value: variant.value, match: match, problems: trace.problems) }
            return decision(variant.value, match, trace)
        }
        guard explaining else { return TargetingDecision(value: nil, problems: trace.problems) }
        return decision(nil, nil, trace)
    }

    /// The decision after `trace`: the prepared lists in the common case, built ones otherwise.
    private func decision(_ value: ConfigValue?, _ match: TargetingMatch?, _ trace: Trace) -> TargetingDecision {
        var read = trace.steps > 0 ? conditionAttributes[trace.steps - 1] : []
        for name in trace.bucketAttributes where !read.contains(name) { read.append(name) }
        let unmatched = trace.unmatched ?? failedConditions[min(trace.misses, TargetingDecision.unmatchedLimit)]
        return TargetingDecision(value: value, match: match, attributesRead: read, unmatched: unmatched, problems: trace.problems)
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
            } else if rule.isUnconditional {
                catchAll = rule.id
            }
            if seen[rule.condition] == nil { seen[rule.condition] = rule.id }
        }
        for (index, rollout) in rollouts.enumerated() {
            let path = "targeting.\(key).rollouts[\(index)]"
            if let earlier = catchAll {
                problems.append(RuleProblem(key: key, ruleID: rollout.id, path: path, kind: .unreachable(shadowedBy: earlier)))
            } else if rollout.isUnconditional, rollout.bucketBy == EvaluationContext.targetingKeyAttribute, rollout.coversEveryone
            {
                catchAll = rollout.id
            }
        }
        return problems
    }
}

/// What one evaluation passed over on the way to its decision.
private struct Trace {
    /// The key's steps as failed conditions, by count (``TargetedKey``'s prepared lists).
    let failedConditions: [[UnmatchedRule]]
    /// How many steps (rules, then rollouts) were evaluated, the deciding one included.
    private(set) var steps = 0
    /// How many steps did not match (always the first ones: every evaluated step either decides or does not match).
    private(set) var misses = 0
    /// The unmatched steps, once one did not match for another reason than a failed condition.
    private(set) var unmatched: [UnmatchedRule]?
    /// The attributes rollouts bucketed on.
    private(set) var bucketAttributes: [String] = []
    private(set) var problems: [RuleProblem] = []

    init(failedConditions: [[UnmatchedRule]]) { self.failedConditions = failedConditions }

    mutating func readBucketAttribute(_ name: String) {
        if !bucketAttributes.contains(name) { bucketAttributes.append(name) }
    }

    mutating func miss(_ ruleID: String, _ reason: UnmatchedRule.Reason) {
        misses += 1
        guard misses <= TargetingDecision.unmatchedLimit, reason != .conditionFailed || unmatched != nil else { return }
        var list = unmatched ?? failedConditions[misses - 1]
        list.append(UnmatchedRule(ruleID: ruleID, reason: reason))
        unmatched = list
    }

    /// Whether `condition` holds; an attribute of the wrong type records a problem and skips the rule.
    mutating func holds(
        _ condition: Condition, unconditional: Bool, ruleID: String, key: String, _ context: EvaluationContext,
        _ groups: [String: [ConfigValue]]
    ) -> Bool {
        steps += 1
        if unconditional { return true }
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
}
