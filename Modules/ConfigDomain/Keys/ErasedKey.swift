import Foundation

/// A key's conversion, rules and rendering behind functions that are not generic, made where the
/// key's value type is known: in the key's initialiser, which is `@inlinable` and so compiled for
/// the concrete type in the module that creates the key.
///
/// A client holds keys of many value types in one registry and resolves every key at each
/// activation. Generic code that handles a `ConfigKey<Value>` whose `Value` it does not know looks
/// up type metadata at run time, several times per key (about 80 ns each here); these functions
/// were specialised when the key was made, so registering and resolving a key does none of that.
@usableFromInline
package final class ErasedKey: Sendable {
    /// What became of one candidate value.
    @usableFromInline
    package enum Outcome {
        /// The converted value in a ``ValueBox`` of the key's type, and that value rendered back
        /// as a ``ConfigValue`` (nil for types that cannot render).
        case accepted(any AnyObject & Sendable, raw: ConfigValue?)
        /// Why the candidate was refused.
        case rejected(Rejection)
    }

    /// The key's value type.
    @usableFromInline package let valueType: ObjectIdentifier
    /// The key's default in a ``ValueBox``.
    @usableFromInline package let defaultBox: any AnyObject & Sendable
    /// The default rendered as a ``ConfigValue`` (nil for types that cannot render).
    @usableFromInline package let defaultRaw: ConfigValue?
    /// Converts a parsed value and runs every rule; the origin is kept in a rejection.
    @usableFromInline package let resolveValue: @Sendable (_ value: ConfigValue, _ origin: String) -> Outcome
    /// Coerces override text and runs every rule; the origin is kept in a rejection.
    @usableFromInline package let resolveText: @Sendable (_ text: String, _ origin: String) -> Outcome
    /// Renders a ``ValueBox`` of the key's type for messages (redacted for secret keys).
    @usableFromInline package let render: @Sendable (AnyObject) -> String
    /// Problems with the key's rules themselves (an invalid pattern): rule name and problem.
    @usableFromInline package let ruleProblems: [(rule: String, problem: String)]

    /// Makes the functions for a key with `checks` and `defaultValue`.
    ///
    /// A value that converts and passes every rule takes the short path (convert, check, box).
    /// A refused one goes through ``KeyChecks`` again, which builds the rejection and its message:
    /// a rare path traded for the common one.
    @inlinable
    init<Value: Sendable>(_ checks: KeyChecks<Value>, defaultValue: Value) {
        let fromValue = checks.converter.fromValue
        let fromText = checks.converter.fromText
        let toValue = checks.converter.toValue
        let rules = checks.rules
        let passes: (@Sendable (Value) -> Bool)? =
            rules.isEmpty ? nil : { @Sendable value in rules.allSatisfy { $0.evaluate(value) == nil } }
        ruleProblems = rules.isEmpty ? [] : rules.compactMap { rule in rule.configurationProblem.map { (rule.name, $0) } }
        valueType = ObjectIdentifier(Value.self)
        defaultBox = ValueBox(defaultValue)
        defaultRaw = toValue(defaultValue)
        resolveValue = { value, origin in
            do throws(ConversionError) {
                let typed = try fromValue(value)
                if passes?(typed) ?? true { return .accepted(ValueBox(typed), raw: toValue(typed)) }
            } catch {}
            do throws(Rejection) {
                let typed = try checks.accepting(value, origin: origin)
                return .accepted(ValueBox(typed), raw: toValue(typed))
            } catch {
                return .rejected(error)
            }
        }
        resolveText = { text, origin in
            do throws(ConversionError) {
                let typed = try fromText(text)
                if passes?(typed) ?? true { return .accepted(ValueBox(typed), raw: toValue(typed)) }
            } catch {}
            do throws(Rejection) {
                let typed = try checks.accepting(text: text, origin: origin)
                return .accepted(ValueBox(typed), raw: toValue(typed))
            } catch {
                return .rejected(error)
            }
        }
        render = { box in checks.render(unsafeDowncast(box, to: ValueBox<Value>.self).value) }
    }
}
