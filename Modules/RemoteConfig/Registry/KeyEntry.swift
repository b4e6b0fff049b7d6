import ConfigDomain
import Foundation

/// A registered key with its type erased: what the resolver needs to turn candidates into boxed values.
struct KeyEntry: Sendable {
    let descriptor: KeyDescriptor
    let identity: KeyIdentity
    let valueType: ObjectIdentifier
    let defaultBox: any AnyObject & Sendable
    let defaultRaw: ConfigValue?
    /// Converts and validates a parsed value into a box, or the rejection.
    let resolveValue: @Sendable (ConfigValue, String) -> Result<any AnyObject & Sendable, Rejection>
    /// Coerces and validates override text into a box, or the rejection.
    let resolveText: @Sendable (String, String) -> Result<any AnyObject & Sendable, Rejection>
    /// Renders a box's value as a ConfigValue (nil for types that cannot render).
    let rawOfBox: @Sendable (AnyObject) -> ConfigValue?
    /// Renders a box's value for messages (redacted for secret keys).
    let renderBox: @Sendable (AnyObject) -> String
    /// Problems with the key's rules themselves (an invalid pattern): rule name and problem.
    let ruleProblems: [(rule: String, problem: String)]

    var name: String { descriptor.name }

    init<Value: Sendable>(_ key: ConfigKey<Value>) {
        descriptor = key.descriptor
        identity = key.identity
        valueType = ObjectIdentifier(Value.self)
        defaultBox = ValueBox(key.defaultValue)
        defaultRaw = key.defaultConfigValue
        resolveValue = { value, origin in
            key.resolve(value, origin: origin).map { ValueBox($0) }
        }
        resolveText = { text, origin in
            key.resolve(text: text, origin: origin).map { ValueBox($0) }
        }
        rawOfBox = { box in
            key.converter.toValue(unsafeDowncast(box, to: ValueBox<Value>.self).value)
        }
        ruleProblems = key.rules.compactMap { rule in rule.configurationProblem.map { (rule.name, $0) } }
        renderBox = { box in
            key.render(unsafeDowncast(box, to: ValueBox<Value>.self).value)
        }
    }
}
