import Foundation

/// A typed setting: its name, its one default, the rules a value must pass, and how it converts.
///
/// ```swift
/// enum Flags {
///     static let newCheckout = ConfigKey("new_checkout", default: false)
///     static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
/// }
/// ```
///
/// A key is a plain value, identified by its name and definition: two keys with the same name, value
/// type, default and rules are the same setting everywhere (reads, overrides, `explain`, streams),
/// wherever they were created. A client reads a key with a registered name and type but another
/// default, rule set, secrecy or summary on its own, with its own default and rules, and reports it
/// (`ConfigEvent.keyDefinitionMismatch`): declare a key once and reuse it.
public struct ConfigKey<Value: Sendable>: Sendable {
    /// The key's name in payloads, for example `new_checkout`.
    public let name: String
    /// The key's fingerprint (a hash of its name and one of its name and definition, computed once): a
    /// client finds a key's slot by it on each read, touching no reference-counted field of the key.
    @usableFromInline package let fingerprint: KeyFingerprint
    /// How values convert to and from ``ConfigValue``.
    public let converter: ValueConverter<Value>
    /// The key's rules, summary and secrecy; nil for a key without any (most keys).
    @usableFromInline package let details: Details?
    /// The value read when no layer supplies a valid one.
    public let defaultValue: Value

    /// Rules every candidate value must pass, in order.
    public var rules: [ValidationRule<Value>] { details?.rules ?? [] }
    /// A one-line description for registries, inspection and tools.
    public var summary: String? { details?.summary }
    /// Whether values of this key are secret: messages and events redact them.
    public var isSecret: Bool { details?.isSecret ?? false }

    /// Creates a key with an explicit converter.
    @inlinable
    public init(
        name: String, default defaultValue: Value, converter: ValueConverter<Value>,
        rules: [ValidationRule<Value>] = [], secret: Bool = false, summary: String? = nil
    ) {
        self.name = name
        self.defaultValue = defaultValue
        self.converter = converter
        self.details =
            rules.isEmpty && !secret && summary == nil ? nil : Details(rules: rules, isSecret: secret, summary: summary)
        self.fingerprint = KeyFingerprint(
            name: name, defaultValue: defaultValue, converter: converter, rules: rules, isSecret: secret, summary: summary)
    }

    /// What a key has beyond its name, default and converter, held by reference to keep keys small
    /// (see "What a resident key costs" in `Integration/Benchmarks/README.md`).
    @usableFromInline
    package final class Details: Sendable {
        @usableFromInline let rules: [ValidationRule<Value>]
        @usableFromInline let isSecret: Bool
        @usableFromInline let summary: String?

        @inlinable
        init(rules: [ValidationRule<Value>], isSecret: Bool, summary: String?) {
            self.rules = rules
            self.isSecret = isSecret
            self.summary = summary
        }
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
    /// The default as a ``ConfigValue``, when the type can render.
    public var defaultConfigValue: ConfigValue? { converter.toValue(defaultValue) }

    /// What a registry, an override source or a tool needs to know about this key.
    public var descriptor: KeyDescriptor {
        KeyDescriptor(
            name: name, typeName: converter.typeName, defaultValue: defaultConfigValue,
            ruleNames: rules.map { $0.name },
            isSecret: isSecret, summary: summary)
    }

    /// Problems with the key's rules themselves (an invalid pattern), as `rule: problem` lines.
    public var ruleProblems: [String] {
        guard let rules = details?.rules, !rules.isEmpty else { return [] }
        return rules.compactMap { rule in rule.configurationProblem.map { "\(rule.name): \($0)" } }
    }
}
