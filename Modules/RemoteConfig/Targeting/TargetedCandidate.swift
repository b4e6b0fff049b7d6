import ConfigDomain
import Foundation

/// A key's candidate value in a snapshot for one context: what its rules decided, or its plain value.
///
/// The resolver asks for it once per key at activation and on each context change; reads never do.
struct TargetedCandidate {
    /// The value to convert and check, or nil when the snapshot offers none for this context.
    var raw: ConfigValue?
    /// What the key's rules decided, when it has rules.
    var decision: TargetingDecision?
    /// The key's rule problems and evaluation problems, as rejections.
    var rejections: [Rejection]
    /// Whether rule problems rejected the key's rules (its remote value is then refused, like a bad value).
    var isBlocked: Bool

    /// The candidate for the key `name` in `snapshot` under `context`.
    init(name: String, snapshot: ConfigSnapshot, context: EvaluationContext) {
        if !snapshot.ruleProblems.isEmpty, let problems = snapshot.ruleProblems[name], !problems.isEmpty {
            raw = nil
            decision = nil
            let origin = "snapshot \(snapshot.metadata.source)"
            rejections = problems.map { Self.rejection($0, origin: origin) }
            isBlocked = true
            return
        }
        isBlocked = false
        guard !snapshot.rules.isEmpty, let rules = snapshot.rules[name] else {
            raw = snapshot.values[name]
            decision = nil
            rejections = []
            return
        }
        let decision = rules.evaluate(in: context)
        self.decision = decision
        raw = decision.value ?? snapshot.values[name]
        rejections = decision.problems.isEmpty ? [] : decision.problems.map { Self.rejection($0, origin: "evaluation context") }
    }

    /// A rule problem as a rejection of the key's targeting rules.
    static func rejection(_ problem: RuleProblem, origin: String) -> Rejection {
        Rejection(
            key: problem.key, value: problem.ruleID.map { "rule \"\($0)\"" } ?? "targeting rules",
            rule: "targeting", reason: (problem.path.map { "at \($0): " } ?? "") + problem.reason, origin: origin,
            targeting: problem)
    }
}
