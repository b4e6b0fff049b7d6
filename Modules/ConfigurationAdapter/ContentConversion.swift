import ConfigDomain
import Configuration
import Foundation

/// Turns one of our values into swift-configuration content of the type a reader asked for, by
/// this library's own strict rules (``ConfigValueConvertible``): `1` reads as an int or a double,
/// `1.0` as a double or an int, `true` only as a bool, and a string only as a string (or bytes).
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct ContentConversion: Sendable {
    /// Reads byte values from strings (base64 unless the provider was told otherwise).
    let bytesDecoder: any ConfigBytesFromStringDecoder

    /// `value` as content of `type`, or why it cannot be; the reason never shows a secret value.
    func content(
        of value: ConfigDomain.ConfigValue, as type: ConfigType, key: String, isSecret: Bool
    ) throws(ProviderValueError) -> ConfigContent {
        do throws(ConversionError) {
            switch type {
            case .string: return .string(try String(configValue: value))
            case .int: return .int(try Int(configValue: value))
            case .double: return .double(try Double(configValue: value))
            case .bool: return .bool(try Bool(configValue: value))
            case .stringArray: return .stringArray(try [String](configValue: value))
            case .intArray: return .intArray(try [Int](configValue: value))
            case .doubleArray: return .doubleArray(try [Double](configValue: value))
            case .boolArray: return .boolArray(try [Bool](configValue: value))
            case .bytes: return .bytes(try bytes(from: try String(configValue: value)))
            case .byteChunkArray: return .byteChunkArray(try [String](configValue: value).map(bytes(from:)))
            }
        } catch {
            let reason = isSecret ? "the secret value is a \(value.kind)" : error.description
            throw ProviderValueError(key: key, requestedType: type.rawValue, reason: reason)
        }
    }

    /// The bytes a string encodes.
    private func bytes(from text: String) throws(ConversionError) -> [UInt8] {
        guard let bytes = bytesDecoder.decode(text) else {
            throw ConversionError(expectedType: "bytes", found: text, reason: "the string does not decode as bytes")
        }
        return bytes
    }
}
