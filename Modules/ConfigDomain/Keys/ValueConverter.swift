import Foundation

/// How a ``ConfigKey`` turns a ``ConfigValue`` (or override text) into its Swift type and back.
///
/// Built by the key's initialisers: you rarely make one yourself, but you can, for a type the
/// library does not know.
public struct ValueConverter<Value: Sendable>: Sendable {
    // Stored: one function that hands out the others, then the one-byte flag. The built-in
    // converters' function captures nothing (it is made where `Value` is concrete, and returns
    // functions compiled for it), so a converter is 17 bytes and no allocation. Every key holds
    // one, and a cold start creates every key: three stored closures and a type name were 48
    // bytes more per key, about a page of new memory per 85 keys.

    /// Hands out the three functions and the type's name.
    @usableFromInline let functions: @Sendable () -> ConverterFunctions<Value>
    /// Whether a client keeps a parsed candidate itself as the value's raw form, instead of
    /// rendering the typed value back with ``toValue`` (true for `Decodable` types: rendering them
    /// runs an encoder, which a cold start would otherwise run for every such key, and the
    /// candidate keeps the fields the type ignores).
    @usableFromInline let keepsCandidateAsRaw: Bool

    /// Converts a parsed value.
    @inlinable
    public var fromValue: @Sendable (ConfigValue) throws(ConversionError) -> Value { functions().fromValue }
    /// Coerces override text typed by a person.
    @inlinable
    public var fromText: @Sendable (String) throws(ConversionError) -> Value { functions().fromText }
    /// Renders a value back, or `nil` when the type cannot be rendered (a `Decodable`-only type).
    @inlinable
    public var toValue: @Sendable (Value) -> ConfigValue? { functions().toValue }
    /// The Swift type's name in messages, for example `Bool` or `Theme`.
    ///
    /// Rendered when a message needs it, unless the converter was given a name: rendering a
    /// type's name is slow, and a cold start creates every key.
    public var typeName: String { functions().namedType ?? nameOfType(Value.self) }

    /// Creates a converter from its three functions.
    @inlinable
    public init(
        typeName: String,
        fromValue: @escaping @Sendable (ConfigValue) throws(ConversionError) -> Value,
        fromText: @escaping @Sendable (String) throws(ConversionError) -> Value,
        toValue: @escaping @Sendable (Value) -> ConfigValue?
    ) {
        let functions = ConverterFunctions(namedType: typeName, fromValue: fromValue, fromText: fromText, toValue: toValue)
        self.init(functions: { functions }, keepsCandidateAsRaw: false)
    }

    /// Creates a converter whose ``typeName`` is `Value`'s own name.
    @inlinable
    public init(
        fromValue: @escaping @Sendable (ConfigValue) throws(ConversionError) -> Value,
        fromText: @escaping @Sendable (String) throws(ConversionError) -> Value,
        toValue: @escaping @Sendable (Value) -> ConfigValue?
    ) {
        let functions = ConverterFunctions(namedType: nil, fromValue: fromValue, fromText: fromText, toValue: toValue)
        self.init(functions: { functions }, keepsCandidateAsRaw: false)
    }

    @inlinable
    init(functions: @escaping @Sendable () -> ConverterFunctions<Value>, keepsCandidateAsRaw: Bool) {
        self.functions = functions
        self.keepsCandidateAsRaw = keepsCandidateAsRaw
    }
}

/// What a ``ValueConverter`` hands out: its three functions and the name it was given.
@usableFromInline
struct ConverterFunctions<Value: Sendable>: Sendable {
    /// The name given at creation; nil names the type after `Value`.
    @usableFromInline let namedType: String?
    @usableFromInline let fromValue: @Sendable (ConfigValue) throws(ConversionError) -> Value
    @usableFromInline let fromText: @Sendable (String) throws(ConversionError) -> Value
    @usableFromInline let toValue: @Sendable (Value) -> ConfigValue?

