import ConfigDomain
import Foundation

/// Reads Unleash context fields from an ``EvaluationContext`` and remembers what it read.
///
/// The mapping (see FORMAT.md): `userId` is the attribute `userId`, else the targeting key;
/// every other field (`sessionId`, `remoteAddress`, `environment`, `appName`, `currentTime` and
/// custom fields) is the attribute of that name, else the member of that name in an object
/// attribute `properties`. A `null` attribute counts as missing.
struct ContextReader {
    /// What a field holds, as the operators and stickiness read it.
    enum Field {
        /// The field is absent or null.
        case missing
        /// The field's value (strings as they are, numbers and Booleans as JSON writes them).
        case text(String)
        /// The field holds an array or an object, which no Unleash operator compares.
        case unusable(ConfigValue.Kind)
    }

    /// The context read.
    let context: EvaluationContext
    /// The fields read, in first-read order, without repeats (the targeting key as `targetingKey`).
    private(set) var fieldsRead: [String] = []

    init(_ context: EvaluationContext) {
        self.context = context
    }

    /// The raw value of field `name`, recording the read.
    mutating func value(_ name: String) -> ConfigValue? {
        if name == "userId", context.attributes["userId"] == nil || context.attributes["userId"] == .null,
            let targetingKey = context.targetingKey
        {
            record(EvaluationContext.targetingKeyAttribute)
            return .string(targetingKey)
        }
        record(name)
        if let value = context.attributes[name], !value.isNull { return value }
        if case .object(let properties)? = context.attributes["properties"], let value = properties[name], !value.isNull {
            return value
        }
        return nil
    }

    /// Field `name` as text, recording the read.
    mutating func field(_ name: String) -> Field {
        guard let value = value(name) else { return .missing }
        switch value {
        case .string(let text): return .text(text)
        case .int(let number): return .text(String(number))
        case .double(let number):
            // As JavaScript writes numbers: 12.0 is "12".
            if number.rounded() == number, abs(number) < 9_007_199_254_740_992 { return .text(String(Int64(number))) }
            return .text(String(number))
        case .bool(let flag): return .text(flag ? "true" : "false")
        case .null: return .missing
        case .array, .object: return .unusable(value.kind)
        }
    }

    /// Field `name` as text when it has a value, even an empty one, else nil (for stickiness).
    mutating func text(_ name: String) -> String? {
        if case .text(let text) = field(name) { return text }
        return nil
    }

    private mutating func record(_ name: String) {
        if !fieldsRead.contains(name) { fieldsRead.append(name) }
    }
}
