import ConfigDomain
import Foundation

/// A JsonLogic rule, read once from a flag's `targeting`: what the evaluator walks for each context.
indirect enum Logic: Sendable {
    /// A value returned as it is: a scalar, or an object whose member count is not one (JsonLogic
    /// treats such an object as data and looks no further into it).
    case literal(ConfigValue)
    /// An array, whose elements are evaluated in turn.
    case array([Logic])
    /// An operation: an object with one member, the operator's name, whose value is its arguments
    /// (an array, or one argument).
    case operation(LogicOperator, [Logic])
}

/// The operators flagd's targeting understands: JsonLogic's, and flagd's own.
enum LogicOperator: String, Sendable, CaseIterable {
    // Control: their arguments are evaluated as needed, not all first.
    case `if`, ternary = "?:", and, or
    case filter, map, reduce, all, some, none
    // Data.
    case `var`, missing, missingSome = "missing_some"
    // Comparison and logic.
    case looseEqual = "==", strictEqual = "===", looseNotEqual = "!=", strictNotEqual = "!=="
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case not = "!", truthy = "!!"
    // Arithmetic.
    case plus = "+", minus = "-", times = "*", divide = "/", remainder = "%", min, max
    // Strings and arrays.
    case `in`, cat, substr, merge
    // flagd's own.
    case fractional, semVer = "sem_ver", startsWith = "starts_with", endsWith = "ends_with"

    /// Every operator's name, sorted, for messages.
    static let names: [String] = allCases.map(\.rawValue).sorted()
}

/// Reads a flag's `targeting` into ``Logic``, replacing `{"$ref": "name"}` with the evaluator of that
/// name from `$evaluators`, and collects what is wrong with it.
struct LogicReader {
    /// The shared rules of the payload's `$evaluators`, by name.
    let evaluators: [String: ConfigValue]
    /// The flag whose targeting this reads, for problems.
    let key: String
    /// The problems found so far.
    private(set) var problems: [RuleProblem] = []

    init(evaluators: [String: ConfigValue], key: String) {
        self.evaluators = evaluators
        self.key = key
    }

    /// The rule in `json`, found at `path`; problems are collected in ``problems``.
    mutating func read(_ json: ConfigValue, path: String) -> Logic {
        var references: [String] = []
        return read(json, path: path, references: &references)
    }

    private mutating func read(_ json: ConfigValue, path: String, references: inout [String]) -> Logic {
        switch json {
        case .array(let elements):
            return .array(elements.enumerated().map { read($1, path: "\(path)[\($0)]", references: &references) })
        case .object(let members) where members.count == 1:
            guard let (name, arguments) = members.first else { return .literal(json) }
            if name == "$ref" { return reference(arguments, path: path, references: &references) }
            guard let operation = LogicOperator(rawValue: name) else {
                problems.append(
                    RuleProblem(key: key, path: path, kind: .unknownOperator(name, known: LogicOperator.names)))
                return .literal(.null)
            }
            let list = arguments.arrayValue ?? [arguments]
            let base = "\(path).\(name)"
            var logic: [Logic] = []
            for (index, argument) in list.enumerated() {
                let at = arguments.arrayValue == nil ? base : "\(base)[\(index)]"
                if operation == .reduce, index == 2 {
                    // reduce's initial value is taken as written, never evaluated (as the JsonLogic library flagd-core uses does).
                    logic.append(.literal(substituted(argument, path: at, references: &references)))
                } else {
                    logic.append(read(argument, path: at, references: &references))
                }
            }
            return .operation(operation, logic)
        default:
            // A scalar, or an object of zero or several members: data, taken as written.
            return .literal(substituted(json, path: path, references: &references))
        }
    }

    /// The evaluator `{"$ref": name}` names, read in its place.
    private mutating func reference(_ name: ConfigValue, path: String, references: inout [String]) -> Logic {
        guard case .string(let text) = name else {
            problems.append(
                RuleProblem(
                    key: key, path: path,
                    kind: .unparsable("\"$ref\" must name an evaluator of \"$evaluators\" with a string, found a \(name.kind)")))
            return .literal(.null)
        }
        guard let rule = evaluators[text] else {
            let known = evaluators.keys.sorted()
            let listing = known.isEmpty ? "the payload has no \"$evaluators\"" : "it has " + known.joined(separator: ", ")
            problems.append(
                RuleProblem(
                    key: key, path: path,
                    kind: .unparsable(
                        "\"$ref\" names the evaluator \"\(text)\", which \"$evaluators\" does not define (\(listing))")))
            return .literal(.null)
        }
        guard !references.contains(text) else {
            problems.append(
                RuleProblem(
                    key: key, path: path,
                    kind: .unparsable(
                        "the evaluators refer to each other in a cycle: \((references + [text]).joined(separator: " -> "))")))
            return .literal(.null)
        }
        references.append(text)
        defer { references.removeLast() }
        return read(rule, path: "$evaluators.\(text)", references: &references)
    }

    /// `json` with every `{"$ref": name}` inside it replaced by its evaluator's JSON (for values taken as written).
    private mutating func substituted(_ json: ConfigValue, path: String, references: inout [String]) -> ConfigValue {
        switch json {
        case .array(let elements):
            return .array(elements.enumerated().map { substituted($1, path: "\(path)[\($0)]", references: &references) })
        case .object(let members):
            if members.count == 1, case .string(let name)? = members["$ref"], let rule = evaluators[name],
                !references.contains(name)
            {
                references.append(name)
                defer { references.removeLast() }
                return substituted(rule, path: "$evaluators.\(name)", references: &references)
            }
            var copy: [String: ConfigValue] = [:]
            for (name, member) in members { copy[name] = substituted(member, path: "\(path).\(name)", references: &references) }
            return .object(copy)
        default:
            return json
        }
    }
}