    @inlinable
    init(
        namedType: String?,
        fromValue: @escaping @Sendable (ConfigValue) throws(ConversionError) -> Value,
        fromText: @escaping @Sendable (String) throws(ConversionError) -> Value,
        toValue: @escaping @Sendable (Value) -> ConfigValue?
    ) {
        self.namedType = namedType
        self.fromValue = fromValue
        self.fromText = fromText
        self.toValue = toValue
    }
}

extension ValueConverter where Value: ConfigValueConvertible {
    /// The converter of a ``ConfigValueConvertible`` type.
    @inlinable
    public static var convertible: ValueConverter<Value> {
        ValueConverter(
            functions: {
                ConverterFunctions(
                    namedType: Value.configTypeName,
                    fromValue: { (v: ConfigValue) throws(ConversionError) -> Value in try Value(configValue: v) },
                    fromText: { (t: String) throws(ConversionError) -> Value in try Value(configText: t) },
                    toValue: { $0.configValue })
            }, keepsCandidateAsRaw: false)
    }
}

extension ValueConverter where Value: RawRepresentable, Value.RawValue: ConfigValueConvertible {
    /// The converter of an enum (or any raw-representable type) read by its raw value.
    @inlinable
    public static var rawRepresentable: ValueConverter<Value> {
        // `found` is rendered only for the error: this runs for every enum key at every activation.
        @Sendable func make(_ raw: Value.RawValue, found: () -> String) throws(ConversionError) -> Value {
            guard let v = Value(rawValue: raw) else {
                let typeName = nameOfType(Value.self)
                var reason = "no case of \(typeName) has the raw value \(raw)"
                if let all = (Value.self as? any CaseIterable.Type)?.allCases as? any Collection {
                    let names = all.compactMap { ($0 as? Value).map { "\($0.rawValue)" } }
                    reason += "; expected one of \(names.joined(separator: ", "))"
                }
                throw ConversionError(expectedType: typeName, found: found(), reason: reason)
            }
            return v
        }
        return ValueConverter(
            functions: {
                ConverterFunctions(
                    namedType: nil,
                    fromValue: { (v: ConfigValue) throws(ConversionError) -> Value in
                        try make(try Value.RawValue(configValue: v), found: { v.jsonText() })
                    },
                    fromText: { (t: String) throws(ConversionError) -> Value in
                        try make(try Value.RawValue(configText: t), found: { t })
                    },
                    toValue: { $0.rawValue.configValue })
            }, keepsCandidateAsRaw: false)
    }
}

extension ValueConverter where Value: Decodable {
    /// The converter of a `Decodable` type, decoded straight from the ``ConfigValue`` tree.
    ///
    /// A decoding failure names the path inside the value, for example `items[2].price`.
    /// When the type is also `Encodable`, defaults render for provenance and change detection.
    @inlinable
    public static var decodable: ValueConverter<Value> {
        ValueConverter(
            functions: {
                ConverterFunctions(
                    namedType: nil,
                    fromValue: { (v: ConfigValue) throws(ConversionError) -> Value in
                        do throws(DecodingFailure) {
                            return try ConfigValueDecoder().decode(Value.self, from: v)
                        } catch {
                            throw ConversionError(
                                expectedType: nameOfType(Value.self), found: v.jsonText(), reason: error.description)
                        }
                    },
                    fromText: { (t: String) throws(ConversionError) -> Value in
                        let parsed: ConfigValue
                        do throws(JSONParseError) {
                            parsed = try JSONParser().parse(Data(t.utf8))
                        } catch {
                            throw ConversionError(
                                expectedType: nameOfType(Value.self), found: t, reason: "not valid JSON text: \(error)")
                        }
                        do throws(DecodingFailure) {
                            return try ConfigValueDecoder().decode(Value.self, from: parsed)
                        } catch {
                            throw ConversionError(expectedType: nameOfType(Value.self), found: t, reason: error.description)
                        }
                    },
                    toValue: { value in
                        guard let encodable = value as? any Encodable else { return nil }
                        return try? ConfigValueEncoder().encode(encodable)
                    })
            }, keepsCandidateAsRaw: true)
    }
}
