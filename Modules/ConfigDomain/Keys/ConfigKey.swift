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
/// key's converter is three plain functions, not closures that capture the type (an allocation each).
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
        self.identity = .next()
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
            return .success(try accepting(value, origin: origin))
        } catch {
            return .failure(error)
        }
    }

    /// Coerces override text and runs every rule.
    public func resolve(text: String, origin: String? = nil) -> Result<Value, Rejection> {
        do throws(Rejection) {
            return .success(try accepting(text: text, origin: origin))
        } catch {
            return .failure(error)
        }
    }

    /// ``resolve(_:origin:)`` for the client's resolver: the same checks, with the rejection thrown.
    ///
    /// The value's text (for the rejection's message) is rendered only when a rule refuses it,
    /// and no `Result` of the generic `Value` is built: this runs once per key per activation.
    package func accepting(_ value: ConfigValue, origin: String?) throws(Rejection) -> Value {
        let typed: Value
        do throws(ConversionError) {
            typed = try converter.fromValue(value)
        } catch {
            throw rejection(
                found: value.jsonText(), secrets: Self.leafTexts(of: value), rule: "type(\(converter.typeName))",
                reason: error.reason, origin: origin)
        }
        if rules.isEmpty { return typed }
        try validate(typed, rendered: { value.jsonText() }, secrets: { Self.leafTexts(of: value) }, origin: origin)
        return typed
    }

    /// ``resolve(text:origin:)`` with the rejection thrown (see ``accepting(_:origin:)``).
    package func accepting(text: String, origin: String?) throws(Rejection) -> Value {
        let typed: Value
        do throws(ConversionError) {
            typed = try converter.fromText(text)
        } catch {
            throw rejection(
                found: text, secrets: Self.textSecrets(text), rule: "type(\(converter.typeName))", reason: error.reason,
                origin: origin)
        }
        if rules.isEmpty { return typed }
        try validate(typed, rendered: { text }, secrets: { Self.textSecrets(text) }, origin: origin)
        return typed
    }

    /// Runs every rule on an already typed value.
    public func validate(_ value: Value, origin: String? = nil) -> Result<Value, Rejection> {
        do throws(Rejection) {
            try validate(
                value, rendered: { render(value) },
                secrets: { isSecret ? converter.toValue(value).map(Self.leafTexts(of:)) ?? [] : [] }, origin: origin)
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    /// The default as a ``ConfigValue``, when the type can render.
    public var defaultConfigValue: ConfigValue? { converter.toValue(defaultValue) }

    /// What a registry, an override source or a tool needs to know about this key.
    public var descriptor: KeyDescriptor {
        KeyDescriptor(
            name: name, typeName: converter.typeName, defaultValue: defaultConfigValue,
            ruleNames: rules.map { $0.name }, isSecret: isSecret, summary: summary)
    }

    /// Renders a value for messages, redacted when the key is secret.
    public func render(_ value: Value) -> String {
        if isSecret { return Rejection.redacted }
        return converter.toValue(value)?.jsonText() ?? String(describing: value)
    }

    /// Throws the first rule's rejection; `rendered` and `secrets` are only evaluated then.
    private func validate(
        _ typed: Value, rendered: () -> String, secrets: () -> [String], origin: String?
    ) throws(Rejection) {
        for rule in rules {
            if let reason = rule.evaluate(typed) {
                throw rejection(found: rendered(), secrets: secrets(), rule: rule.name, reason: reason, typed: typed, origin: origin)
            }
        }
    }

    /// The texts of an override that may not show in a secret key's reason.
    private static func textSecrets(_ text: String) -> [String] {
        [text, text.trimmingCharacters(in: .whitespacesAndNewlines)]
    }

    /// A rejection; for a secret key the value is redacted and the reason may not show any of `secrets`.
    ///
    /// Built-in rules start their reason with the value (`42 is outside 0...10`): for a secret key
    /// that becomes `the value is outside 0...10`. A reason that still shows any part of the
    /// value is replaced by one that names only the rule.
    private func rejection(
        found: String, secrets: [String], rule: String, reason: String, typed: Value? = nil, origin: String?
    ) -> Rejection {
        guard isSecret else { return Rejection(key: name, value: found, rule: rule, reason: reason, origin: origin) }
        var safeReason = reason
        var hidden = secrets + [found]
        if let typed {
            let shown = String(describing: typed)
            if !shown.isEmpty, safeReason.hasPrefix(shown + " ") {
                safeReason = "the value" + safeReason.dropFirst(shown.count)
            }
            hidden.append(shown)
        }
        if hidden.contains(where: { !$0.isEmpty && safeReason.contains($0) }) {
            safeReason =
                typed == nil
                ? "the value is not a valid \(converter.typeName); details are hidden because the key is secret"
                : "the value fails \(rule); details are hidden because the key is secret"
        }
        return Rejection(key: name, value: Rejection.redacted, rule: rule, reason: safeReason, origin: origin)
    }

    /// Every piece of text a value holds (strings, numbers, object keys), to keep secrets out of reasons.
    private static func leafTexts(of value: ConfigValue) -> [String] {
        switch value {
        case .null: []
        case .bool(let b): [b ? "true" : "false"]
        case .int(let i): [String(i)]
        case .double: [value.jsonText()]
        case .string(let s): [s]
        case .array(let items): items.flatMap(leafTexts(of:))
        case .object(let members): members.flatMap { [$0.key] + leafTexts(of: $0.value) }
        }
    }
}
