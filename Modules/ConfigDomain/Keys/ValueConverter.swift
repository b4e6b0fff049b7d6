import Foundation

/// How a ``ConfigKey`` turns a ``ConfigValue`` (or override text) into its Swift type and back.
///
/// The key's initialisers pick one; make your own for a type the library does not know. A key
/// holds its converter by reference, so keys of one type can share one (the built-in types do).
public final class ValueConverter<Value: Sendable>: Sendable {
    /// The Swift type's name in messages, for example `Bool` or `Theme`.
    public var typeName: String { givenTypeName ?? String(describing: Value.self) }
    /// The name given at creation; without one, `typeName` asks the runtime, only when a message needs it.
    @usableFromInline let givenTypeName: String?
    /// Converts a parsed value.
    public let fromValue: @Sendable (ConfigValue) throws(ConversionError) -> Value
    /// Coerces override text typed by a person.
    public let fromText: @Sendable (String) throws(ConversionError) -> Value
    /// Renders a value back, or `nil` when the type cannot be rendered (a `Decodable`-only type).
    public let toValue: @Sendable (Value) -> ConfigValue?
    /// Whether two values are equal, when the type can tell; otherwise a client compares rendered values.
    public let isEqual: (@Sendable (Value, Value) -> Bool)?
    /// Converts a candidate with this converter, runs a key's rules on it and boxes it.
    ///
    /// Made where the converter is made, where `Value` is known, so that a client's activation,
    /// which handles keys of every type alike, converts and checks each key in code made for its type.
    @usableFromInline package let convertAndCheck:
        @Sendable (ValueConverter<Value>, CandidateValue, [ValidationRule<Value>]?) -> Result<any AnyObject & Sendable, Refusal>
    /// Whether two boxes hold equal values, by ``isEqual``; nil when the type cannot tell. Made with the converter, like ``convertAndCheck``.
    @usableFromInline package let boxesEqual: @Sendable (ValueConverter<Value>, AnyObject, AnyObject) -> Bool?
    /// Whether ``toValue`` runs an encoder (``decodable``), too costly to run when a key is created: a key's
    /// ``KeyFingerprint`` then hashes its default as the value itself, not rendered.
    @usableFromInline package let rendersByEncoding: Bool
    /// `ValueBox<Value>`, taken where the converter is made: code that runs for every type (a resolution
    /// for a context) unboxes through ``value(in:or:)`` without asking the runtime for the box's type.
    @usableFromInline package let boxType: ObjectIdentifier

    /// Creates a converter from its functions; `typeName` defaults to `Value`'s own name.
    @inlinable
    public convenience init(
        typeName: String? = nil,
        fromValue: @escaping @Sendable (ConfigValue) throws(ConversionError) -> Value,
        fromText: @escaping @Sendable (String) throws(ConversionError) -> Value,
        toValue: @escaping @Sendable (Value) -> ConfigValue?,
        isEqual: (@Sendable (Value, Value) -> Bool)? = nil
    ) {
        self.init(
            typeName: typeName, fromValue: fromValue, fromText: fromText, toValue: toValue, isEqual: isEqual,
            rendersByEncoding: false)
    }

    /// Creates a converter from its functions, saying whether `toValue` runs an encoder.
    @inlinable
    package init(
        typeName: String?,
        fromValue: @escaping @Sendable (ConfigValue) throws(ConversionError) -> Value,
        fromText: @escaping @Sendable (String) throws(ConversionError) -> Value,
        toValue: @escaping @Sendable (Value) -> ConfigValue?,
        isEqual: (@Sendable (Value, Value) -> Bool)?,
        rendersByEncoding: Bool
    ) {
        self.rendersByEncoding = rendersByEncoding
        self.boxType = ObjectIdentifier(ValueBox<Value>.self)
        self.givenTypeName = typeName
        self.fromValue = fromValue
        self.fromText = fromText
        self.toValue = toValue
        self.isEqual = isEqual
        self.convertAndCheck = { converter, candidate, rules in
            converter.check(candidate, rules: rules).map(ValueBox.boxing)
        }
        self.boxesEqual = { converter, a, b in converter.isEqual.map { ValueBox.equal(a, b, by: $0) } }
    }
}

extension ValueConverter {
    /// The value in `box` when it is a `ValueBox<Value>`, else `fallback`.
    package func value(in box: AnyObject, or fallback: Value) -> Value {
        guard ObjectIdentifier(type(of: box)) == boxType else { return fallback }
        return unsafeDowncast(box, to: ValueBox<Value>.self).value
    }

