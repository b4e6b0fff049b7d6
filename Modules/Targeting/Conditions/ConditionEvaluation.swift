import ConfigDomain
import Foundation

/// One evaluation of a ``Condition``: the type mismatches it met. The context and the saved groups
/// are passed down rather than stored, so that an evaluation copies neither (it runs for every key
/// with rules on each context change).
struct ConditionEvaluation {
    var mismatches: [AttributeMismatch] = []

    /// What paths are read from: the context's attributes, or one array element (inside `$elemMatch`).
    enum Root {
        case context
        case element(ConfigValue)
    }

    mutating func holds(
        _ node: ConditionNode, in root: Root, _ context: EvaluationContext, _ groups: [String: [ConfigValue]]
    ) -> Bool {
        switch node {
        case .and(let nodes):
            for node in nodes where !holds(node, in: root, context, groups) { return false }
            return true
        case .or(let nodes):
            if nodes.isEmpty { return true }
            for node in nodes where holds(node, in: root, context, groups) { return true }
            return false
        case .nor(let nodes):
            return !holds(.or(nodes), in: root, context, groups)
        case .not(let node):
            return !holds(node, in: root, context, groups)
        case .field(let path, let name, let test):
            return passes(test, value(at: path, in: root, context), attribute: name, context, groups)
        case .never:
            return false
        }
    }

    /// The value at `path`, each step as JavaScript's `in` finds it (see ``LooseValue/member(_:of:)``).
    private func value(at path: [String], in root: Root, _ context: EvaluationContext) -> ConfigValue? {
        var current: ConfigValue
        var next = 0
        switch root {
        case .context:
            guard !path.isEmpty, let value = context.attribute(named: path[0]) else { return nil }
            (current, next) = (value, 1)
        case .element(let element):
            current = element
        }
        while next < path.count {
            guard let member = LooseValue.member(path[next], of: current) else { return nil }
            (current, next) = (member, next + 1)
        }
        return current
    }

    private mutating func passes(
        _ test: ValueTest, _ actual: ConfigValue?, attribute: String, _ context: EvaluationContext,
        _ groups: [String: [ConfigValue]]
    ) -> Bool {
        switch test {
        case .text(let text, let caseInsensitive):
            let actualText = LooseValue.text(of: actual)
            return caseInsensitive
                ? LooseValue.sameText(actualText.lowercased(), text.lowercased()) : LooseValue.sameText(actualText, text)
        case .number(let number):
            return LooseValue.number(of: actual) == number
        case .truthy(let flag):
            return !isNull(actual) && LooseValue.isTruthy(actual) == flag
        case .null:
            return isNull(actual)
        case .json(let json):
            return LooseValue.sameJSON(actual, json)
        case .operators(let tests):
            for test in tests where !passes(test, actual, attribute: attribute, context, groups) { return false }
            return true
        }
    }

    private mutating func passes(
        _ test: OperatorTest, _ actual: ConfigValue?, attribute: String, _ context: EvaluationContext,
        _ groups: [String: [ConfigValue]]
    ) -> Bool {
        switch test {
        case .equal(let expected):
            return LooseValue.strictlyEqual(actual, expected)
        case .notEqual(let expected):
            return !LooseValue.strictlyEqual(actual, expected)
        case .order(let relation, let expected):
            noteMismatch(actual, expected: expected, attribute: attribute)
            return LooseValue.compare(actual, relation, expected)
        case .version(let relation, let expected):
            if let actual, !isNull(actual), actual.kind != .string {
                mismatches.append(AttributeMismatch(attribute: attribute, expected: "version string", found: actual.kind))
            }
            return relation.holds(for: VersionString.order(of: actual, comparedTo: expected))
        case .exists(let present):
            return present != isNull(actual)
        case .within(let list, let caseInsensitive, let negated):
            return isIn(actual, list, caseInsensitive: caseInsensitive) != negated
        case .group(let group, let negated):
            return isIn(actual, groups[group] ?? [], caseInsensitive: false) != negated
        case .not(let inner):
            return !passes(inner, actual, attribute: attribute, context, groups)
        case .size(let inner):
            guard case .array(let elements)? = actual else { return false }
            return passes(inner, .int(Int64(elements.count)), attribute: attribute, context, groups)
        case .elementPasses(let inner):
            guard case .array(let elements)? = actual else { return false }
            return elements.contains { LooseValue.isTruthy($0) && passes(inner, $0, attribute: attribute, context, groups) }
        case .elementMatches(let node):
            guard case .array(let elements)? = actual else { return false }
            return elements.contains { LooseValue.isTruthy($0) && holds(node, in: .element($0), context, groups) }
        case .all(let tests):
            guard case .array(let elements)? = actual else { return false }
            return tests.allSatisfy { test in elements.contains { passes(test, $0, attribute: attribute, context, groups) } }
        case .regex(let pattern, let negated):
            if let actual, !isNull(actual), actual.kind != .string {
                mismatches.append(AttributeMismatch(attribute: attribute, expected: "string", found: actual.kind))
            }
            return pattern.matches(LooseValue.text(of: actual)) != negated
        case .type(let name):
            return LooseValue.typeName(of: actual) == name
        case .never:
            return false
        }
    }

    /// Records an ordering between a present attribute and an operand of another type.
    private mutating func noteMismatch(_ actual: ConfigValue?, expected: ConfigValue, attribute: String) {
        guard let actual, !isNull(actual) else { return }
        guard LooseValue.sameType(actual, expected) else {
            return mismatches.append(
                AttributeMismatch(attribute: attribute, expected: LooseValue.typeName(of: expected), found: actual.kind))
        }
    }

    /// `$in`: the value, or any element of an array value, is in `list`.
    private func isIn(_ actual: ConfigValue?, _ list: [ConfigValue], caseInsensitive: Bool) -> Bool {
        func same(_ a: ConfigValue?, _ b: ConfigValue) -> Bool {
            if caseInsensitive, case .string(let x)? = a, case .string(let y) = b {
                return LooseValue.sameText(x.lowercased(), y.lowercased())
            }
            return LooseValue.strictlyEqual(a, b)
        }
        if case .array(let elements)? = actual {
            return elements.contains { element in list.contains { same(element, $0) } }
        }
        return list.contains { same(actual, $0) }
    }

    private func isNull(_ value: ConfigValue?) -> Bool { value == nil || value == .null }
}
