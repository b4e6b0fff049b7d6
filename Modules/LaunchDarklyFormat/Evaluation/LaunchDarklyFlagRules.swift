import ConfigDomain
import Foundation

/// One LaunchDarkly flag as a key's ``TargetingRules``: evaluated for a context as LaunchDarkly's
/// evaluator does, its answer told in OpenFeature's words (the table in `FORMAT.md`, "Answers"), with
/// LaunchDarkly's own reason in the decision's metadata.
struct LaunchDarklyFlagRules: TargetingRules {
    let flag: LDFlag
    let data: LDDataSet

    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        let ldContext = LDContext(context)
        if let error = ldContext.error {
            // LaunchDarkly refuses an invalid context before it looks at the flag: USER_NOT_SPECIFIED.
            let reason = LDReason.error("USER_NOT_SPECIFIED")
            return TargetingDecision(
                value: nil, reason: .error, errorCode: ldContext.isMissingKey ? .targetingKeyMissing : .invalidContext,
                errorMessage: "the context is not a valid LaunchDarkly context: \(error)",
                metadata: explaining ? Self.metadata(reason, variation: nil) : [:])
        }
        var evaluation = LDEvaluation(data: data, context: ldContext, explaining: explaining)
        let detail = evaluation.evaluate(flag)
        return Self.decision(detail, evaluation: evaluation, explaining: explaining)
    }

    /// The decision that tells `detail` in OpenFeature's words.
    static func decision(_ detail: LDDetail, evaluation: LDEvaluation, explaining: Bool) -> TargetingDecision {
        let reason = detail.reason
        var decision = TargetingDecision(
            value: detail.value, attributesRead: evaluation.attributesRead, unmatched: evaluation.unmatched,
            metadata: explaining ? metadata(reason, variation: detail.variationIndex) : [:])
        let variant = detail.variationIndex.map { String($0) }
        switch reason.kind {
        case .error:
            decision.value = nil
            decision.reason = .error
            let kind = reason.errorKind ?? "EXCEPTION"
            decision.errorCode = kind == "MALFORMED_FLAG" ? .parseError : .general
            decision.errorMessage =
                "LaunchDarkly's evaluation failed with \(kind)" + (evaluation.failure.map { ": " + $0 } ?? "")
        case .off:
            decision.reason = .disabled
            decision.defaultVariant = variant
        case .prerequisiteFailed:
            decision.reason = .defaultValue
            decision.defaultVariant = variant
            if let key = reason.prerequisiteKey {
                decision.unmatched.insert(UnmatchedRule(ruleID: "prerequisites", reason: .prerequisiteFailed(key)), at: 0)
                if decision.unmatched.count > TargetingDecision.unmatchedLimit { decision.unmatched.removeLast() }
            }
        case .fallthrough:
            if let bucket = detail.bucket {
                decision.match = TargetingMatch(ruleID: "fallthrough", kind: .rollout, bucket: bucket, variant: variant)
            } else {
                decision.defaultVariant = variant
            }
        case .targetMatch:
            decision.match = TargetingMatch(ruleID: "targets", kind: .rule, variant: variant)
        case .ruleMatch:
            let ruleID = LDFlagRule.name(id: reason.ruleID, index: reason.ruleIndex ?? 0)
            decision.match = TargetingMatch(
                ruleID: ruleID, kind: detail.bucket == nil ? .rule : .rollout, bucket: detail.bucket, variant: variant)
        }
        return decision
    }

    /// LaunchDarkly's reason as metadata: `reasonKind`, and `variationIndex`, `ruleIndex`, `ruleId`,
    /// `prerequisiteKey`, `inExperiment`, `errorKind` and `bigSegmentsStatus` where they apply.
    static func metadata(_ reason: LDReason, variation: Int64?) -> [String: ConfigValue] {
        var metadata: [String: ConfigValue] = ["reasonKind": .string(reason.kind.rawValue)]
        if let variation { metadata["variationIndex"] = .int(variation) }
        if let index = reason.ruleIndex { metadata["ruleIndex"] = .int(Int64(index)) }
        if let id = reason.ruleID { metadata["ruleId"] = .string(id) }
        if let key = reason.prerequisiteKey { metadata["prerequisiteKey"] = .string(key) }
        if reason.inExperiment { metadata["inExperiment"] = .bool(true) }
        if let kind = reason.errorKind { metadata["errorKind"] = .string(kind) }
        if let status = reason.bigSegmentsStatus { metadata["bigSegmentsStatus"] = .string(status) }
        return metadata
    }

    /// Problems a person should fix, though the flag still evaluates as LaunchDarkly would: variations out of
    /// range, prerequisites and segments the payload lacks, operators LaunchDarkly does not know, patterns that
    /// do not compile.
    func lint() -> [RuleProblem] {
        var problems: [RuleProblem] = []
        let base = "flags.\(flag.key)"
        func add(_ path: String, _ kind: RuleProblem.Kind, rule: String? = nil) {
            problems.append(RuleProblem(key: flag.key, ruleID: rule, path: path, kind: kind))
        }
        func checkIndex(_ index: Int64?, _ path: String, rule: String? = nil) {
            guard let index, index < 0 || index >= Int64(flag.variations.count) else { return }
            add(path, .unparsable("variation \(index) is not one of the \(flag.variations.count) variations"), rule: rule)
        }
        func checkOutcome(_ outcome: LDVariationOrRollout, _ path: String, rule: String? = nil) {
            checkIndex(outcome.variation, "\(path).variation", rule: rule)
            guard outcome.variation == nil else { return }
            guard let rollout = outcome.rollout, !rollout.variations.isEmpty else {
                add(path, .unparsable("neither a variation nor a rollout with variations"), rule: rule)
                return
            }
            for (index, weighted) in rollout.variations.enumerated() {
                checkIndex(weighted.variation, "\(path).rollout.variations[\(index)].variation", rule: rule)
            }
            let sum = rollout.variations.reduce(0) { $0 + $1.weight }
            if sum != 100_000 { add("\(path).rollout", .weightsDoNotSum(Double(sum) / 100_000), rule: rule) }
        }
        func checkClauses(_ clauses: [LDClause], _ path: String, rule: String? = nil) {
            for (index, clause) in clauses.enumerated() {
                let clausePath = "\(path).clauses[\(index)]"
                switch clause.op {
                case .unknown(let name): add(clausePath + ".op", .unknownOperator(name, known: LDOperator.names), rule: rule)
                case .segmentMatch:
                    for case .string(let key) in clause.values where data.segments[ExactText(key)] == nil {
                        add(clausePath + ".values", .unknownGroup(key), rule: rule)
                    }
                case .matches:
                    for (value, prepared) in zip(clause.values, clause.prepared) {
                        if case .regex(nil) = prepared, case .string(let pattern) = value {
                            add(clausePath + ".values", .unparsable("the pattern /\(pattern)/ does not compile"), rule: rule)
                        }
                    }
                default:
                    if let error = clause.attribute.error { add(clausePath + ".attribute", .unparsable(error), rule: rule) }
                }
            }
        }
        checkIndex(flag.offVariation, "\(base).offVariation")
        if flag.on { checkOutcome(flag.fallthrough, "\(base).fallthrough") }
        for (index, prerequisite) in flag.prerequisites.enumerated() where data.flags[ExactText(prerequisite.key)] == nil {
            add(
                "\(base).prerequisites[\(index)]",
                .unparsable("the prerequisite flag \"\(prerequisite.key)\" is not in the payload"))
        }
        for (index, target) in (flag.targets + flag.contextTargets).enumerated() {
            checkIndex(target.variation, "\(base).targets[\(index)].variation")
        }
        for (index, rule) in flag.rules.enumerated() {
            let id = LDFlagRule.name(id: rule.id, index: index)
            checkOutcome(rule.outcome, "\(base).rules[\(index)]", rule: id)
            checkClauses(rule.clauses, "\(base).rules[\(index)]", rule: id)
        }
        return problems
    }
}
