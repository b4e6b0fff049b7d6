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
    /// The key's name in payloads, for example `new_checkout`.
    public let name: String
    /// Rules every candidate value must pass, in order.
    public let rules: [ValidationRule<Value>]
    /// Whether values of this key are secret: messages and events redact them.
    public let isSecret: Bool
    /// A one-line description for registries, inspection and tools.
    public let summary: String?
    /// How values convert to and from ``ConfigValue``.
    public let converter: ValueConverter<Value>
    /// The process-unique identity used by the client's read path.
    public let identity: KeyIdentity
    /// This key's conversion work behind non-generic functions, made here, where `Value` is known.
    @usableFromInline package let erased: ErasedKey
    /// The value read when no layer supplies a valid one.
    ///
    /// Stored last: every field before it then sits at a fixed offset, so code that is generic
    /// over `Value` (the client's resolver) reads them without looking up this type's metadata.
    public let defaultValue: Value

    /// Creates a key with an explicit converter.
    @inlinable
    public init(
        name: String, default defaultValue: Value, converter: ValueConverter<Value>,
        rules: [ValidationRule<Value>] = [], secret: Bool = false, summary: String? = nil
    ) {
        self.name = name
        self.defaultValue = defaultValue
        self.rules = rules
        self.isSecret = secret
        self.summary = summary
        self.converter = converter
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
    var checks: KeyChecks<Value> { KeyChecks(name: name, isSecret: isSecret, converter: converter, rules: rules) }
}
