import Foundation

/// A key's conversion, rules and rendering behind functions that are not generic, made where the
/// key's value type is known: in the key's initialiser, which is `@inlinable` and so compiled for
/// the concrete type in the module that creates the key.
///
/// A client holds keys of many value types in one registry and resolves every key at each
/// activation. Generic code that handles a `ConfigKey<Value>` whose `Value` it does not know looks
/// up type metadata at run time, several times per key (about 80 ns each here); these functions
/// were specialised when the key was made, so registering and resolving a key does none of that.
///
/// Layout: the typed state (checks, default, summary) lives in one ``TypedKeyFunctions`` object,
/// and the functions take it as their first argument (a closure that captured it would cost an
/// allocation of its own, one per function and key). The functions are the same for every key of
/// one value type, so the key keeps one capture-free closure that hands them out
/// (``KeyOperations``) rather than a stored closure for each (16 bytes apiece). What can be
/// derived from the typed state and is rarely asked for (the value type, the default in a box and
/// as a raw value) is derived when asked for, not stored. A cold start creates every key, and each
/// allocation and each page of new memory costs it (a page 3–5 µs here), so a key is two objects:
/// this (72 bytes, 80 with the allocator's header) and its typed state.
@usableFromInline
package final class ErasedKey: Sendable {
    /// What became of one candidate value.
    @usableFromInline
    package enum Outcome {
        /// The converted value in a ``ValueBox`` of the key's type, and its raw form: the value
        /// rendered back as a ``ConfigValue`` (nil for types that cannot render), or for a
        /// `Decodable` type the parsed candidate itself.
        case accepted(any AnyObject & Sendable, raw: ConfigValue?)
        /// Why the candidate was refused.
        case rejected(Rejection)
    }

    /// The key's name.
    @usableFromInline package let name: String
    /// The key's process-unique identity.
    @usableFromInline package let identity: KeyIdentity
    /// The key's default in a new ``ValueBox``.
    ///
    /// Made when asked for: a client asks only for a key that resolves to its default (once per
    /// state), and a key that kept a box of its own would cost every key an allocation at launch.
    @inlinable
    package var defaultBox: any AnyObject & Sendable { operations().defaultBox(functions) }
    /// Problems with the key's rules themselves (an invalid pattern): rule name and problem.
    ///
    /// Stored, unlike what else derives from the typed state: a registry asks every key for it.
    @usableFromInline package let ruleProblems: [(rule: String, problem: String)]
    /// The key's ``TypedKeyFunctions``, the first argument of every operation.
    @usableFromInline let functions: any AnyObject & Sendable
    /// Hands out the operations compiled for the key's value type.
    @usableFromInline let operations: @Sendable () -> KeyOperations

    /// The key's value type (the typed state's class differs for each value type).
    @inlinable
    package var valueType: ObjectIdentifier { ObjectIdentifier(type(of: functions)) }

    /// The default rendered as a ``ConfigValue`` (nil for types that cannot render), rendered when
    /// asked for: only a key that resolves to its default needs it.
    @inlinable
    package var defaultRaw: ConfigValue? { operations().defaultRaw(functions) }

    /// Converts a parsed value and runs every rule; `origin` is kept in a rejection.
    @inlinable
    package func resolveValue(_ value: ConfigValue, origin: String) -> Outcome {
        operations().resolveValue(functions, value, origin)
    }

    /// Coerces override text and runs every rule; `origin` is kept in a rejection.
    @inlinable
    package func resolveText(_ text: String, origin: String) -> Outcome {
        operations().resolveText(functions, text, origin)
    }

    /// Renders a ``ValueBox`` of the key's type for messages (redacted for secret keys).
    @inlinable
    package func render(_ box: AnyObject) -> String { operations().render(functions, box) }

    /// What a registry, an override source or a tool needs to know about the key, built by code
    /// compiled for its value type (no run-time type lookups; a registry asks for a thousand).
    @inlinable
    package var descriptor: KeyDescriptor { operations().descriptor(functions) }

    /// Makes the functions for the key `identity` with `checks`, `defaultValue` and `summary`.
    @inlinable
    init<Value: Sendable>(_ checks: KeyChecks<Value>, identity: KeyIdentity, defaultValue: Value, summary: String?) {
        name = checks.name
        self.identity = identity
        let rules = checks.rules
        ruleProblems = rules.isEmpty ? [] : rules.compactMap { rule in rule.configurationProblem.map { (rule.name, $0) } }
        functions = TypedKeyFunctions(checks, defaultValue: defaultValue, summary: summary)
        operations = { KeyOperations(for: Value.self) }
    }
}

/// The typed half of an ``ErasedKey``: its checks and default, and the work on one candidate.
@usableFromInline
final class TypedKeyFunctions<Value: Sendable>: Sendable {
    @usableFromInline let checks: KeyChecks<Value>
    @usableFromInline let defaultValue: Value
    @usableFromInline let summary: String?

    @inlinable
    init(_ checks: KeyChecks<Value>, defaultValue: Value, summary: String?) {
        self.checks = checks
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// A value that converts and passes every rule takes the short path (convert, check, box).
    /// A refused one goes through ``KeyChecks`` again, which builds the rejection and its message:
    /// a rare path traded for the common one.
    @inlinable
    func resolve(_ value: ConfigValue, origin: String) -> ErasedKey.Outcome {
        // The converter's functions, fetched once for the conversion and the rendering back.
        let converter = checks.converter.functions()
        do throws(ConversionError) {
            let typed = try converter.fromValue(value)
            if checks.rules.allSatisfy({ $0.evaluate(typed) == nil }) {
                return accept(typed, candidate: value, toValue: converter.toValue)
            }
        } catch {}
        do throws(Rejection) {
            return accept(try checks.accepting(value, origin: origin), candidate: value, toValue: converter.toValue)
        } catch {
            return .rejected(error)
        }
    }

    /// ``resolve(_:origin:)`` for override text.
    @inlinable
    func resolve(text: String, origin: String) -> ErasedKey.Outcome {
        let converter = checks.converter.functions()
        do throws(ConversionError) {
            let typed = try converter.fromText(text)
            if checks.rules.allSatisfy({ $0.evaluate(typed) == nil }) {
                return accept(typed, candidate: nil, toValue: converter.toValue)
            }
        } catch {}
        do throws(Rejection) {
            return accept(try checks.accepting(text: text, origin: origin), candidate: nil, toValue: converter.toValue)
        } catch {
            return .rejected(error)
        }
    }

    /// The boxed value and its raw form: the parsed candidate itself when the converter keeps
    /// candidates (and there is one), otherwise the typed value rendered back with `toValue`.
    @inlinable
    func accept(_ typed: Value, candidate: ConfigValue?, toValue: (Value) -> ConfigValue?) -> ErasedKey.Outcome {
        if checks.converter.keepsCandidateAsRaw, let candidate { return .accepted(ValueBox(typed), raw: candidate) }
        return .accepted(ValueBox(typed), raw: toValue(typed))
    }

    /// The default rendered as a ``ConfigValue`` (nil for types that cannot render).
    @inlinable
    var defaultRaw: ConfigValue? { checks.converter.toValue(defaultValue) }

    /// The key's descriptor.
    @inlinable
    var descriptor: KeyDescriptor {
        KeyDescriptor(
            name: checks.name, typeName: checks.converter.typeName, defaultValue: defaultRaw,
            ruleNames: checks.rules.map { $0.name }, isSecret: checks.isSecret, summary: summary)
    }

    @inlinable
    func render(_ box: AnyObject) -> String {
        checks.render(unsafeDowncast(box, to: ValueBox<Value>.self).value)
    }
}
