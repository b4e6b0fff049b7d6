import ConfigDomain
import Foundation

extension DecodedPayload {
    /// Every key of the payload, sorted: those with values, with rules, and with rejected rules.
    public var keys: [String] {
        Set(values.keys).union(rules.keys).union(ruleProblems.keys).sorted()
    }

    /// What `key` serves `context`: the value its rules decide, else its plain value, with the
    /// variant, the reason and the rules' decision (its provenance included). No client is needed:
    ///
    /// ```swift
    /// let payload = try GrowthBookFormat().decode(bytes)
    /// let result = payload.evaluate("new-checkout", in: EvaluationContext(targetingKey: "u1", attributes: ["country": "DE"]))
    /// print(result.value, result.variant, result.reason)  // true, "1", SPLIT
    /// ```
    ///
    /// A key whose rules were rejected answers ``EvaluationReason/error`` with `PARSE_ERROR` and its
    /// problems as rejections; a key the payload lacks answers `FLAG_NOT_FOUND`. Rules that state their
    /// own reason (``TargetingDecision/reason``) answer it: `DISABLED` and `ERROR` (with the decision's
    /// error code) serve no value, so the app's default applies. A client serves the same values for
    /// the same context: this is the snapshot layer of its evaluation, before overrides and each key's
    /// conversion and rules.
    public func evaluate(_ key: String, in context: EvaluationContext = .empty) -> EvaluationDetails<ConfigValue?> {
        let layer = ValueLayer.snapshot(source: "payload")
        guard let entry = entry(key) else {
            return EvaluationDetails(
                key: key, value: nil, reason: .error, errorCode: .flagNotFound,
                errorMessage: "the payload has no key \"\(key)\"", layer: layer, context: context)
        }
        let answer = entry.answer(in: context, explaining: true)
        return EvaluationDetails(
            key: key, value: answer.value, variant: answer.variant, reason: answer.reason, errorCode: answer.errorCode,
            errorMessage: answer.errorMessage, flagMetadata: entry.metadata, layer: layer, decision: answer.decision,
            rejected: answer.problems.map { $0.rejection(origin: "payload") }, context: context)
    }

    /// What the payload holds for `key` (its plain value, rules, rule problems and metadata), looked up
    /// once; nil when it holds none of them.
    package func entry(_ key: String) -> PayloadEntry? {
        let problems = ruleProblems.isEmpty ? nil : ruleProblems[key]
        let keyRules = rules.isEmpty ? nil : rules[key]
        let plain = values[key]
        guard plain != nil || keyRules != nil || problems?.isEmpty == false else { return nil }
        return PayloadEntry(
            plain: plain, rules: keyRules, problems: problems ?? [],
            metadata: flagMetadata.isEmpty ? [:] : flagMetadata[key] ?? [:])
    }
}

/// What one payload holds for one key: the input of the snapshot layer of every evaluation.
package struct PayloadEntry: Sendable {
    /// The key's plain value (for a key with rules: the value served when no rule decides).
    package let plain: ConfigValue?
    /// The key's targeting rules, if it has any.
    package let rules: (any TargetingRules)?
    /// Problems that rejected the key's rules: the payload then serves the key nothing.
    package let problems: [RuleProblem]
    /// The flag's metadata in the payload.
    package let metadata: [String: ConfigValue]

    /// Whether the key's value may differ from one context to another.
    package var isTargeted: Bool { rules != nil || !problems.isEmpty }

    /// What the entry serves `context`; the rules are evaluated once, with their provenance when `explaining`.
    package func answer(in context: EvaluationContext, explaining: Bool) -> PayloadAnswer {
        if !problems.isEmpty { return PayloadAnswer(value: nil, decision: nil, problems: problems) }
        guard let rules else { return PayloadAnswer(value: plain, decision: nil, problems: []) }
        let decision = rules.evaluate(in: context, explaining: explaining)
        return PayloadAnswer(
            value: decision.servesNothing ? nil : decision.value ?? plain, decision: decision, problems: decision.problems)
    }
}

/// What one payload serves one key for one context, and why.
package struct PayloadAnswer: Sendable {
    /// The raw value served, or nil when the payload serves none (the layers below apply).
    package let value: ConfigValue?
    /// What the key's rules decided; nil for a key without rules, or whose rules were rejected.
    package let decision: TargetingDecision?
    /// The problems met: those that rejected the rules (``decision`` nil), or those met evaluating them.
    package let problems: [RuleProblem]

    /// Whether rule problems rejected the key's rules, so the payload serves it nothing.
    package var isBlocked: Bool { decision == nil && !problems.isEmpty }

    /// OpenFeature's reason.
    package var reason: EvaluationReason {
        if isBlocked { return .error }
        return decision?.effectiveReason ?? .staticValue
    }

    /// The variant served, when the rules name one.
    package var variant: String? { decision?.servedVariant }

    /// The error code, for reason `ERROR`.
    package var errorCode: EvaluationErrorCode? {
        if isBlocked {
            // A remote evaluator's own error code passes through; any other rejection of the rules is a parse error.
            if case .remoteEvaluation(let code, _) = problems[0].kind { return EvaluationErrorCode(openFeature: code) }
            return .parseError
        }
        guard decision?.reason == .error else { return nil }
        return decision?.errorCode ?? .general
    }

    /// The error in words, for reason `ERROR`.
    package var errorMessage: String? {
        guard errorCode != nil else { return nil }
        if isBlocked, case .remoteEvaluation(_, let details?) = problems[0].kind { return details }
        return decision?.errorMessage ?? problems.first?.description
    }
}

extension RuleProblem {
    /// The problem as a rejection of the key's targeting rules, from `origin`.
    package func rejection(origin: String) -> Rejection {
        Rejection(
            key: key, value: ruleID.map { "rule \"\($0)\"" } ?? "targeting rules", rule: "targeting",
            reason: (path.map { "at \($0): " } ?? "") + reason, origin: origin, targeting: self)
    }
}
