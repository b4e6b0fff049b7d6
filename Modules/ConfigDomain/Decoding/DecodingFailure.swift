import Foundation

/// A value that does not decode into a `Decodable` type: the path inside the value, and why.
public struct DecodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path inside the value, for example `items[2].price`; empty for the value itself.
    public var path: String
    /// Why, in words.
    public var reason: String

    /// Creates a decoding failure.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `at items[2].price: expected Double, found a JSON string`.
    public var description: String { path.isEmpty ? reason : "at \(path): \(reason)" }
}

extension DecodingFailure {
    /// Translates what `JSONDecoder` threw while decoding `value`, saying what it found at the error's path.
    init(_ error: DecodingError, in value: ConfigValue) {
        switch error {
        case .typeMismatch(let type, let context):
            let expected = Self.name(of: type)
            let reason =
                if let found = value.node(at: context.codingPath) {
                    "expected \(expected), found \(Self.describe(found))"
                } else {
                    "expected \(expected): \(context.debugDescription)"
                }
            self.init(at: context.codingPath, reason: reason)
        case .valueNotFound(let type, let context):
            let path = context.codingPath
            let expected = Self.name(of: type)
            let node = value.node(at: path)
            let parent = value.node(at: path.dropLast())
            let reason =
                if node?.isNull == true || (node == nil && parent?.objectValue != nil) {  // A missing member reads as null.
                    "expected \(expected), found null"
                } else if case .array(let items) = parent, let index = path.last?.intValue, index >= items.count {
                    "expected \(expected), but the array ends after \(items.count) element\(items.count == 1 ? "" : "s")"
                } else {
                    "expected \(expected), found null or nothing: \(context.debugDescription)"
                }
            self.init(at: path, reason: reason)
        case .keyNotFound(let key, let context):
            self.init(at: context.codingPath + [key], reason: "missing required key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            self.init(at: context.codingPath, reason: context.debugDescription)
        @unknown default:
            self.init(path: "", reason: String(describing: error))
        }
    }

    private init(at path: some Collection<any CodingKey>, reason: String) {
        self.init(path: CodingPathText.render(path), reason: reason)
    }

    /// A type's name in a message: Foundation names an object `Dictionary<String, Any>` and an array `Array<Any>`.
    private static func name(of type: Any.Type) -> String {
        if type == [String: Any].self { return "an object" }
        if type == [Any].self { return "an array" }
        return String(describing: type)
    }

    /// `null`, or `a JSON <kind> <text>` with long text shortened.
    static func describe(_ value: ConfigValue) -> String {
        if value.isNull { return "null" }
        var text = value.jsonText()
        if text.count > 60 { text = String(text.prefix(57)) + "…" }
        return "a JSON \(value.kind) \(text)"
    }
}

/// Renders a coding path as `items[2].price` (a name that is not a plain identifier as `["a.b"]`).
enum CodingPathText {
    static func render(_ path: some Collection<any CodingKey>) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" {  // How Foundation names an array element.
                text += "[\(index)]"
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

/// A step of a path inside a value: an object's member, or an array's element named as Foundation names it.
struct PathKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(name: String) { (stringValue, intValue) = (name, nil) }
    init(index: Int) { (stringValue, intValue) = ("Index \(index)", index) }
    init?(stringValue: String) { self.init(name: stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

extension ConfigValue {
    /// The node at `path` (members by name, elements by index), or `nil` when the path leaves the value.
    func node(at path: some Collection<any CodingKey>) -> ConfigValue? {
        var node = self
        for key in path {
            switch node {
            case .object(let members):
                guard let member = members[key.stringValue] else { return nil }
                node = member
            case .array(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return nil }
                node = items[index]
            default:
                return nil
            }
        }
        return node
    }

    /// The paths of every number in the value, in order (an object's members by name).
    func numberPaths(under path: [any CodingKey] = []) -> [[any CodingKey]] {
        switch self {
        case .int, .double: [path]
        case .array(let items): items.indices.flatMap { items[$0].numberPaths(under: path + [PathKey(index: $0)]) }
        case .object(let members):
            members.sorted { $0.key < $1.key }.flatMap { $0.value.numberPaths(under: path + [PathKey(name: $0.key)]) }
        case .null, .bool, .string: []
        }
    }

    /// The value with every number from the `start`-th on, in ``numberPaths(under:)``'s order, set to `0`.
    /// `counted` counts the numbers passed.
    func zeroingNumbers(from start: Int, counted: inout Int) -> ConfigValue {
        switch self {
        case .int, .double:
            counted += 1
            return counted > start ? .int(0) : self
        case .array(let items):
            return .array(items.map { $0.zeroingNumbers(from: start, counted: &counted) })
        case .object(let members):
            let sorted = members.sorted { $0.key < $1.key }
            return .object(
                Dictionary(uniqueKeysWithValues: sorted.map { ($0.key, $0.value.zeroingNumbers(from: start, counted: &counted)) })
            )
        case .null, .bool, .string:
            return self
        }
    }
}
