import ConfigDomain
import Foundation

/// A condition that cannot be read: where in the condition, and what is wrong.
public struct ConditionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// An operator the condition language does not have, for example `$regx`.
        case unknownOperator(String)
        /// The condition does not have the language's shape; why, in words.
        case malformed(String)
    }

    /// The path inside the condition, for example `country.$in` (empty for the top level).
    public var path: String
    /// What is wrong.
    public var kind: Kind

    /// Creates an error.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// `unknown operator "$regx" at name.$regx`.
    public var description: String {
        let place = path.isEmpty ? "" : " at \(path)"
        switch kind {
        case .unknownOperator(let name): return "unknown operator \"\(name)\"\(place)"
        case .malformed(let why): return "malformed condition\(place): \(why)"
        }
    }

    /// The same problem as a ``RuleProblem`` of `key`'s rule `ruleID`, located under `path` in the payload;
    /// an unknown operator is offered the condition language's operators.
    public func ruleProblem(key: String, ruleID: String?, path prefix: String?) -> RuleProblem {
        let location = [prefix, path.isEmpty ? nil : path].compactMap { $0 }.joined(separator: ".")
        switch kind {
        case .unknownOperator(let name):
            let kind = RuleProblem.Kind.unknownOperator(name, known: ConditionOperator.names)
            return RuleProblem(key: key, ruleID: ruleID, path: location, kind: kind)
        case .malformed(let why):
            return RuleProblem(key: key, ruleID: ruleID, path: location, kind: .unparsable(why))
        }
    }
}
