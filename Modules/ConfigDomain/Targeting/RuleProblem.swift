import Foundation

/// A problem with one key's targeting rules: what is wrong, where, and what to do.
///
/// A problem found while decoding (an unparsable rule, an unknown operator, weights that do not
/// sum to 1) rejects the key's remote value alone; the key falls through to its last good value or
/// its default, and the rest of the payload activates. A problem found while evaluating (an
/// attribute of the wrong type) skips that rule. Either is reported as a ``Rejection`` whose
/// ``Rejection/targeting`` holds this problem.
public struct RuleProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public indirect enum Kind: Sendable, Hashable {
        /// The rule's JSON does not have the dialect's shape; why, in words.
        case unparsable(String)
        /// A condition uses an operator the dialect does not know, for example `$regx`, with the
        /// operators the dialect knows: the reason suggests the closest of them, or lists them.
        case unknownOperator(String, known: [String])
        /// A context attribute has a type the rule cannot compare with.
        case attributeType(attribute: String, expected: String, found: ConfigValue.Kind)
        /// A rollout's weights do not sum to 1 (or 100, as the dialect counts).
        case weightsDoNotSum(Double)
        /// A condition names a saved group (segment) the payload does not define.
        case unknownGroup(String)
        /// The rule can never decide: the rule with this id always matches before it (a warning).
        case unreachable(shadowedBy: String)
        /// The server that evaluates the key (OpenFeature's remote evaluation protocol) could not:
        /// its OpenFeature error code, such as `TARGETING_KEY_MISSING`, and its details, if any.
        case remoteEvaluation(errorCode: String, details: String?)
    }

    /// The key whose rules have the problem.
    public var key: String
    /// The rule's id, when the problem belongs to one rule.
    public var ruleID: String?
    /// Where in the payload, for example `features.checkout.rules[1].condition.country`.
    public var path: String?
    /// What is wrong.
    public var kind: Kind

    /// Creates a problem.
    public init(key: String, ruleID: String? = nil, path: String? = nil, kind: Kind) {
        self.key = key
        self.ruleID = ruleID
        self.path = path
        self.kind = kind
    }

    /// Whether the problem is only a warning (the rules still work as written).
    public var isWarning: Bool { if case .unreachable = kind { true } else { false } }

    /// What is wrong and what to do, in one sentence.
    public var reason: String {
        switch kind {
        case .unparsable(let why):
            "the rule cannot be read: \(why); fix it to the dialect's documented shape"
        case .unknownOperator(let name, let known):
            if let closest = Self.closest(to: name, among: known) {
                "unknown operator \"\(name)\"; did you mean \"\(closest)\"?"
            } else {
                "unknown operator \"\(name)\"; use one of \(known.joined(separator: " "))"
            }
        case .attributeType(let attribute, let expected, let found):
            "context attribute \"\(attribute)\" is a \(found) but the rule compares it as \(expected); "
                + "set it as \(expected) in the evaluation context or change the rule"
        case .weightsDoNotSum(let sum):
            "the rollout's weights sum to \(sum), not 1; make them add up to 1 (100%)"
        case .unknownGroup(let group):
            "the condition names the saved group \"\(group)\", which the payload does not define; add it or fix the name"
        case .unreachable(let earlier):
            "the rule can never decide: rule \"\(earlier)\" before it always matches; reorder or remove one"
        case .remoteEvaluation(let code, let details):
            "the server that evaluates the flag answered \(code)" + (details.map { " (\($0))" } ?? "") + "; "
                + Self.advice(forRemoteError: code)
        }
    }

    /// What to do about a remote evaluation's error code.
    private static func advice(forRemoteError code: String) -> String {
        switch code {
        case "TARGETING_KEY_MISSING": "set a targeting key in the evaluation context (updateContext)"
        case "INVALID_CONTEXT": "check the evaluation context's attributes against what the flag's rules expect"
        case "PARSE_ERROR": "fix the flag's definition on the server"
        case "TYPE_MISMATCH": "check the flag's type on the server against the key's type in the app"
        default: "check the flag on the server; the key falls back to its last good value or its default"
        }
    }

    /// `key "checkout" rule "beta" at features.checkout.rules[1].condition: unknown operator "$regx"; use one of …`.
    public var description: String {
        var text = "key \"\(key)\""
        if let ruleID { text += " rule \"\(ruleID)\"" }
        if let path { text += " at \(path)" }
        return text + ": " + reason
    }

    /// The name in `known` spelled most like `name`, at most two edits away with case ignored; nil when none is.
    private static func closest(to name: String, among known: [String]) -> String? {
        let target = Array(name.lowercased())
        func distance(_ candidate: String) -> Int {
            let word = Array(candidate.lowercased())
            var previous = Array(0...word.count)
            for (i, character) in target.enumerated() {
                var current = [i + 1]
                for (j, other) in word.enumerated() {
                    current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (character == other ? 0 : 1)))
                }
                previous = current
            }
            return previous[word.count]
        }
        let best = known.map { ($0, distance($0)) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= 2 else { return nil }
        return best.0
    }
}
