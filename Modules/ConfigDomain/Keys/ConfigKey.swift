import Foundation

/// A typed configuration key: its name, its one default, and the rules a value must pass.
///
/// ```swift
/// extension ConfigKey where Value == Bool {
///     static let newCheckout = ConfigKey("new_checkout", default: false)
/// }
/// let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
/// ```
///
/// Create keys once (as `static let`s) and reuse them: each carries a ``KeyIdentity`` that
/// makes a read of a registered key an array index.
///
/// The initialisers and converters are `@inlinable`: compiled for your key's concrete type, a
/// key's converter is three plain functions, not closures that capture the type, and the key's
/// type-erased form, which a client registers and resolves, is made here once, specialised.
public struct ConfigKey<Value: Sendable>: Sendable {
    /// The process-unique identity used by the client's read path.
    public let identity: KeyIdentity
    /// Everything else about the key (name, default, conversion, rules), held once, behind
    /// non-generic functions made here, where `Value` is known.
    ///
    /// A key is these two words: copying one retains one object, and a key of any value type
    /// fits in an `any ConfigKeyRepresentable` without a box of its own.
    @usableFromInline package let erased: ErasedKey

    /// The key's name in payloads, for example `new_checkout`.
    @inlinable public var name: String { erased.name }
    /// The value read when no layer supplies a valid one.
    @inlinable public var defaultValue: Value { typed.defaultValue }
    /// Rules every candidate value must pass, in order.
    @inlinable public var rules: [ValidationRule<Value>] { typed.checks.rules }
    /// Whether values of this key are secret: messages and events redact them.
    @inlinable public var isSecret: Bool { typed.checks.isSecret }
    /// A one-line description for registries, inspection and tools.
    @inlinable public var summary: String? { typed.summary }
    /// How values convert to and from ``ConfigValue``.
    @inlinable public var converter: ValueConverter<Value> { typed.checks.converter }

    /// The typed half of ``erased``, which this key made for its own `Value`.
    @inlinable var typed: TypedKeyFunctions<Value> {
        unsafeDowncast(erased.functions, to: TypedKeyFunctions<Value>.self)
    }

    /// Creates a key with an explicit converter.
    @inlinable
    public init(
        name: String, default defaultValue: Value, converter: ValueConverter<Value>,
        rules: [ValidationRule<Value>] = [], secret: Bool = false, summary: String? = nil
    ) {
        let identity = KeyIdentity.next()
        self.identity = identity
        self.erased = ErasedKey(
            KeyChecks(name: name, isSecret: secret, converter: converter, rules: rules), identity: identity,
            defaultValue: defaultValue, summary: summary)
    }
}

extension ConfigKey where Value: ConfigValueConvertible {
    /// Creates a key for `Bool`, `Int`, `Double`, `String`, `URL` or an array of these.
    @inlinable
    public init(
        _ name: String, default defaultValue: Value, rules: [ValidationRule<Value>] = [], secret: Bool = false,
        summary: String? = nil
    ) {
        self.init(name: name, default: defaultValue, converter: .convertible, rules: rules, secret: secret, summary: summary)
    }

    /// Creates a key named by a string enum case.
    @inlinable
    public init<Name: RawRepresentable<String>>(
        _ name: Name, default defaultValue: Value, rules: [ValidationRule<Value>] = [], secret: Bool = false,
        summary: String? = nil
    ) {
        self.init(name.rawValue, default: defaultValue, rules: rules, secret: secret, summary: summary)
    }
}

extension ConfigKey where Value: RawRepresentable, Value.RawValue: ConfigValueConvertible {
    /// Creates a key for an enum read by its raw value (`String` or `Int`).
    @inlinable
    public init(
        _ name: String, default defaultValue: Value, rules: [ValidationRule<Value>] = [], secret: Bool = false,
        summary: String? = nil
    ) {
        self.init(
            name: name, default: defaultValue, converter: .rawRepresentable, rules: rules, secret: secret, summary: summary)
    }

    /// Creates an enum key named by a string enum case.
    @inlinable
    public init<Name: RawRepresentable<String>>(
        _ name: Name, default defaultValue: Value, rules: [ValidationRule<Value>] = [], secret: Bool = false,
        summary: String? = nil
    ) {
        self.init(name.rawValue, default: defaultValue, rules: rules, secret: secret, summary: summary)
    }
}

extension ConfigKey where Value: Decodable {
    /// Creates a key whose object or array value decodes into `Value`.
    ///
    /// ```swift
    /// struct Banner: Codable, Sendable { var title: String; var color: String }
    /// let banner = ConfigKey(decoding: "banner", default: Banner(title: "", color: "blue"))
    /// ```
    @inlinable
    public init(
        decoding name: String, default defaultValue: Value, rules: [ValidationRule<Value>] = [], secret: Bool = false,
        summary: String? = nil
    ) {
        self.init(name: name, default: defaultValue, converter: .decodable, rules: rules, secret: secret, summary: summary)
    }
}

extension ConfigKey {
    /// Converts `value` and runs every rule: the typed value, or the first rejection.
    ///
    /// - Parameter origin: where the value came from (a layer, a variable), kept in the rejection.
    public func resolve(_ value: ConfigValue, origin: String? = nil) -> Result<Value, Rejection> {
        do throws(Rejection) {
            return .success(try checks.accepting(value, origin: origin))
        } catch {
            return .failure(error)
        }
    }

    /// Coerces override text and runs every rule.
    public func resolve(text: String, origin: String? = nil) -> Result<Value, Rejection> {
        do throws(Rejection) {
            return .success(try checks.accepting(text: text, origin: origin))
        } catch {
            return .failure(error)
        }
    }

    /// Runs every rule on an already typed value.
    public func validate(_ value: Value, origin: String? = nil) -> Result<Value, Rejection> {
        do throws(Rejection) {
            try checks.validate(value, origin: origin)
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// The default as a ``ConfigValue``, when the type can render.
    public var defaultConfigValue: ConfigValue? { converter.toValue(defaultValue) }

    /// What a registry, an override source or a tool needs to know about this key.
    public var descriptor: KeyDescriptor { erased.descriptor }

    /// Renders a value for messages, redacted when the key is secret.
    public func render(_ value: Value) -> String { checks.render(value) }

    /// This key's conversion and rules.
    var checks: KeyChecks<Value> { typed.checks }
}
