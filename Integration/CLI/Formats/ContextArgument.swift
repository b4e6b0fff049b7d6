import ConfigDomain
import Foundation
import Targeting

/// Reads `--context '{"id":"u1","country":"DE"}'`: every member is an attribute, and `targetingKey`
/// (else `id`) is also the targeting key.
enum ContextArgument {
    /// The context `text` describes; the empty context when there is none.
    static func parse(_ text: String?) throws(CLIFailure) -> EvaluationContext {
        guard let text else { return .empty }
        let value: ConfigValue
        do throws(JSONParseError) {
            value = try JSONParser().parse(Data(text.utf8))
        } catch {
            throw CLIFailure.input(
                "--context is not valid JSON: \(error); write an object such as '{\"id\":\"u1\",\"country\":\"DE\"}'")
        }
        guard case .object(let attributes) = value else {
            throw CLIFailure.input("--context must be a JSON object of attributes, such as '{\"id\":\"u1\",\"country\":\"DE\"}'")
        }
        return context(of: attributes)
    }

    /// The context of `attributes`: its `targetingKey` (else `id`), as text, is the targeting key.
    static func context(of attributes: [String: ConfigValue]) -> EvaluationContext {
        let key = attributes[EvaluationContext.targetingKeyAttribute] ?? attributes["id"]
        return EvaluationContext(targetingKey: key.flatMap(Bucketing.hashText(of:)), attributes: attributes)
    }
}
