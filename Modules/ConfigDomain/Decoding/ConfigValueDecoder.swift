import Foundation

/// Decodes a `Decodable` type from a ``ConfigValue`` with the same strict rules as typed keys.
public struct ConfigValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `type` from `value`, or throws where and why it does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: ConfigValue) throws(DecodingFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: value.jsonData())
        } catch let error as DecodingError {
            throw DecodingFailure(error)
        } catch {
            throw DecodingFailure(path: "", reason: "\(error)")
        }
    }
}

extension DecodingFailure {
    init(_ error: DecodingError) {
        func render(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : "." + key.stringValue }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: render(context.codingPath), reason: "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            self.init(path: render(context.codingPath), reason: "expected \(type), found null or nothing")
        case .keyNotFound(let key, let context):
            self.init(path: render(context.codingPath + [key]), reason: "missing required key \"\(key.stringValue)\"")
        case .dataCorrupted(let context):
            self.init(path: render(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self.init(path: "", reason: "\(error)")
        }
    }
}
