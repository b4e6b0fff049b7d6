import Foundation

/// Encodes an `Encodable` value into a ``ConfigValue`` (used to render defaults of structured keys).
///
/// It builds the value tree directly, mirroring ``ConfigValueDecoder`` so that what it encodes
/// decodes back:
/// - `Bool` is `.bool`; every integer type is `.int` (a `UInt`/`UInt64` above `Int64.max` fails).
/// - `Double` is `.double`, so `1.0` stays a double; `Float` is `.double` of its shortest
///   decimal text (`0.1` stays `0.1`). NaN and infinities fail: JSON cannot hold them.
/// - `String` and `URL` (its absolute string) are `.string`.
/// - `Date` is an ISO-8601 string in UTC (`2024-05-01T12:00:00Z`; a date with a fraction of a
///   second gets milliseconds, `2024-05-01T12:00:00.250Z`, so finer parts are rounded away);
///   `Data` is a base64 string; `Decimal` is `.double`.
/// - `nil` in a keyed container is omitted by synthesized conformances, and `.null` when encoded explicitly.
public struct ConfigValueEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value`, or throws an `EncodingError` saying what cannot be represented.
    public func encode<T: Encodable>(_ value: T) throws -> ConfigValue {
        guard let node = try TreeEncoding.box(value, path: []) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) did not encode any value"))
        }
        return node.resolve()
    }
}

// MARK: - Nodes

/// A value under construction: containers stay mutable until the whole encode returns.
enum EncodedNode {
    case value(ConfigValue)
    case object(ObjectNode)
    case array(ArrayNode)
    /// An encoder handed out by `superEncoder`, filled in later.
    case deferred(TreeEncoder)

    func resolve() -> ConfigValue {
        switch self {
        case .value(let v): v
        case .object(let node): .object(node.members.mapValues { $0.resolve() })
        case .array(let node): .array(node.items.map { $0.resolve() })
        case .deferred(let encoder): encoder.node?.resolve() ?? .object([:])
        }
    }
}

/// The members of an object under construction.
final class ObjectNode {
    var members: [String: EncodedNode] = [:]
}

/// The elements of an array under construction.
final class ArrayNode {
    var items: [EncodedNode] = []
}

// MARK: - Conversions

enum TreeEncoding {
    static func double(_ d: Double, _ path: [any CodingKey]) throws -> ConfigValue {
        guard d.isFinite else {
            throw EncodingError.invalidValue(
                d, EncodingError.Context(codingPath: path, debugDescription: "\(d) cannot be represented in JSON"))
        }
        return .double(d)
    }

    static func float(_ f: Float, _ path: [any CodingKey]) throws -> ConfigValue {
        guard f.isFinite else {
            throw EncodingError.invalidValue(
                f, EncodingError.Context(codingPath: path, debugDescription: "\(f) cannot be represented in JSON"))
        }
        return .double(Double(f.description) ?? Double(f))
    }

    static func integer<T: FixedWidthInteger>(_ i: T, _ path: [any CodingKey]) throws -> ConfigValue {
        guard let v = Int64(exactly: i) else {
            throw EncodingError.invalidValue(
                i, EncodingError.Context(codingPath: path, debugDescription: "\(i) does not fit in a 64-bit signed integer"))
        }
        return .int(v)
    }

    /// Encodes any `Encodable`; `nil` when it encoded nothing at all.
    static func box<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodedNode? {
        switch value {
        case let v as String: return .value(.string(v))
        case let v as Bool: return .value(.bool(v))
        case let v as Int: return .value(.int(Int64(v)))
        case let v as Double: return .value(try double(v, path))
        case let v as URL: return .value(.string(v.absoluteString))
        case let v as Date: return .value(.string(ISO8601Text.string(from: v)))
        case let v as Data: return .value(.string(v.base64EncodedString()))
        case let v as Decimal: return .value(try double(NSDecimalNumber(decimal: v).doubleValue, path))
        default:
            let encoder = TreeEncoder(codingPath: path)
            try value.encode(to: encoder)
            return encoder.node
        }
    }

    /// Encodes a nested value; one that encoded nothing becomes an empty object.
    static func nested<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodedNode {
        try box(value, path: path) ?? .value(.object([:]))
    }
}

// MARK: - Encoder

/// The `Encoder` of one node.
final class TreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: EncodedNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object(let existing) = node {
            return KeyedEncodingContainer(ObjectEncoder<Key>(object: existing, codingPath: codingPath))
        }
        let object = ObjectNode()
        node = .object(object)
        return KeyedEncodingContainer(ObjectEncoder<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array(let existing) = node { return ArrayEncoder(array: existing, codingPath: codingPath) }
        let array = ArrayNode()
        node = .array(array)
        return ArrayEncoder(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        LeafEncoder(encoder: self)
    }
}

/// A keyed container writing an object's members.
struct ObjectEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectNode
    let codingPath: [any CodingKey]

    private func set(_ value: ConfigValue, _ key: Key) { object.members[key.stringValue] = .value(value) }

    mutating func encodeNil(forKey key: Key) { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try TreeEncoding.double(value, codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try TreeEncoding.float(value, codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { set(.int(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try TreeEncoding.integer(value, codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { set(.int(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        set(try TreeEncoding.integer(value, codingPath + [key]), key)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.members[key.stringValue] = try TreeEncoding.nested(value, path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: ObjectNode
        if case .object(let existing) = object.members[key.stringValue] {
            nested = existing
        } else {
            nested = ObjectNode()
            object.members[key.stringValue] = .object(nested)
        }
        return KeyedEncodingContainer(ObjectEncoder<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: ArrayNode
        if case .array(let existing) = object.members[key.stringValue] {
            nested = existing
        } else {
            nested = ArrayNode()
            object.members[key.stringValue] = .array(nested)
        }
        return ArrayEncoder(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: NameKey("super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let encoder = TreeEncoder(codingPath: codingPath + [key])
        object.members[key.stringValue] = .deferred(encoder)
        return encoder
    }
}

/// An unkeyed container appending an array's elements.
struct ArrayEncoder: UnkeyedEncodingContainer {
    let array: ArrayNode
    let codingPath: [any CodingKey]

    var count: Int { array.items.count }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(array.items.count)] }
    private func append(_ value: ConfigValue) { array.items.append(.value(value)) }

    mutating func encodeNil() { append(.null) }
    mutating func encode(_ value: Bool) { append(.bool(value)) }
    mutating func encode(_ value: String) { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try TreeEncoding.double(value, nextPath)) }
    mutating func encode(_ value: Float) throws { append(try TreeEncoding.float(value, nextPath)) }
    mutating func encode(_ value: Int) { append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) { append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) { append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) { append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) { append(.int(value)) }
    mutating func encode(_ value: UInt) throws { append(try TreeEncoding.integer(value, nextPath)) }
    mutating func encode(_ value: UInt8) { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) { append(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(try TreeEncoding.integer(value, nextPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try TreeEncoding.nested(value, path: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = ObjectNode()
        let path = nextPath
        array.items.append(.object(nested))
        return KeyedEncodingContainer(ObjectEncoder<NestedKey>(object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayNode()
        let path = nextPath
        array.items.append(.array(nested))
        return ArrayEncoder(array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TreeEncoder(codingPath: nextPath)
        array.items.append(.deferred(encoder))
        return encoder
    }
}

/// A single-value container setting its encoder's node.
struct LeafEncoder: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: ConfigValue) { encoder.node = .value(value) }

    mutating func encodeNil() { set(.null) }
    mutating func encode(_ value: Bool) { set(.bool(value)) }
    mutating func encode(_ value: String) { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try TreeEncoding.double(value, codingPath)) }
    mutating func encode(_ value: Float) throws { set(try TreeEncoding.float(value, codingPath)) }
    mutating func encode(_ value: Int) { set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) { set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) { set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) { set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) { set(.int(value)) }
    mutating func encode(_ value: UInt) throws { set(try TreeEncoding.integer(value, codingPath)) }
    mutating func encode(_ value: UInt8) { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) { set(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(try TreeEncoding.integer(value, codingPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try TreeEncoding.nested(value, path: codingPath)
    }
}
