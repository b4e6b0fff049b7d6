import ConfigDomain
import Configuration
import Foundation

/// How a swift-configuration key's context becomes the evaluation context targeting rules read.
///
/// The member `targetingKey` (a string) is the targeting key; every other member is an attribute
/// of the same name: a string, integer, floating-point or Boolean value.
///
/// ```swift
/// let enabled = config.bool(forKey: ConfigKey("new_checkout", context: ["targetingKey": "u1", "country": "DE"]), default: false)
/// ```
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public enum EvaluationContextMapping {
    /// The evaluation context of a key's `context`.
    public static func evaluationContext(of context: [String: ConfigContextValue]) -> EvaluationContext {
        var result = EvaluationContext()
        for (name, value) in context {
            if name == EvaluationContext.targetingKeyAttribute, case .string(let key) = value {
                result.targetingKey = key
                continue
            }
            result.attributes[name] = configValue(of: value)
        }
        return result
    }

    /// One context value as a ``ConfigDomain/ConfigValue``.
    static func configValue(of value: ConfigContextValue) -> ConfigDomain.ConfigValue {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .int(Int64(number))
        case .double(let number): .double(number)
        case .bool(let flag): .bool(flag)
        }
    }
}
