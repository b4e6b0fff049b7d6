import ConfigDomain
import ConfigPorts
import Configuration
import Foundation

/// How ``RemoteConfigProvider`` answers a reader's key from one state of the configuration.
///
/// - The key's components joined with dots name the value: `http.timeout` is the name `http.timeout`.
///   When nothing has that name, the longest shorter name that has a value decides: the member
///   `timeout` of the object named `http`. A member is as secret as the value holding it.
/// - A JSON `null` is no value.
/// - A value is secret when its key is registered as secret, or when the provider's secrets
///   specifier says so.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct ValueLookup: Sendable {
    /// Converts a value to the type asked for.
    let conversion: ContentConversion
    /// Marks further values secret, by their dotted name.
    let secrets: SecretsSpecifier<String, ConfigDomain.ConfigValue>

    /// The value for `key` in `values`, as content of `type`.
    func lookup(
        _ key: AbsoluteConfigKey, as type: ConfigType, in values: any ResolvedValues
    ) throws(ProviderValueError) -> LookupResult {
        let name = key.components.joined(separator: ".")
        guard let entry = Self.entry(for: key.components, in: values), !entry.value.isNull else {
            return LookupResult(encodedKey: name, value: nil)
        }
        let isSecret = entry.isSecret || secrets.isSecret(key: name, value: entry.value)
        let content = try conversion.content(of: entry.value, as: type, key: name, isSecret: isSecret)
        return LookupResult(encodedKey: name, value: Configuration.ConfigValue(content, isSecret: isSecret))
    }

    /// The value named by all of `components`, else the member inside the value of the longest name that has one.
    static func entry(for components: [String], in values: any ResolvedValues) -> ResolvedEntry? {
        guard !components.isEmpty else { return nil }
        for split in stride(from: components.count, to: 0, by: -1) {
            guard let holder = values.entry(forName: components[..<split].joined(separator: ".")) else { continue }
            var value = holder.value
            for member in components[split...] {
                guard let inner = value[member] else { return nil }
                value = inner
            }
            return ResolvedEntry(value: value, isSecret: holder.isSecret)
        }
        return nil
    }
}
