import ConfigDomain
import ConfigPorts
import Configuration
import Foundation

/// How a registered key is asked of a swift-configuration provider, and how the answer becomes an override.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
enum OverrideContent {
    /// The types of the library's own value types, by their names.
    private static let typesByName: [String: ConfigType] = [
        "Bool": .bool, "Int": .int, "Double": .double, "String": .string, "URL": .string,
        "[Bool]": .boolArray, "[Int]": .intArray, "[Double]": .doubleArray, "[String]": .stringArray,
    ]

    /// The type to ask for: by the key's type name for the library's own types, else by the kind of
    /// its default (an enum's raw value), else a string read as text.
    static func requestedType(for key: KeyDescriptor) -> ConfigType {
        if let type = typesByName[key.typeName] { return type }
        return switch key.defaultValue {
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .array(let items): items.first.map(arrayType(of:)) ?? .string
        case .string, .object, .null, nil: .string
        }
    }

    /// The array type whose elements are of `item`'s kind.
    private static func arrayType(of item: ConfigDomain.ConfigValue) -> ConfigType {
        switch item {
        case .bool: .boolArray
        case .int: .intArray
        case .double: .doubleArray
        case .string: .stringArray
        case .array, .object, .null: .string
        }
    }

    /// The provider's content as an override: a string is text (coerced by the key's type, as a
    /// person's text is), everything else a value; bytes become base64 text.
    static func content(of content: ConfigContent) -> OverrideValue.Content {
        switch content {
        case .string(let text): .text(text)
        case .int(let number): .value(.int(Int64(number)))
        case .double(let number): .value(.double(number))
        case .bool(let flag): .value(.bool(flag))
        case .bytes(let bytes): .text(Data(bytes).base64EncodedString())
        case .stringArray(let items): .value(.array(items.map { .string($0) }))
        case .intArray(let items): .value(.array(items.map { .int(Int64($0)) }))
        case .doubleArray(let items): .value(.array(items.map { .double($0) }))
        case .boolArray(let items): .value(.array(items.map { .bool($0) }))
        case .byteChunkArray(let chunks): .value(.array(chunks.map { .string(Data($0).base64EncodedString()) }))
        }
    }
}
