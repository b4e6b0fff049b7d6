import ConfigDomain
import Foundation

extension DecodedPayload {
    /// Every key of the payload, sorted: those with values, with rules, and with rejected rules.
    public var keys: [String] {
        Set(values.keys).union(rules.keys).union(ruleProblems.keys).sorted()
    }

    /// What `key` serves `context`: the value its rules decide, else its plain value, with the
    /// variant and the reason. No client is needed:
    ///
    /// ```swift
    /// let payload = try GrowthBookFormat().decodePayload(bytes)
    /// let result = payload.evaluate("new-checkout", in: EvaluationContext(targetingKey: "u1", attributes: ["country": "DE"]))
    /// print(result.value, result.variant, result.reason)  // true, "1", SPLIT
    /// ```
    ///
    /// A key whose rules were rejected answers ``Evaluation/Reason/error`` with `PARSE_ERROR` and its
    /// problems; a key the payload lacks answers `FLAG_NOT_FOUND`. Rules that state their own reason
    /// (``TargetingDecision/reason``) answer it: `DISABLED` and `ERROR` (with the decision's error
    /// code) serve no value, so the app's default applies. A client serves the same values
    /// for its own context (before overrides and each key's conversion and rules).
    public func evaluate(_ key: String, in context: EvaluationContext = .empty) -> Evaluation {
        if let problems = ruleProblems[key], !problems.isEmpty {
            return Evaluation(key: key, value: nil, reason: .error, errorCode: .parseError, problems: problems)
        }
        guard let rules = rules[key] else {
            guard let value = values[key] else {
                return Evaluation(key: key, value: nil, reason: .error, errorCode: .flagNotFound)
            }
            return Evaluation(key: key, value: value, reason: .staticValue)
        }
        let decision = rules.evaluate(in: context)
        if let stated = decision.reason {
            let servesNothing = decision.servesNothing
            return Evaluation(
                key: key, value: servesNothing ? nil : decision.value ?? values[key],
                variant: servesNothing ? nil : decision.match?.variant ?? decision.defaultVariant, reason: stated,
                errorCode: stated == .error ? decision.errorCode ?? .general : nil, decision: decision,
                problems: decision.problems)
        }
        let reason: Evaluation.Reason =
            switch decision.match?.kind {
            case .rule?: .targetingMatch
            case .rollout?: .split
            case nil: .defaultValue
            }
        return Evaluation(
            key: key, value: decision.value ?? values[key], variant: decision.match?.variant ?? decision.defaultVariant,
            reason: reason, decision: decision, problems: decision.problems)
    }
}
