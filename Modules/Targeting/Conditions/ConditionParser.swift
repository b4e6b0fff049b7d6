import ConfigDomain
import Foundation

/// Turns a condition's JSON into a ``ConditionNode``, collecting the attributes and groups it names.
struct ConditionParser {
    /// Whether unknown operators and malformed operands throw (true) or become `never` (false).
    let strict: Bool
    private(set) var attributes: [String] = []
    private(set) var groups: [String] = []
    /// How deep inside `$elemMatch` the parser is: paths there are element members, not attributes.
    private var elementDepth = 0

    init(strict: Bool) { self.strict = strict }

    /// A condition object.
    mutating func condition(_ json: ConfigValue, path: String) throws(ConditionError) -> ConditionNode {
        guard case .object(let members) = json else {
            return try malformed("a condition is a JSON object, found a \(json.kind)", at: path)
        }
        var nodes: [ConditionNode] = []
        for name in members.keys.sorted() {
            guard let value = members[name] else { continue }
            let here = join(path, name)
            switch name {
            case "$and": nodes.append(.and(try conditions(value, path: here)))
            case "$or": nodes.append(.or(try conditions(value, path: here)))
            case "$nor": nodes.append(.nor(try conditions(value, path: here)))
            case "$not": nodes.append(.not(try condition(value, path: here)))
            default:
                if elementDepth == 0, !attributes.contains(name) { attributes.append(name) }
                let steps = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                nodes.append(.field(path: steps, name: name, test: try test(value, path: here, caseInsensitive: false)))
            }
        }
        return nodes.count == 1 ? nodes[0] : .and(nodes)
    }

    private mutating func conditions(_ json: ConfigValue, path: String) throws(ConditionError) -> [ConditionNode] {
        guard case .array(let elements) = json else {
            return [try malformed("expected an array of conditions, found a \(json.kind)", at: path)]
        }
        var nodes: [ConditionNode] = []
        for (index, element) in elements.enumerated() {
            nodes.append(try condition(element, path: "\(path)[\(index)]"))
        }
        return nodes
    }

    /// What a value must be: a plain value, or an object whose members are all operators.
    private mutating func test(_ json: ConfigValue, path: String, caseInsensitive: Bool) throws(ConditionError) -> ValueTest {
        switch json {
        case .string(let text): return .text(text, caseInsensitive: caseInsensitive)
        case .int(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        case .bool(let flag): return .truthy(flag)
        case .null: return .null
        case .array: return .json(json)
        case .object(let members):
            guard Self.isOperatorObject(members) else { return .json(json) }
            var tests: [OperatorTest] = []
            for name in members.keys.sorted() {
                guard let operand = members[name] else { continue }
                tests.append(try operatorTest(name, operand, path: join(path, name)))
            }
            return .operators(tests)
        }
    }

    /// Whether every member (and there is one) is an operator.
    static func isOperatorObject(_ members: [String: ConfigValue]) -> Bool {
        !members.isEmpty && members.keys.allSatisfy { $0.hasPrefix("$") }
    }

    private mutating func operatorTest(_ name: String, _ operand: ConfigValue, path: String) throws(ConditionError)
        -> OperatorTest
    {
        guard let op = ConditionOperator(rawValue: name) else {
            if strict { throw ConditionError(path: path, kind: .unknownOperator(name)) }
            return .never
        }
        switch op {
        case .eq: return .equal(operand)
        case .ne: return .notEqual(operand)
        case .gt: return .order(.greater, operand)
        case .gte: return .order(.greaterOrEqual, operand)
        case .lt: return .order(.less, operand)
        case .lte: return .order(.lessOrEqual, operand)
        case .veq: return .version(.equal, VersionString.padded(operand))
        case .vne: return .version(.notEqual, VersionString.padded(operand))
        case .vgt: return .version(.greater, VersionString.padded(operand))
        case .vgte: return .version(.greaterOrEqual, VersionString.padded(operand))
        case .vlt: return .version(.less, VersionString.padded(operand))
        case .vlte: return .version(.lessOrEqual, VersionString.padded(operand))
        case .exists: return .exists(LooseValue.isTruthy(operand))
        case .in, .nin, .ini, .nini:
            guard case .array(let list) = operand else { return try malformedOperator(op, "an array", operand, at: path) }
            return .within(list, caseInsensitive: op == .ini || op == .nini, negated: op == .nin || op == .nini)
        case .inGroup, .notInGroup:
            guard case .string(let group) = operand else {
                return try malformedOperator(op, "a group id string", operand, at: path)
            }
            if !groups.contains(group) { groups.append(group) }
            return .group(group, negated: op == .notInGroup)
        case .not: return .not(try test(operand, path: path, caseInsensitive: false))
        case .size: return .size(try test(operand, path: path, caseInsensitive: false))
        case .elemMatch:
            guard case .object(let members) = operand else {
                return try malformedOperator(op, "a condition object", operand, at: path)
            }
            if Self.isOperatorObject(members) { return .elementPasses(try test(operand, path: path, caseInsensitive: false)) }
            elementDepth += 1
            defer { elementDepth -= 1 }
            return .elementMatches(try condition(operand, path: path))
        case .all, .alli:
            guard case .array(let list) = operand else { return try malformedOperator(op, "an array", operand, at: path) }
            var tests: [ValueTest] = []
            for (index, element) in list.enumerated() {
                tests.append(try test(element, path: "\(path)[\(index)]", caseInsensitive: op == .alli))
            }
            return .all(tests)
        case .regex, .regexi, .notRegex, .notRegexi:
            guard case .string(let source) = operand else {
                return try malformedOperator(op, "a regular expression string", operand, at: path)
            }
            guard let pattern = RegexPattern(source, caseInsensitive: op == .regexi || op == .notRegexi) else {
                if strict {
                    throw ConditionError(path: path, kind: .malformed("\"\(source)\" is not a valid regular expression"))
                }
                return .never
            }
            return .regex(pattern, negated: op == .notRegex || op == .notRegexi)
        case .type:
            let names = ["string", "number", "boolean", "array", "object", "null"]
            guard case .string(let name) = operand, names.contains(name) else {
                return try malformedOperator(op, "one of " + names.joined(separator: ", "), operand, at: path)
            }
            return .type(name)
        case .and, .or, .nor:
            if strict {
                throw ConditionError(
                    path: path,
                    kind: .malformed("\(name) combines conditions and belongs at a condition's top level, not on an attribute"))
            }
            return .never
        }
    }

    private func malformedOperator(
        _ op: ConditionOperator, _ expected: String, _ found: ConfigValue, at path: String
    ) throws(ConditionError) -> OperatorTest {
        if strict {
            throw ConditionError(path: path, kind: .malformed("\(op.rawValue) expects \(expected), found a \(found.kind)"))
        }
        return .never
    }

    private func malformed(_ why: String, at path: String) throws(ConditionError) -> ConditionNode {
        if strict { throw ConditionError(path: path, kind: .malformed(why)) }
        return .never
    }

    private func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : path + "." + name }
}
