import Foundation

/// Decodes a `Decodable` type from a ``ConfigValue`` with the same strict rules as typed keys.
///
/// It walks the value tree directly (no JSON text, no `JSONDecoder`, no `NSNumber`), so the
/// rules of ``ConfigValueConvertible`` hold inside structured values too:
/// - `Bool` reads only `true`/`false`; `1` and `"true"` are not Booleans.
/// - `Int`, `Int8` … `Int64` and `UInt`, `UInt8` … `UInt64` read integers that fit, and doubles
///   only when integral and exact (`2.0` is `2`, `2.5` and `300` for `Int8` fail).
/// - `Double` reads doubles and integers; `Float` too, but fails when the number is beyond
///   `Float`'s finite range (it may round).
/// - `String` reads only strings: a string is never silently a number, nor a number a string.
/// - `URL` reads a string that is an absolute URL with a scheme.
/// - `Date` reads an ISO-8601 (RFC 3339) date-time string with a time zone, with or without
///   fractional seconds, such as `"2024-05-01T12:00:00Z"` or `"2024-05-01T14:00:00.250+02:00"`.
/// - `Data` reads a base64 string (RFC 4648, with padding).
/// - `Decimal` reads an integer or a double.
/// - `Optional` reads `null`, or a missing key, as `nil`.
///
/// A failure is a ``DecodingFailure`` naming the path inside the value (`items[2].price`) and
/// what was found there (`expected Double, found a JSON string "abc"`). `userInfo` is empty.
public struct ConfigValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `type` from `value`, or throws where and why it does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: ConfigValue) throws(DecodingFailure) -> T {
        do {
            return try TreeDecoding.unbox(value, as: T.self, path: [])
        } catch {
            throw DecodingFailure(wrapping: error, at: [])
        }
    }
}

// MARK: - Conversions

