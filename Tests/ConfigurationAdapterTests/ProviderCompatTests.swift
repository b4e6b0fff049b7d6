import ConfigDomain
import Configuration
import ConfigurationAdapter
import ConfigurationTesting
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// swift-configuration's own compatibility suite for providers, run against ``RemoteConfigProvider``.
@Suite("swift-configuration ProviderCompatTest")
struct ProviderCompatTests {
    /// The suite's data (bytes are base64: `magic` and `magic2`), under the suite's dotted names.
    static let flat = """
        {"string": "Hello", "other.string": "Other Hello", "int": 42, "other.int": 24,
         "double": 3.14, "other.double": 2.72, "bool": true, "other.bool": false,
         "bytes": "bWFnaWM=", "other.bytes": "bWFnaWMy",
         "stringy.array": ["Hello", "World"], "other.stringy.array": ["Hello", "Swift"],
         "inty.array": [42, 24], "other.inty.array": [16, 32],
         "doubly.array": [3.14, 2.72], "other.doubly.array": [0.9, 1.8],
         "booly.array": [true, false], "other.booly.array": [false, true, true],
         "byteChunky.array": ["bWFnaWM=", "bWFnaWMy"], "other.byteChunky.array": ["bWFnaWM=", "bWFnaWMy", "bWFnaWM="]}
        """

    /// The same data as nested objects: `other.string` is the member `string` of the object `other`.
    static let nested = """
        {"string": "Hello", "int": 42, "double": 3.14, "bool": true, "bytes": "bWFnaWM=",
         "stringy": {"array": ["Hello", "World"]}, "inty": {"array": [42, 24]}, "doubly": {"array": [3.14, 2.72]},
         "booly": {"array": [true, false]}, "byteChunky": {"array": ["bWFnaWM=", "bWFnaWMy"]},
         "other": {"string": "Other Hello", "int": 24, "double": 2.72, "bool": false, "bytes": "bWFnaWMy",
                   "stringy": {"array": ["Hello", "Swift"]}, "inty": {"array": [16, 32]},
                   "doubly": {"array": [0.9, 1.8]}, "booly": {"array": [false, true, true]},
                   "byteChunky": {"array": ["bWFnaWM=", "bWFnaWMy", "bWFnaWM="]}}}
        """

    /// The suite's names registered as typed keys, so values come through the client's converters and rules.
    static let registered: [any ConfigKeyRepresentable] = [
        ConfigDomain.ConfigKey("string", default: ""), ConfigDomain.ConfigKey("other.string", default: ""),
        ConfigDomain.ConfigKey("int", default: 0), ConfigDomain.ConfigKey("other.int", default: 0),
        ConfigDomain.ConfigKey("double", default: 0.0), ConfigDomain.ConfigKey("other.double", default: 0.0),
        ConfigDomain.ConfigKey("bool", default: false), ConfigDomain.ConfigKey("other.bool", default: true),
        ConfigDomain.ConfigKey("bytes", default: ""), ConfigDomain.ConfigKey("other.bytes", default: ""),
        ConfigDomain.ConfigKey("stringy.array", default: [String]()),
        ConfigDomain.ConfigKey("other.stringy.array", default: [String]()),
        ConfigDomain.ConfigKey("inty.array", default: [Int]()), ConfigDomain.ConfigKey("other.inty.array", default: [Int]()),
        ConfigDomain.ConfigKey("doubly.array", default: [Double]()),
        ConfigDomain.ConfigKey("other.doubly.array", default: [Double]()),
        ConfigDomain.ConfigKey("booly.array", default: [Bool]()),
        ConfigDomain.ConfigKey("other.booly.array", default: [Bool]()),
        ConfigDomain.ConfigKey("byteChunky.array", default: [String]()),
        ConfigDomain.ConfigKey("other.byteChunky.array", default: [String]()),
    ]

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    private func runCompatTest(_ json: String, keys: [any ConfigKeyRepresentable] = []) async throws {
        let (client, _) = try await refreshedClient(json, keys: keys)
        try await ProviderCompatTest(provider: RemoteConfigProvider(client)).runTest()
        await client.stop()
    }

    @Test("passes with the data under dotted names in the payload")
    func flatNames() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        try await runCompatTest(Self.flat)
    }

    @Test("passes with the data in nested objects")
    func nestedObjects() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        try await runCompatTest(Self.nested)
    }

    @Test("passes with every name registered as a typed key")
    func registeredKeys() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        try await runCompatTest(Self.flat, keys: Self.registered)
    }
}
