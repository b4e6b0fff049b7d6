import ConfigDomain
import Foundation

/// A registered key with its type erased: what the resolver needs to turn candidates into boxed values.
///
/// A class, so the resolver's walk over a thousand entries shares them instead of copying each
/// (a copy retains every field). The closures are the only generic code an activation runs per
/// key; each converts, validates and boxes in one call.
final class KeyEntry: Sendable {
    let descriptor: KeyDescriptor
    let name: String
    let identity: KeyIdentity
    let valueType: ObjectIdentifier
    let defaultBox: any AnyObject & Sendable
    let defaultRaw: ConfigValue?
    /// Converts and validates a parsed value into a box, or the rejection.
    let resolveValue: @Sendable (ConfigValue, String) -> Candidate
    /// Coerces and validates override text into a box, or the rejection.
    let resolveText: @Sendable (String, String) -> Candidate
    /// Renders a box's value for messages (redacted for secret keys).
    let renderBox: @Sendable (AnyObject) -> String
    /// Problems with the key's rules themselves (an invalid pattern): rule name and problem.
    let ruleProblems: [(rule: String, problem: String)]

    init<Value: Sendable>(_ key: ConfigKey<Value>) {
        descriptor = key.descriptor
        name = key.name
        identity = key.identity
        valueType = ObjectIdentifier(Value.self)
        defaultBox = ValueBox(key.defaultValue)
        defaultRaw = key.defaultConfigValue
        // The common case, a value that converts and passes every rule, runs without the key
        // itself: code generic over `Value` that touches a `ConfigKey<Value>` (or an Optional or a
        // Result of `Value`) looks up that type's metadata first, several times per key. The
        // closures below capture only fixed-layout values, and the metatype is captured once.
        let box = ValueBox<Value>.self
        let fromValue = key.converter.fromValue
        let fromText = key.converter.fromText
        let toValue = key.converter.toValue
        let passes = Self.passesEveryRule(key.rules)
        // A value that does not convert or fails a rule: the key builds the rejection and its message.
        let checkValue: @Sendable (ConfigValue, String) throws(Rejection) -> Value = { value, origin throws(Rejection) in
            try key.accepting(value, origin: origin)
        }
        let checkText: @Sendable (String, String) throws(Rejection) -> Value = { text, origin throws(Rejection) in
            try key.accepting(text: text, origin: origin)
        }
        resolveValue = { value, origin in
            do throws(ConversionError) {
                let typed = try fromValue(value)
                if passes(typed) { return .accepted(box.init(typed), raw: toValue(typed)) }
            } catch {}
            do throws(Rejection) {
                let typed = try checkValue(value, origin)
                return .accepted(box.init(typed), raw: toValue(typed))
            } catch {
                return .rejected(error)
            }
        }
        resolveText = { text, origin in
            do throws(ConversionError) {
                let typed = try fromText(text)
                if passes(typed) { return .accepted(box.init(typed), raw: toValue(typed)) }
            } catch {}
            do throws(Rejection) {
                let typed = try checkText(text, origin)
                return .accepted(box.init(typed), raw: toValue(typed))
            } catch {
                return .rejected(error)
            }
        }
        renderBox = { object in
            key.render(unsafeDowncast(object, to: box).value)
        }
        ruleProblems = key.rules.compactMap { rule in rule.configurationProblem.map { (rule.name, $0) } }
    }

    /// Whether a value passes every rule, as one closure: iterating an array of `ValidationRule<Value>`
    /// in code generic over `Value` would look up the array's metadata for every value.
    private static func passesEveryRule<Value>(_ rules: [ValidationRule<Value>]) -> @Sendable (Value) -> Bool {
        var passes: @Sendable (Value) -> Bool = { _ in true }
        for rule in rules.reversed() {
            let rest = passes
            passes = { value in rule.evaluate(value) == nil && rest(value) }
        }
        return passes
    }

    /// One candidate after conversion and the key's rules.
    enum Candidate {
        /// The boxed typed value, and that value rendered back as a ``ConfigValue`` (nil for types that cannot render).
        case accepted(any AnyObject & Sendable, raw: ConfigValue?)
        /// Why the candidate was refused.
        case rejected(Rejection)
    }
}
