import Foundation

/// Encodes an `Encodable` value into a ``ConfigValue`` with Foundation's `JSONEncoder` (used to render defaults).
///
/// The JSON text `JSONEncoder` writes is read back with ``JSONParser``, so:
/// - `Bool` is `.bool`, `String` is `.string`, every integer type is `.int` (a `UInt`/`UInt64`
///   above `Int64.max` fails).
/// - `Double`, `Float` and `Decimal` are `.double`, except a whole number, which JSON writes
///   without a fraction and so reads back as `.int` (`1.0` is `.int(1)`; ``ConfigValueDecoder``
///   reads it back as `1.0`). NaN and infinities fail.
/// - `URL` is its absolute string; `Data` is a base64 string; `Date` is an ISO-8601 string in UTC
///   (`2024-05-01T12:00:00Z`, with milliseconds when it has a fraction of a second).
/// - `nil` in a keyed container is omitted by synthesized conformances, and `.null` when encoded explicitly.
public struct ConfigValueEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value`, or throws an `EncodingError` saying what cannot be represented.
    public func encode<T: Encodable>(_ value: T) throws -> ConfigValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom(ISO8601Text.encodeDate)
        let json = try encoder.encode(value)
        do throws(JSONParseError) {
            return try JSONParser().parse(json)
        } catch {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "the JSON it encodes to does not read back: \(error)"))
        }
    }
}
