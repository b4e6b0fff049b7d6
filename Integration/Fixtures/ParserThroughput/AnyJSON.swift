import Foundation

/// A Decodable mirror of a JSON tree, so `JSONDecoder` does the same work as the other parsers.
enum AnyJSON: Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        // Leaves first (most values are leaves); asking for the wrong kind throws.
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else if let i = try? single.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? single.decode(Double.self) {
            self = .double(d)
        } else if let members = try? single.decode([String: AnyJSON].self) {
            self = .object(members)
        } else {
            self = .array(try single.decode([AnyJSON].self))
        }
    }

    struct NameKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        var intValue: Int? { nil }
    }
}
