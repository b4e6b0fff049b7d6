import ConfigDomain
import ConfigPorts
import Foundation

/// A string-backed enum key type.
enum Theme: String, CaseIterable, Sendable {
    case light, dark
}

/// An integer-backed enum key type.
enum Tier: Int, CaseIterable, Sendable {
    case free = 0
    case pro = 1
}

/// A decodable struct key type.
struct Banner: Codable, Sendable, Equatable {
    var title: String
    var color: String
}

/// Keys of every supported type, shared by the tests.
enum SampleKeys {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let sampleRate = ConfigKey("sample_rate", default: 0.5)
    static let greeting = ConfigKey("greeting", default: "hello")
    static let apiBaseURL = ConfigKey("api.base-url", default: URL(string: "https://example.com") ?? URL(fileURLWithPath: "/"))
    static let theme = ConfigKey("theme", default: Theme.light)
    static let tier = ConfigKey("tier", default: Tier.free)
    static let tags = ConfigKey("tags", default: [String]())
    static let limits = ConfigKey("limits", default: [Int]())
    static let banner = ConfigKey(decoding: "banner", default: Banner(title: "", color: "blue"))
    static let apiToken = ConfigKey("api_token", default: "", rules: [.pattern("tok_[a-z0-9]{8}")], secret: true)
    static let pin = ConfigKey("pin", default: 0, rules: [.range(0...9999)], secret: true)

    static let all: [KeyDescriptor] = [
        newCheckout.descriptor, maxRetries.descriptor, sampleRate.descriptor, greeting.descriptor,
        apiBaseURL.descriptor, theme.descriptor, tier.descriptor, tags.descriptor, limits.descriptor,
        banner.descriptor, apiToken.descriptor, pin.descriptor,
    ]
}

/// Resolves what a source returned for `key` the way the client does: text through
/// ``ConfigKey/resolve(text:origin:)``, values through ``ConfigKey/resolve(_:origin:)``.
/// `nil` when the snapshot holds nothing for the key.
func resolve<Value>(_ key: ConfigKey<Value>, in snapshot: OverrideSnapshot) -> Result<Value, Rejection>? {
    guard let override = snapshot.values[key.name] else { return nil }
    switch override.content {
    case .text(let text): return key.resolve(text: text, origin: override.origin)
    case .value(let value): return key.resolve(value, origin: override.origin)
    }
}

/// The text a source returned for `key`, or `nil`.
func text(of keyName: String, in snapshot: OverrideSnapshot) -> String? {
    guard case .text(let text) = snapshot.values[keyName]?.content else { return nil }
    return text
}

/// Every element a stream yields until it finishes.
func collect(_ stream: AsyncStream<OverrideSnapshot>) async -> [OverrideSnapshot] {
    var all: [OverrideSnapshot] = []
    for await snapshot in stream { all.append(snapshot) }
    return all
}

/// A descriptor for a `String` key named `name`.
func stringKey(_ name: String) -> KeyDescriptor {
    ConfigKey(name, default: "").descriptor
}
