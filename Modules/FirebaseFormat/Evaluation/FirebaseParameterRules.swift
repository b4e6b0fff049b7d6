import ConfigDomain
import Foundation

/// One parameter with conditional values as a key's ``TargetingRules``: the template's conditions
/// that the parameter has a value for, in the template's order, then its default value.
struct FirebaseParameterRules: TargetingRules {
    /// A condition the parameter has a conditional value for, with that value.
    struct Candidate: Sendable {
        let condition: FirebaseCondition
        /// The value served when the condition is the first to match; nil for `useInAppDefault`.
        let value: ConfigValue?
        /// The condition's issues as problems of this parameter.
        let problems: [RuleProblem]
    }

    /// The parameter's name.
    let key: String
    /// The default value; nil when it is the app's own default (`useInAppDefault`, or no `defaultValue`).
    let defaultValue: ConfigValue?
    /// The conditions with a value for the parameter, in the template's order.
    let candidates: [Candidate]
    /// Conditional values for conditions the template does not define: never served.
    let orphans: [RuleProblem]

    /// What Firebase's server-side evaluation serves `context`:
    /// - the first condition (in the template's order) that matches and has a conditional value: that
    ///   value, reason `TARGETING_MATCH`, the condition's name as the rule; for `useInAppDefault`, no
    ///   value (the app's default), reason `DEFAULT`, the condition still named as the match;
    /// - none: the default value (none for the app's default), reason `DEFAULT`.
    ///
    /// A condition part that cannot be read never matches; its problem is in the decision's
    /// `problems` when the condition is evaluated, as is a context attribute of a type a condition
    /// cannot compare with.
    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        var evaluation = ConditionEvaluation(context: context, explaining: explaining)
        var unmatched: [UnmatchedRule] = []
        var problems: [RuleProblem] = []
        for candidate in candidates {
            problems += candidate.problems
            let seen = evaluation.typeProblems.count
            let matched = evaluation.matches(candidate.condition.root)
            let met = evaluation.typeProblems[seen...].map { problem in
                RuleProblem(
                    key: key, ruleID: candidate.condition.name,
                    kind: .attributeType(attribute: problem.attribute, expected: problem.expected, found: problem.found))
            }
            problems += met
            if matched {
                let match = TargetingMatch(ruleID: candidate.condition.name, kind: .rule)
                return TargetingDecision(
                    value: candidate.value, match: match, attributesRead: evaluation.attributesRead, unmatched: unmatched,
                    problems: problems, reason: candidate.value == nil ? .defaultValue : nil)
            }
            if explaining, unmatched.count < TargetingDecision.unmatchedLimit {
                let failed = candidate.problems.isEmpty && met.isEmpty
                unmatched.append(UnmatchedRule(ruleID: candidate.condition.name, reason: failed ? .conditionFailed : .problem))
            }
        }
        return TargetingDecision(
            value: defaultValue, attributesRead: evaluation.attributesRead, unmatched: unmatched, problems: problems)
    }

    /// The problems of the conditions the parameter refers to, its conditional values for conditions
    /// the template lacks, and the conditional values after a condition that is always `true`.
    func lint() -> [RuleProblem] {
        var found = orphans
        var shadowing: String?
        for candidate in candidates {
            found += candidate.problems
            if let shadowing {
                found.append(RuleProblem(key: key, ruleID: candidate.condition.name, kind: .unreachable(shadowedBy: shadowing)))
            } else if candidate.condition.isAlwaysTrue {
                shadowing = candidate.condition.name
            }
        }
        return found
    }
}