    /// Converts `candidate` and runs `rules` on the typed value: the value, or why it was refused.
    @inlinable
    package func check(_ candidate: CandidateValue, rules: [ValidationRule<Value>]?) -> Result<Value, Refusal> {
        let typed: Value
        do throws(ConversionError) {
            switch candidate {
            case .value(let value): typed = try fromValue(value)
            case .text(let text): typed = try fromText(text)
            }
        } catch {
            return .failure(.unconvertible(error))
        }
        if let rules, let failure = ValidationRule.firstFailure(of: typed, in: rules) {
            return .failure(.refused(rule: failure.rule, reason: failure.reason, shown: String(describing: typed)))
        }
        return .success(typed)
    }
}

/// Why a converter refused a candidate for a key.
@usableFromInline
package enum Refusal: Error {
    /// The value does not convert to the key's type.
    case unconvertible(ConversionError)
    /// The key's rule at index `rule` refused the value for `reason`; `shown` is the typed value as text.
    case refused(rule: Int, reason: String, shown: String)
}

extension ValueConverter where Value: ConfigValueConvertible {
    /// The converter of a ``ConfigValueConvertible`` type: its ``ConfigValueConvertible/configConverter``.
    @inlinable
    public static var convertible: ValueConverter<Value> { Value.configConverter }

    /// A new converter built from `Value`'s ``ConfigValueConvertible`` conformance.
    @inlinable
    public static func conforming() -> ValueConverter<Value> {
        ValueConverter(
            typeName: Value.configTypeName,
            fromValue: { (v: ConfigValue) throws(ConversionError) -> Value in try Value(configValue: v) },
            fromText: { (t: String) throws(ConversionError) -> Value in try Value(configText: t) },
            toValue: { $0.configValue }, isEqual: { $0 == $1 })
    }
}

extension ValueConverter where Value: RawRepresentable, Value.RawValue: ConfigValueConvertible {
    /// The converter of an enum (or any raw-representable type) read by its raw value.
    @inlinable
    public static var rawRepresentable: ValueConverter<Value> {
        @Sendable func make(_ raw: Value.RawValue, found: () -> String) throws(ConversionError) -> Value {
            if let value = Value(rawValue: raw) { return value }
            let typeName = String(describing: Value.self)
            var reason = "no case of \(typeName) has the raw value \(raw)"
            if let all = (Value.self as? any CaseIterable.Type)?.allCases as? any Collection {
                let names = all.compactMap { ($0 as? Value).map { "\($0.rawValue)" } }
                reason += "; expected one of \(names.joined(separator: ", "))"
            }
            throw ConversionError(expectedType: typeName, found: found(), reason: reason)
        }
        return ValueConverter(
            fromValue: { (v: ConfigValue) throws(ConversionError) -> Value in
                try make(try Value.RawValue(configValue: v), found: { v.jsonText() })
            },
            fromText: { (t: String) throws(ConversionError) -> Value in
                try make(try Value.RawValue(configText: t), found: { t })
            },
            toValue: { $0.rawValue.configValue }, isEqual: { $0.rawValue == $1.rawValue })
    }
}

extension ValueConverter where Value: Decodable {
    /// The converter of a `Decodable` type, decoded from the ``ConfigValue`` by Foundation's `JSONDecoder` (see ``ConfigValueDecoder``).
    ///
    /// A decoding failure names the path inside the value, for example `items[2].price`.
    /// When the type is also `Encodable`, values render for provenance and change detection.
    @inlinable
    public static var decodable: ValueConverter<Value> {
        @Sendable func decode(_ value: ConfigValue, found: String) throws(ConversionError) -> Value {
            do throws(DecodingFailure) {
                return try ConfigValueDecoder().decode(Value.self, from: value)
            } catch {
                throw ConversionError(expectedType: String(describing: Value.self), found: found, reason: error.description)
            }
        }
        return ValueConverter(
            typeName: nil,
            fromValue: { (v: ConfigValue) throws(ConversionError) -> Value in try decode(v, found: v.jsonText()) },
            fromText: { (t: String) throws(ConversionError) -> Value in
                let parsed: ConfigValue
                do throws(JSONParseError) {
                    parsed = try JSONParser().parse(Data(t.utf8))
                } catch {
                    throw ConversionError(
                        expectedType: String(describing: Value.self), found: t, reason: "not valid JSON text: \(error)")
                }
                return try decode(parsed, found: t)
            },
            toValue: { value in
                guard let encodable = value as? any Encodable else { return nil }
                return try? ConfigValueEncoder().encode(encodable)
            },
            isEqual: nil, rendersByEncoding: true)
    }
}
