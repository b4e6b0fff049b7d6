import ConfigCatFormat
import ConfigDomain
import ConfigPorts
import Foundation

/// Config JSON for the tests: small configs written out, decoded with ``ConfigCatFormat``.
enum Fixture {
    /// The salt of the fixtures; the expected hashes in the tests were computed with Python's `hashlib`.
    static let salt = "salt"

    /// `json` decoded, or the test fails.
    static func decode(_ json: String) throws -> DecodedPayload { try ConfigCatFormat().decode(Data(json.utf8)) }

    /// A config whose string setting `flag` has one targeting rule with `conditions` serving `"match"`
    /// (variation `m`), and `"default"` (variation `d`) otherwise.
    static func rule(_ conditions: String..., segments: String = "[]", more: String = "") -> String {
        """
        {"p": {"u": "https://cdn-global.configcat.com", "r": 0, "s": "\(salt)"}, "s": \(segments),
         "f": {"flag": {"t": 1, "v": {"s": "default"}, "i": "d",
                        "r": [{"c": [\(conditions.joined(separator: ", "))], "s": {"v": {"s": "match"}, "i": "m"}}]}\(more)}}
        """
    }

    /// A user condition on `attribute` with comparator `comparator` and the comparison value member `value` (`"s": "x"`).
    static func user(_ attribute: String, _ comparator: Int, _ value: String) -> String {
        #"{"u": {"a": "\#(attribute)", "c": \#(comparator), \#(value)}}"#
    }

    /// A context with the targeting key `u1` and `attributes`.
    static func context(_ attributes: [String: ConfigValue] = [:], key: String? = "u1") -> EvaluationContext {
        EvaluationContext(targetingKey: key, attributes: attributes)
    }
}

/// How a targeting rule came out, read from an evaluation's details.
enum RuleOutcome: Equatable, CustomStringConvertible {
    /// The rule served its value.
    case match
    /// The rule's conditions did not all hold.
    case noMatch
    /// A condition could not be evaluated for the user (the reason ConfigCat logs); the rule was skipped.
    case skipped(String)
    /// The evaluation failed.
    case error(String)

    init(_ details: EvaluationDetails<ConfigValue?>) {
        if details.reason == .error {
            self = .error(details.errorMessage ?? "")
        } else if details.value == "match" {
            self = .match
        } else if case .other(let why)? = details.decision?.unmatched.first?.reason {
            self = .skipped(why)
        } else {
            self = .noMatch
        }
    }

    var description: String {
        switch self {
        case .match: "match"
        case .noMatch: "no match"
        case .skipped(let why): "skipped (\(why))"
        case .error(let message): "error (\(message))"
        }
    }
}

extension DecodedPayload {
    /// How the rule of a ``Fixture/rule(_:segments:more:)`` config came out for `context`.
    func outcome(in context: EvaluationContext, key: String = "flag") -> RuleOutcome { RuleOutcome(evaluate(key, in: context)) }
}
