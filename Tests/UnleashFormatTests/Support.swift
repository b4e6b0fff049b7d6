import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import UnleashFormat

/// Decodes a payload written as a Swift string (tests only: failures are reported as issues).
func decode(_ json: String, format: UnleashFormat = UnleashFormat()) throws -> DecodedPayload {
    try format.decode(Data(json.utf8))
}

/// A payload of the given features (each a JSON object text) and segments.
func payload(_ features: [String], segments: String = "[]") -> String {
    "{\"version\": 2, \"features\": [\(features.joined(separator: ","))], \"segments\": \(segments)}"
}

/// A feature enabled with one strategy of `strategy` JSON text.
func feature(_ name: String, strategy: String, extra: String = "") -> String {
    "{\"name\": \"\(name)\", \"enabled\": true, \"strategies\": [\(strategy)]\(extra.isEmpty ? "" : ", " + extra)}"
}

/// The problem of an unknown constraint operator `name`, as this format reports it: with Unleash's operators.
func unknownOperator(_ name: String) -> RuleProblem.Kind { .unknownOperator(name, known: ConstraintOperator.names) }

/// A `default` strategy with one constraint of `constraint` JSON text.
func constrained(_ constraint: String) -> String {
    "{\"name\": \"default\", \"parameters\": {}, \"constraints\": [\(constraint)]}"
}

extension DecodedPayload {
    /// The decision of key `key` for `context`, or nil when the key has no rules.
    func decision(_ key: String, _ context: EvaluationContext = .empty) -> TargetingDecision? {
        rules[key]?.evaluate(in: context, explaining: true)
    }

    /// Unleash's `isEnabled`: the Boolean the feature's key serves (false when it has no rules).
    func isEnabled(_ feature: String, _ context: EvaluationContext = .empty) -> Bool {
        decision(feature, context)?.value == .bool(true)
    }

    /// The variant name the feature's `.variant` key serves (`disabled` when it has no rules).
    func variant(_ feature: String, _ context: EvaluationContext = .empty) -> String {
        decision(feature + ".variant", context)?.value?.stringValue ?? "disabled"
    }
}

/// A context with attributes only.
func context(_ attributes: [String: ConfigValue], key: String? = nil) -> EvaluationContext {
    EvaluationContext(targetingKey: key, attributes: attributes)
}
