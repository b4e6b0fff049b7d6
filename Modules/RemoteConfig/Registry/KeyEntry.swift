import ConfigDomain
import Foundation

/// A registered key with its type erased: what the resolver needs to turn candidates into boxed values.
///
/// A class, so the resolver's walk over a thousand entries shares them instead of copying each.
/// Registering a key costs two small objects (this and its ``KeyOperations``) and the default's
/// box: a cold start registers every key before the first read.
final class KeyEntry: Sendable {
    let name: String
    let identity: KeyIdentity
    let valueType: ObjectIdentifier
    let defaultBox: any AnyObject & Sendable
    let defaultRaw: ConfigValue?
    private let operations: any KeyOperations

    init<Value: Sendable>(_ key: ConfigKey<Value>) {
        let operations = TypedKeyOperations(key)
        name = key.name
        identity = key.identity
        valueType = ObjectIdentifier(Value.self)
        defaultBox = operations.box.init(key.defaultValue)
        defaultRaw = operations.toValue(key.defaultValue)
        self.operations = operations
    }

    /// What override sources, the registry and tools see of the key (built when asked).
    var descriptor: KeyDescriptor { operations.descriptor }

    /// Problems with the key's rules themselves (an invalid pattern): rule name and problem.
    var ruleProblems: [(rule: String, problem: String)] { operations.ruleProblems }

    /// Converts and validates a parsed value into a box, or the rejection.
    func resolveValue(_ value: ConfigValue, origin: String) -> Candidate {
        operations.resolveValue(value, origin: origin)
    }

    /// Coerces and validates override text into a box, or the rejection.
    func resolveText(_ text: String, origin: String) -> Candidate {
        operations.resolveText(text, origin: origin)
    }

    /// Renders a box of this key's value for messages (redacted for secret keys).
    func render(_ box: AnyObject) -> String { operations.render(box) }

    /// One candidate after conversion and the key's rules.
    enum Candidate {
        /// The boxed typed value, and that value rendered back as a ``ConfigValue`` (nil for types that cannot render).
        case accepted(any AnyObject & Sendable, raw: ConfigValue?)
        /// Why the candidate was refused.
        case rejected(Rejection)
    }
}

/// The typed work behind a ``KeyEntry``: the only code generic over a key's value type that an activation runs.
private protocol KeyOperations: AnyObject, Sendable {
    var descriptor: KeyDescriptor { get }
    var ruleProblems: [(rule: String, problem: String)] { get }
    func resolveValue(_ value: ConfigValue, origin: String) -> KeyEntry.Candidate
    func resolveText(_ text: String, origin: String) -> KeyEntry.Candidate
    func render(_ box: AnyObject) -> String
}

/// ``KeyOperations`` for a `ConfigKey<Value>`.
///
/// Code generic over `Value` that touches a `ConfigKey<Value>`, an `Optional<Value>` or a
/// `Result` of `Value` looks up that type's metadata first, several times per key and
/// activation. So the common case, a value that converts and passes every rule, uses only the
/// fields stored ahead of `key` (fixed offsets) and the box's metatype, looked up once here.
/// A refused value is converted and checked again by the key itself, which builds the
/// rejection's message: a rare path traded for the common one.
private final class TypedKeyOperations<Value: Sendable>: KeyOperations {
    let box: ValueBox<Value>.Type
    let fromValue: @Sendable (ConfigValue) throws(ConversionError) -> Value
    let fromText: @Sendable (String) throws(ConversionError) -> Value
    let toValue: @Sendable (Value) -> ConfigValue?
    /// Every rule as one check (nil without rules): iterating `[ValidationRule<Value>]` here
    /// would look up the array's metadata for every value.
    let passes: (@Sendable (Value) -> Bool)?
    let key: ConfigKey<Value>

    init(_ key: ConfigKey<Value>) {
        box = ValueBox<Value>.self
        fromValue = key.converter.fromValue
        fromText = key.converter.fromText
        toValue = key.converter.toValue
        // `count`, not `isEmpty`: Collection's `isEmpty` would instantiate Array's witness table here.
        passes = key.rules.count == 0 ? nil : Self.passesEveryRule(key.rules)
        self.key = key
    }

    var descriptor: KeyDescriptor { key.descriptor }

    var ruleProblems: [(rule: String, problem: String)] {
        guard passes != nil else { return [] }
        return key.rules.compactMap { rule in rule.configurationProblem.map { (rule.name, $0) } }
    }

    func resolveValue(_ value: ConfigValue, origin: String) -> KeyEntry.Candidate {
        do throws(ConversionError) {
            let typed = try fromValue(value)
            if passes?(typed) ?? true { return .accepted(box.init(typed), raw: toValue(typed)) }
        } catch {}
        do throws(Rejection) {
            let typed = try key.accepting(value, origin: origin)
            return .accepted(box.init(typed), raw: toValue(typed))
        } catch {
            return .rejected(error)
        }
    }

    func resolveText(_ text: String, origin: String) -> KeyEntry.Candidate {
        do throws(ConversionError) {
            let typed = try fromText(text)
            if passes?(typed) ?? true { return .accepted(box.init(typed), raw: toValue(typed)) }
        } catch {}
        do throws(Rejection) {
            let typed = try key.accepting(text: text, origin: origin)
            return .accepted(box.init(typed), raw: toValue(typed))
        } catch {
            return .rejected(error)
        }
    }

    func render(_ object: AnyObject) -> String {
        key.render(unsafeDowncast(object, to: box).value)
    }

    private static func passesEveryRule(_ rules: [ValidationRule<Value>]) -> @Sendable (Value) -> Bool {
        var passes: @Sendable (Value) -> Bool = { _ in true }
        for rule in rules.reversed() {
            let rest = passes
            passes = { value in rule.evaluate(value) == nil && rest(value) }
        }
        return passes
    }
}
