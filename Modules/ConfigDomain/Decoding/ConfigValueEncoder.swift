import Foundation

/// Encodes an `Encodable` value into a ``ConfigValue`` (used to render defaults of structured keys).
public struct ConfigValueEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value`, or throws the encoder's error.
    public func encode<T: Encodable>(_ value: T) throws -> ConfigValue {
        let data = try JSONEncoder().encode(value)
        return try JSONParser().parse(data)
    }
}
