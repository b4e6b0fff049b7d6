import Foundation

/// One key's targeting rules, as a payload format decoded them: given a context, the value they
/// serve (or none) and why.
///
/// A client evaluates them when it resolves a key for a context: at activation and on a context
/// change for its own context, and on a read for a context given with the call (a server's request)
/// or when details are asked for. When they serve no value, the key takes the payload's plain value
/// for it (the dialect's default), if any. Implementations are immutable values; a dialect whose
/// rules refer to other keys (prerequisites, dependent features) keeps what it needs of the whole
/// payload inside its rules.
public protocol TargetingRules: Sendable {
    /// The value these rules serve for `context`, the rule or rollout that decided, the reason they
    /// state and the problems met.
    ///
    /// With `explaining`, also record the provenance a person reads in details: the attributes read
    /// (``TargetingDecision/attributesRead``) and the first rules that did not match
    /// (``TargetingDecision/unmatched``). Without, leave those empty where that saves work: a
    /// client asks so on every evaluation that only needs the value.
    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision
    /// Problems that do not stop the rules from working but that a person should fix, such as an
    /// unreachable rule. The default has none.
    func lint() -> [RuleProblem]
}

extension TargetingRules {
    /// No warnings.
    public func lint() -> [RuleProblem] { [] }

    /// Removed: one entry point evaluates, with or without the provenance.
    @available(*, unavailable, renamed: "evaluate(in:explaining:)")
    public func evaluate(in context: EvaluationContext) -> TargetingDecision { evaluate(in: context, explaining: true) }

    /// Removed: one entry point evaluates, with or without the provenance.
    @available(*, unavailable, message: "call evaluate(in: context, explaining: false)")
    public func decide(in context: EvaluationContext) -> TargetingDecision { evaluate(in: context, explaining: false) }
}
