import ConfigDomain
import ConfigPorts
import Foundation

/// Keeps the values an app writes to its writable keys in `UserDefaults`: the app's own defaults,
/// or a suite (an App Group identifier, to share them with the app's extensions).
///
/// ```swift
/// builder.settingsStore(try UserDefaultsSettingsStore(suiteName: "group.com.example.app"))
/// ```
///
/// Values are stored as property-list objects (`Bool`, `Int`, `Double`, `String`, arrays and
/// dictionaries), under `keyPrefix + name`, so the Settings app and other code read them as usual.
public final class UserDefaultsSettingsStore: SettingsStore {
    private let suite: DefaultsSuite

    /// The suite read, or nil for the app's own defaults.
    public var suiteName: String? { suite.suiteName }

    /// Stores in the app's defaults (`suiteName` nil) or a suite, each key as `keyPrefix + name`.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for a suite name UserDefaults refuses.
    public init(suiteName: String? = nil, keyPrefix: String = "") throws(ConfigurationError) {
        suite = try DefaultsSuite(suiteName: suiteName, keyPrefix: keyPrefix)
    }

    /// `UserDefaults` or `UserDefaults(<suite>)`.
    public var name: String { suite.label }

    /// The stored values of the writable keys; an object with no JSON form is reported as a problem.
    public func load(_ keys: [KeyDescriptor]) -> OverrideSnapshot { suite.read(keys) }

    /// Stores `value` as a property-list object, or removes the key's value when `value` is nil.
    ///
    /// - Throws: `ConversionError` for a value that is or holds `null`, which UserDefaults cannot keep.
    public func save(_ value: ConfigValue?, for key: KeyDescriptor) throws(ConversionError) {
        suite.write(try value?.propertyList(), for: key.name)
    }
}
