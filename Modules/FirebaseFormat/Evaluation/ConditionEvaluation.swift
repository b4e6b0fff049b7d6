import ConfigDomain
import Foundation
import Targeting

/// One evaluation of conditions for one context, as Firebase's server-side templates evaluate them:
/// the randomization id and the custom signals come from the ``EvaluationContext``
/// (`FORMAT.md`, "The evaluation context"), and the attributes read are recorded when explaining.
struct ConditionEvaluation {
    /// An attribute whose type a condition cannot compare with, met while evaluating.
    struct TypeProblem {
        let attribute: String
        let expected: String
        let found: ConfigValue.Kind
    }

    let context: EvaluationContext
    let explaining: Bool
    /// The attributes read, without repeats, when explaining.
    private(set) var attributesRead: [String] = []
    /// The attributes of a type the conditions cannot compare with, met so far.
    private(set) var typeProblems: [TypeProblem] = []

    init(context: EvaluationContext, explaining: Bool) {
        self.context = context
        self.explaining = explaining
    }

    /// Whether `node` matches the context.
    mutating func matches(_ node: FirebaseCondition.Node) -> Bool {
        switch node {
        case .or(let nodes):
            for child in nodes where matches(child) { return true }
            return false
        case .and(let nodes):
            for child in nodes where !matches(child) { return false }
            return true
        case .constant(let value):
            return value
        case .percent(let percent):
            guard let id = randomizationID() else { return false }
            return percent.matches(randomizationID: id)
        case .signal(let signal):
            return matches(signal)
        case .unreadable:
            return false
        }
    }

    /// The randomization id: the attribute `randomizationId` when the context has one (a string), else
    /// the targeting key; nil when it is missing or empty, and then no percent condition matches.
    private mutating func randomizationID() -> String? {
        let attribute = FirebaseTemplateFormat.randomizationIdAttribute
        switch context.attributes[attribute] {
        case .string(let id)?:
            note(attribute)
            return id.isEmpty ? nil : id
        case nil, .null?:
            note(EvaluationContext.targetingKeyAttribute)
            guard let key = context.targetingKey, !key.isEmpty else { return nil }
            return key
        case let other?:
            note(attribute)
            typeProblems.append(TypeProblem(attribute: attribute, expected: "string", found: other.kind))
            return nil
        }
    }

    /// Whether the custom signal condition matches: a signal the context lacks (or `null`) matches
    /// no operator, `STRING_DOES_NOT_CONTAIN` included.
    private mutating func matches(_ signal: SignalCondition) -> Bool {
        note(signal.key)
        var value = context.attribute(named: signal.key)
        if value == nil, signal.key == FirebaseTemplateFormat.randomizationIdAttribute {
            value = context.targetingKey.map(ConfigValue.string)
        }
        let text: String
        let number: Double?
        switch value {
        case nil, .null?: return false
        case .string(let string)?: (text, number) = (string, nil)
        case .int(let integer)?: (text, number) = (JavaScriptText.text(of: integer), Double(integer))
        case .double(let double)?: (text, number) = (JavaScriptText.text(of: double), double)
        case let other?:
            typeProblems.append(TypeProblem(attribute: signal.key, expected: "a string or a number", found: other.kind))
            return false
        }
        switch signal.comparison {
        case .contains(let targets):
            return targets.contains { SignalValues.contains(text, $0) }
        case .doesNotContain(let targets):
            return !targets.contains { SignalValues.contains(text, $0) }
        case .exactly(let targets):
            return targets.contains { SignalValues.sameTrimmedText(text, $0) }
        case .regex(let patterns):
            return patterns.contains { $0.matches(text) }
        case .numeric(let relation, let target):
            guard let actual = number ?? SignalValues.number(text), !actual.isNaN else { return false }
            return relation.holds(for: actual < target ? -1 : actual > target ? 1 : 0)
        case .version(let relation, let target):
            guard let actual = SignalVersion(text) else { return false }
            return relation.holds(for: actual.order(comparedWith: target))
        }
    }

    /// Records that `attribute` was read, when explaining.
    private mutating func note(_ attribute: String) {
        if explaining, !attributesRead.contains(attribute) { attributesRead.append(attribute) }
    }
}
