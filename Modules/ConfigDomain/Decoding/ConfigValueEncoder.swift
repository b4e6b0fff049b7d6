import Foundation

/// Encodes an `Encodable` value into a ``ConfigValue`` that ``ConfigValueDecoder`` reads back (used to render defaults).
///
/// - `Bool` is `.bool`; every integer type is `.int` (a `UInt`/`UInt64` above `Int64.max` fails).
/// - `Double` is `.double`, so `1.0` stays a double; `Float` is `.double` of its shortest decimal
///   text (`0.1` stays `0.1`); `Decimal` is `.double`. NaN and infinities fail.
/// - `String` and `URL` (its absolute string) are `.string`; `Data` is a base64 string; `Date` is an
///   ISO-8601 string in UTC (`2024-05-01T12:00:00Z`, with milliseconds when it has a fraction of a second).
/// - `nil` in a keyed container is omitted by synthesized conformances, and `.null` when encoded explicitly.
public struct ConfigValueEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value`, or throws an `EncodingError` saying what cannot be represented.
    public func encode<T: Encodable>(_ value: T) throws -> ConfigValue {
        guard let node = try EncodedNode.encoding(value, path: []) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(T.self) did not encode any value"))
        }
        return node.resolve()
    }
}

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

    /// Encodes any `Encodable`, the primitive types included; `nil` when it encoded nothing at all.
    /// It takes an existential, so the containers' generic `encode` methods share this one body.
    static func encoding(_ value: any Encodable, path: [any CodingKey]) throws -> EncodedNode? {
        func invalid(_ reason: String) -> EncodingError {
            EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: reason))
        }
        func finite(_ d: Double) throws -> EncodedNode {
            guard d.isFinite else { throw invalid("\(value) cannot be represented in JSON") }
            return .value(.double(d))
        }
        switch value {
        case let v as Bool: return .value(.bool(v))
        case let v as String: return .value(.string(v))
        case let v as Double: return try finite(v)
        case let v as Float: return try finite(Double(v.description) ?? Double(v))  // `0.1` stays `0.1`.
        case let v as Decimal: return try finite(NSDecimalNumber(decimal: v).doubleValue)
        case let v as any FixedWidthInteger:
            guard let i = Int64(exactly: v) else { throw invalid("\(v) does not fit in a 64-bit signed integer") }
            return .value(.int(i))
        case let v as URL: return .value(.string(v.absoluteString))
        case let v as Date: return .value(.string(ISO8601Text.string(from: v)))
        case let v as Data: return .value(.string(v.base64EncodedString()))
        default:
            let encoder = TreeEncoder(codingPath: path)
            try value.encode(to: encoder)
            return encoder.node
        }
    }

    /// Encodes a nested value; one that encoded nothing becomes an empty object.
    static func nested(_ value: any Encodable, path: [any CodingKey]) throws -> EncodedNode {
        try encoding(value, path: path) ?? .value(.object([:]))
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

/// A keyed container writing an object's members. The generic `encode` serves every value type.
struct ObjectEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: ObjectNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { object.members[key.stringValue] = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.members[key.stringValue] = try EncodedNode.nested(value, path: codingPath + [key])
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

/// An unkeyed container appending an array's elements. The generic `encode` serves every value type.
struct ArrayEncoder: UnkeyedEncodingContainer {
    let array: ArrayNode
    let codingPath: [any CodingKey]

    var count: Int { array.items.count }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(array.items.count)] }

    mutating func encodeNil() { array.items.append(.value(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try EncodedNode.nested(value, path: nextPath))
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

/// A single-value container setting its encoder's node. The generic `encode` serves every value type.
struct LeafEncoder: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.node = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try EncodedNode.nested(value, path: codingPath)
    }
}
