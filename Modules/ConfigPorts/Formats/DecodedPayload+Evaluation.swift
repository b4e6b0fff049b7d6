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
    /// A key whose rules were rejected answers `EvaluationReason/error` with `PARSE_ERROR` and its
    /// problems as rejections; a key the payload lacks answers `FLAG_NOT_FOUND`. Rules that state their
    /// own reason (`TargetingDecision/reason`) answer it: `DISABLED` and `ERROR` (with the decision's
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
            errorMessage: answer.errorMessage, flagMetadata: answer.metadata(over: flagMetadata[key]), layer: layer,
            decision: answer.decision,
            rejected: answer.problems.map { $0.rejection(origin: "payload") }, context: context)
    }

    /// What the payload holds for `key` (its plain value, rules and rule problems), looked up once; nil
    /// when it holds none of them.
    package func entry(_ key: String) -> PayloadEntry? {
        let problems = ruleProblems.isEmpty ? nil : ruleProblems[key]
        let keyRules = rules.isEmpty ? nil : rules[key]
        let plain = values[key]
        guard plain != nil || keyRules != nil || problems?.isEmpty == false else { return nil }
        return PayloadEntry(plain: plain, rules: keyRules, problems: problems ?? [])
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

    /// Whether the key's value may differ from one context to another.
    package var isTargeted: Bool { rules != nil || !problems.isEmpty }

    /// What the entry serves `context`; the rules are evaluated once, with their provenance when `explaining`.
    package func answer(in context: EvaluationContext, explaining: Bool) -> PayloadAnswer {
        if !problems.isEmpty { return PayloadAnswer(blockedBy: problems) }
        guard let rules else { return PayloadAnswer(plain: plain) }
        return PayloadAnswer(rules.evaluate(in: context, explaining: explaining), plain: plain, keepingDecision: explaining)
    }
}

/// What one payload serves one key for one context, and why: the fields a read, a hook or an exposure
/// needs, and the rules' whole decision only when details asked for it (it is large to copy).
package struct PayloadAnswer: Sendable {
    /// The raw value served, or nil when the payload serves none (the layers below apply).
    package let value: ConfigValue?
    /// OpenFeature's reason.
    package let reason: EvaluationReason
    /// The variant served, when the rules name one.
    package let variant: String?
    /// The rule or rollout that decided, when one did.
    package let ruleID: String?
    /// The error code, for reason `ERROR`.
    package let errorCode: EvaluationErrorCode?
    /// The error in words, for reason `ERROR`.
    package let errorMessage: String?
    /// The problems met: those that rejected the rules (``isBlocked``), or those met evaluating them.
    package let problems: [RuleProblem]
    /// Whether rule problems rejected the key's rules, so the payload serves it nothing.
    package let isBlocked: Bool
    /// What the key's rules decided, with its provenance: kept only when the evaluation was explaining.
    package var decision: TargetingDecision? { kept?.decision }
    /// The decision behind one reference: it is large, and an answer is copied on every evaluation.
    private let kept: KeptDecision?

    /// The flag's metadata for details: what the evaluation stated (`TargetingDecision/metadata`) over what the
    /// payload states for the flag.
    package func metadata(over payload: [String: ConfigValue]?) -> [String: ConfigValue] {
        guard let stated = decision?.metadata, !stated.isEmpty else { return payload ?? [:] }
        return (payload ?? [:]).merging(stated) { _, evaluation in evaluation }
    }

    /// The answer of a key without rules: its plain value, `STATIC`.
    init(plain: ConfigValue?) {
        (value, reason, variant, ruleID, errorCode, errorMessage) = (plain, .staticValue, nil, nil, nil, nil)
        (problems, isBlocked, kept) = ([], false, nil)
    }

    /// The answer of a key whose rules `problems` rejected: nothing, `ERROR`, with a remote evaluator's
    /// own error code and words passed through, or `PARSE_ERROR` for any other rejection.
    init(blockedBy problems: [RuleProblem]) {
        (value, reason, variant, ruleID, kept) = (nil, .error, nil, nil, nil)
        (self.problems, isBlocked) = (problems, true)
        if case .remoteEvaluation(let code, let details) = problems[0].kind {
            (errorCode, errorMessage) = (EvaluationErrorCode(openFeature: code), details ?? problems[0].description)
        } else {
            (errorCode, errorMessage) = (.parseError, problems[0].description)
        }
    }

    /// The answer of rules that decided `decision`, over the key's `plain` value.
    init(_ decision: TargetingDecision, plain: ConfigValue?, keepingDecision: Bool) {
        value = decision.servesNothing ? nil : decision.value ?? plain
        reason = decision.effectiveReason
        variant = decision.servedVariant
        ruleID = decision.match?.ruleID
        if decision.reason == .error {
            errorCode = decision.errorCode ?? .general
            errorMessage = decision.errorMessage ?? decision.problems.first?.description
        } else {
            (errorCode, errorMessage) = (nil, nil)
        }
        problems = decision.problems
        isBlocked = false
        kept = keepingDecision ? KeptDecision(decision) : nil
    }
}

/// A ``TargetingDecision`` an answer keeps for details.
private final class KeptDecision: Sendable {
    let decision: TargetingDecision

    init(_ decision: TargetingDecision) { self.decision = decision }
}

extension RuleProblem {
    /// The problem as a rejection of the key's targeting rules, from `origin`.
    package func rejection(origin: String) -> Rejection {
        Rejection(
            key: key, value: ruleID.map { "rule \"\($0)\"" } ?? "targeting rules", rule: "targeting",
            reason: (path.map { "at \($0): " } ?? "") + reason, origin: origin, targeting: self)
    }
}
