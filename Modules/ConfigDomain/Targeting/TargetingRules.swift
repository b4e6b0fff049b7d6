import Foundation

/// One key's targeting rules, as a payload format decoded them: given a context, the value they
/// serve (or none) and why.
///
/// A client evaluates them at activation and on each context change, never on a read. When they
/// serve no value, the key takes the payload's plain value for it (the dialect's default), if any.
/// Implementations are immutable values; a dialect whose rules refer to other keys (prerequisites,
/// dependent features) keeps what it needs of the whole payload inside its rules.
public protocol TargetingRules: Sendable {
    /// The value these rules serve for `context`, with the rule that decided and the rules that did not.
    func evaluate(in context: EvaluationContext) -> TargetingDecision
    /// The value these rules serve for `context` and the problems met, without the provenance
    /// (`match`, `attributesRead` and `unmatched` may be empty): what a client asks for at each
    /// activation and context change, while `explain` asks ``evaluate(in:)``. The default evaluates.
    func decide(in context: EvaluationContext) -> TargetingDecision
    /// Problems that do not stop the rules from working but that a person should fix, such as an
    /// unreachable rule. The default has none.
    func lint() -> [RuleProblem]
}

extension TargetingRules {
    /// The full evaluation.
    public func decide(in context: EvaluationContext) -> TargetingDecision { evaluate(in: context) }

    /// No warnings.
    public func lint() -> [RuleProblem] { [] }
}
