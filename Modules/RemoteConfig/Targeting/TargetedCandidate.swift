import ConfigDomain
import ConfigPorts
import Foundation

/// A key's candidate value in a payload for one context: what its rules decided, or its plain value.
///
/// The resolver asks for it once per key at activation and on each context change; reads never do.
/// It keeps only the value and the problems: `explain` evaluates the rules again for their provenance.
struct TargetedCandidate {
    /// The value to convert and check, or nil when the payload offers none for this context.
    var raw: ConfigValue?
    /// The key's rule problems and evaluation problems, as rejections.
    var rejections: [Rejection]
    /// Whether rule problems rejected the key's rules (its remote value is then refused, like a bad value).
    var isBlocked: Bool

    /// The candidate for the key `name` in `payload` (named `origin` in rejections) under `context`.
    init(name: String, payload: DecodedPayload, origin: @autoclosure () -> String, context: EvaluationContext) {
        if !payload.ruleProblems.isEmpty, let problems = payload.ruleProblems[name], !problems.isEmpty {
            raw = nil
            let origin = origin()
            rejections = problems.map { Self.rejection($0, origin: origin) }
            isBlocked = true
            return
        }
        isBlocked = false
        guard !payload.rules.isEmpty, let rules = payload.rules[name] else {
            raw = payload.values[name]
            rejections = []
            return
        }
        let decision = rules.decide(in: context)
        raw = decision.servesNothing ? nil : decision.value ?? payload.values[name]
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