/// The conversion rules, shared by the three kinds of container.
enum TreeDecoding {
    static func bool(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> Bool {
        guard case .bool(let b) = value else { throw .mismatch("Bool", found: value, at: path) }
        return b
    }

    static func string(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> String {
        guard case .string(let s) = value else { throw .mismatch("String", found: value, at: path) }
        return s
    }

    static func double(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> Double {
        switch value {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: throw .mismatch("Double", found: value, at: path)
        }
    }

    static func float(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> Float {
        let d: Double
        switch value {
        case .double(let v): d = v
        case .int(let i): d = Double(i)
        default: throw .mismatch("Float", found: value, at: path)
        }
        let f = Float(d)
        guard f.isFinite || !d.isFinite else {
            throw .mismatch("Float", found: value, at: path, detail: "which is beyond Float's range")
        }
        return f
    }

    static func integer<T: FixedWidthInteger>(
        _ value: ConfigValue, as type: T.Type, _ path: [any CodingKey]
    ) throws(DecodingFailure) -> T {
        let exact: T? =
            switch value {
            case .int(let i): T(exactly: i)
            case .double(let d): T(exactly: d)
            default: nil
            }
        guard let exact else { throw integerMismatch(value, type, path) }
        return exact
    }

    /// Why `value` is not a `type`: not a number, not a whole number, or out of the type's range.
    private static func integerMismatch(
        _ value: ConfigValue, _ type: any FixedWidthInteger.Type, _ path: [any CodingKey]
    ) -> DecodingFailure {
        let name = String(describing: type)
        switch value {
        case .double(let d) where d != d.rounded(.towardZero):
            return .mismatch(name, found: value, at: path, detail: "which is not a whole number")
        case .int, .double:
            return .mismatch(name, found: value, at: path, detail: "which does not fit in \(name) (\(type.min)...\(type.max))")
        default:
            return .mismatch(name, found: value, at: path)
        }
    }

    static func url(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> URL {
        guard case .string(let s) = value else { throw .mismatch("URL", found: value, at: path) }
        do throws(ConversionError) {
            return try URL(configText: s)
        } catch {
            throw .mismatch("URL", found: value, at: path, detail: "which is \(error.reason)")
        }
    }

    static func date(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> Date {
        guard case .string(let s) = value else {
            throw .mismatch("Date (an ISO-8601 string such as \"2024-05-01T12:00:00Z\")", found: value, at: path)
        }
        guard let date = ISO8601Text.date(from: s) else {
            throw .mismatch(
                "Date", found: value, at: path,
                detail: "which is not an ISO-8601 date-time with a time zone such as \"2024-05-01T12:00:00Z\"")
        }
        return date
    }

    static func data(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> Data {
        guard case .string(let s) = value else {
            throw .mismatch("Data (a base64 string)", found: value, at: path)
        }
        guard let data = Data(base64Encoded: s) else {
            throw .mismatch("Data", found: value, at: path, detail: "which is not valid base64")
        }
        return data
    }

    static func decimal(_ value: ConfigValue, _ path: [any CodingKey]) throws(DecodingFailure) -> Decimal {
        switch value {
        case .int(let i): return Decimal(i)
        case .double(let d):
            // The shortest text that round-trips the double, so 0.1 reads as 0.1, not 0.1000000000000000055….
            guard let decimal = Decimal(string: d.description, locale: Locale(identifier: "en_US_POSIX")) else {
                throw .mismatch("Decimal", found: value, at: path)
            }
            return decimal
        default:
            throw .mismatch("Decimal", found: value, at: path)
        }
    }

    /// Decodes any `Decodable`, intercepting the types whose own `Codable` form is not the JSON one.
    static func unbox<T: Decodable>(_ value: ConfigValue, as type: T.Type, path: [any CodingKey]) throws -> T {
        // URL, Date, Data and Decimal have a `Codable` form that is not their JSON one; the four
        // common leaves before them are read directly, without a decoder.
        if T.self == String.self, let v = try string(value, path) as? T { return v }
        if T.self == Int.self, let v = try integer(value, as: Int.self, path) as? T { return v }
        if T.self == Bool.self, let v = try bool(value, path) as? T { return v }
        if T.self == Double.self, let v = try double(value, path) as? T { return v }
        if T.self == URL.self, let v = try url(value, path) as? T { return v }
        if T.self == Date.self, let v = try date(value, path) as? T { return v }
        if T.self == Data.self, let v = try data(value, path) as? T { return v }
        if T.self == Decimal.self, let v = try decimal(value, path) as? T { return v }
        do {
            return try T(from: TreeDecoder(value: value, codingPath: path))
        } catch {
            throw DecodingFailure(wrapping: error, at: path)
        }
    }
}

/// ISO-8601 date-time text, with or without fractional seconds.
enum ISO8601Text {
    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let whole = date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate
        formatter.formatOptions = whole ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

// MARK: - Decoder

/// The `Decoder` over one node of a ``ConfigValue`` tree.
final class TreeDecoder: Decoder {
    let value: ConfigValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: ConfigValue, codingPath: [any CodingKey]) {
        self.value = value
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw DecodingFailure.mismatch("an object", found: value, at: codingPath) }
        return KeyedDecodingContainer(ObjectContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw DecodingFailure.mismatch("an array", found: value, at: codingPath) }
        return ArrayContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        LeafContainer(value: value, codingPath: codingPath)
    }
}

/// A keyed container over an object's members.
struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: ConfigValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key, expected: @autoclosure () -> String) throws(DecodingFailure) -> ConfigValue {
        guard let value = members[key.stringValue] else {
            throw DecodingFailure(
                path: CodingPathText.render(codingPath + [key]),
                reason: "missing required key \"\(key.stringValue)\" (expected \(expected()))")
        }
        return value
    }

    /// `true` for `null` and for a missing key: both read as `nil`.
    func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue]?.isNull ?? true }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try TreeDecoding.bool(try member(key, expected: "Bool"), codingPath + [key])
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try TreeDecoding.string(try member(key, expected: "String"), codingPath + [key])
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try TreeDecoding.double(try member(key, expected: "Double"), codingPath + [key])
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try TreeDecoding.float(try member(key, expected: "Float"), codingPath + [key])
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<T: FixedWidthInteger>(_ key: Key) throws(DecodingFailure) -> T {
        try TreeDecoding.integer(try member(key, expected: String(describing: T.self)), as: T.self, codingPath + [key])
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try TreeDecoding.unbox(try member(key, expected: String(describing: T.self)), as: T.self, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: try member(key, expected: "an object"), codingPath: codingPath + [key])
            .container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: try member(key, expected: "an array"), codingPath: codingPath + [key]).unkeyedContainer()
    }

    /// The decoder of the member `super`; a missing member reads as `null`.
    func superDecoder() throws -> any Decoder {
        let key = NameKey("super")
        return TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }

    /// The decoder of the member `key`; a missing member reads as `null`.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

/// An unkeyed container over an array's elements.
struct ArrayContainer: UnkeyedDecodingContainer {
    let items: [ConfigValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [ConfigValue], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The element at `currentIndex` and its path; throws when the array has no more elements.
    private func peek(expected: @autoclosure () -> String) throws(DecodingFailure) -> (ConfigValue, [any CodingKey]) {
        let path = codingPath + [IndexKey(currentIndex)]
        guard currentIndex < items.count else {
            throw DecodingFailure(
                path: CodingPathText.render(path),
                reason: "expected \(expected()), but the array ends after \(items.count) element\(items.count == 1 ? "" : "s")")
        }
        return (items[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        let (value, _) = try peek(expected: "null")
        guard value.isNull else { return false }
        currentIndex += 1
        return true
    }

    /// Decodes the element at `currentIndex` with `decode` (given the element and its path), then moves past it.
    private mutating func next<T>(
        _ expected: @autoclosure () -> String, _ decode: (ConfigValue, [any CodingKey]) throws -> T
    ) throws -> T {
        let (value, path) = try peek(expected: expected())
        let result = try decode(value, path)
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next("Bool", TreeDecoding.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next("String", TreeDecoding.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next("Double", TreeDecoding.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next("Float", TreeDecoding.float) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<T: FixedWidthInteger>() throws -> T {
        try next(String(describing: T.self)) { value, path in try TreeDecoding.integer(value, as: T.self, path) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(String(describing: T.self)) { value, path in try TreeDecoding.unbox(value, as: T.self, path: path) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next("an object") { value, path in
            try TreeDecoder(value: value, codingPath: path).container(keyedBy: NestedKey.self)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next("an array") { value, path in try TreeDecoder(value: value, codingPath: path).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next("a value") { value, path in TreeDecoder(value: value, codingPath: path) }
    }
}

/// A single-value container over one node.
struct LeafContainer: SingleValueDecodingContainer {
    let value: ConfigValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try TreeDecoding.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try TreeDecoding.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try TreeDecoding.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try TreeDecoding.float(value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try TreeDecoding.integer(value, as: Int.self, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try TreeDecoding.integer(value, as: Int8.self, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try TreeDecoding.integer(value, as: Int16.self, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try TreeDecoding.integer(value, as: Int32.self, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try TreeDecoding.integer(value, as: Int64.self, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try TreeDecoding.integer(value, as: UInt.self, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try TreeDecoding.integer(value, as: UInt8.self, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try TreeDecoding.integer(value, as: UInt16.self, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try TreeDecoding.integer(value, as: UInt32.self, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try TreeDecoding.integer(value, as: UInt64.self, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try TreeDecoding.unbox(value, as: T.self, path: codingPath) }
}

// MARK: - Coding keys and paths

/// The coding key of an array element; renders as `[index]` in paths.
struct IndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A coding key with a fixed name, such as `super`.
struct NameKey: CodingKey {
    let stringValue: String
    init(_ name: String) { self.stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}

/// Renders a coding path as `items[2].price` (a name that is not a plain identifier as `["a.b"]`).
enum CodingPathText {
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key as? IndexKey {
                text += "[\(index.index)]"
            } else if isPlain(key.stringValue) {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            } else {
                text += "[" + ConfigValue.string(key.stringValue).jsonText() + "]"
            }
        }
        return text
    }

    private static func isPlain(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }
}

// MARK: - Failures

extension DecodingFailure {
    /// `expected Double, found a JSON string "abc"` at `path`, with an optional `, which …` detail.
    static func mismatch(
        _ expected: String, found value: ConfigValue, at path: [any CodingKey], detail: String? = nil
    ) -> DecodingFailure {
        var reason = "expected \(expected), found \(describe(value))"
        if let detail { reason += ", \(detail)" }
        return DecodingFailure(path: CodingPathText.render(path), reason: reason)
    }

    /// `null`, or `a JSON <kind> <text>` with long text shortened.
    static func describe(_ value: ConfigValue) -> String {
        if value.isNull { return "null" }
        var text = value.jsonText()
        if text.count > 60 { text = String(text.prefix(57)) + "…" }
        return "a JSON \(value.kind) \(text)"
    }

    /// Turns whatever a `Decodable` implementation threw into a failure with a path.
    init(wrapping error: any Error, at path: [any CodingKey]) {
        switch error {
        case let failure as DecodingFailure: self = failure
        case let decodingError as DecodingError: self.init(decodingError)
        default: self.init(path: CodingPathText.render(path), reason: String(describing: error))
        }
    }

    /// Translates a `DecodingError` thrown by a type's own `init(from:)`.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: CodingPathText.render(context.codingPath), reason: "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            self.init(
                path: CodingPathText.render(context.codingPath),
                reason: "expected \(type), found null or nothing: \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            self.init(
                path: CodingPathText.render(context.codingPath + [key]), reason: "missing required key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            self.init(path: CodingPathText.render(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self.init(path: "", reason: String(describing: error))
        }
    }
}
