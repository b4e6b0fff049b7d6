import Foundation

/// A JSON-faithful configuration value: `1`, `1.0` and `true` stay three different values.
///
/// Conversion to a key's Swift type follows the rules documented on ``ConfigValueConvertible``.
public enum ConfigValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// JSON `true` or `false`.
    case bool(Bool)
    /// A JSON number written without a fraction or exponent that fits in 64 bits.
    case int(Int64)
    /// A JSON number written with a fraction or an exponent.
    case double(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([ConfigValue])
    /// A JSON object. Keys are unique: the parser rejects duplicates.
    case object([String: ConfigValue])

    /// The kind of this value, for messages and type checks.
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The seven kinds of ``ConfigValue``.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// JSON `null`.
        case null
        /// A Boolean.
        case bool
        /// An integer number.
        case int
        /// A floating-point number.
        case double
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object

        /// The kind's name as used in messages, for example `bool`.
        public var description: String { rawValue }
    }
}

extension ConfigValue {
    /// The Boolean payload, if this is a `.bool`.
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The integer payload, if this is an `.int`.
    public var intValue: Int64? { if case .int(let v) = self { v } else { nil } }
    /// The floating-point payload, if this is a `.double`.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The string payload, if this is a `.string`.
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    /// The elements, if this is an `.array`.
    public var arrayValue: [ConfigValue]? { if case .array(let v) = self { v } else { nil } }
    /// The members, if this is an `.object`.
    public var objectValue: [String: ConfigValue]? { if case .object(let v) = self { v } else { nil } }
    /// Whether this is `.null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The member at `key`, if this is an object that has it.
    public subscript(key: String) -> ConfigValue? { objectValue?[key] }
}

extension ConfigValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// Creates `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// Creates `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates `.array`.
    public init(arrayLiteral elements: ConfigValue...) { self = .array(elements) }
    /// Creates `.object`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, ConfigValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
