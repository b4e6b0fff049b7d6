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
