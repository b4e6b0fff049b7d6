import ConfigDomain
import ConfigPorts
import Configuration
import Foundation

/// Any swift-configuration `ConfigProvider` as an override source: its values win over remote ones.
///
/// ```swift
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .override(ConfigProviderOverrideSource(EnvironmentVariablesProvider()))  // NEW_CHECKOUT=true
///     .register(Flags.newCheckout)
///     .build()
/// ```
///
/// - Each registered key is asked for by its name as a key (`new_checkout`; an environment
///   provider reads `NEW_CHECKOUT`). Map or prefix names with the provider's own wrappers, for
///   example `provider.prefixKeys(with: "myapp")`.
/// - The type asked for follows the key's type: a `Bool` key asks for a bool, an `[Int]` key for
///   an int array, an enum key for its raw value's type; any other key (a `Decodable` struct) asks
///   for a string and reads it as text (JSON for structured keys). The key's own rules still apply.
/// - A value the provider cannot give as that type is a problem, reported, never thrown; for a
///   secret key the problem does not show the provider's message.
/// - ``changes(for:)`` follows the provider's `watchSnapshot`: the current state first, then
///   each new state for providers that change (a provider that never changes yields once).
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct ConfigProviderOverrideSource: OverrideSource {
    /// The source's name in provenance: the provider's name unless given.
    public let name: String
    private let provider: any ConfigProvider

    /// Creates a source that reads overrides from `provider`.
    public init(_ provider: any ConfigProvider, name: String? = nil) {
        self.provider = provider
        self.name = name ?? provider.providerName
    }

    /// The provider's current values for `keys`, and the keys it could not read.
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        Self.overrides(for: keys, in: provider.snapshot())
    }

    /// The current overrides, then the overrides after each change the provider's watch reports.
    public func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        let (stream, continuation) = AsyncStream<OverrideSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let watcher = Task { [provider] in
            do {
                try await provider.watchSnapshot { snapshots in
                    for await snapshot in snapshots { continuation.yield(Self.overrides(for: keys, in: snapshot)) }
                }
            } catch {
                if !Task.isCancelled {
                    var last = Self.overrides(for: keys, in: provider.snapshot())
                    last.problems.append(
                        "watching \(provider.providerName) failed (\(error)); its overrides no longer follow changes")
                    continuation.yield(last)
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in watcher.cancel() }
        return stream
    }

    /// The overrides `snapshot` gives `keys`.
    static func overrides(for keys: [KeyDescriptor], in snapshot: any Configuration.ConfigSnapshot) -> OverrideSnapshot {
        var result = OverrideSnapshot()
        for key in keys {
            let type = OverrideContent.requestedType(for: key)
            do {
                let found = try snapshot.value(forKey: AbsoluteConfigKey(Configuration.ConfigKey(key.name)), type: type)
                if let value = found.value {
                    result.values[key.name] = OverrideValue(OverrideContent.content(of: value.content), origin: found.encodedKey)
                }
            } catch {
                let detail = key.isSecret ? "details are hidden because the key is secret" : "\(error)"
                result.problems.append(
                    "\(snapshot.providerName) has a value for \"\(key.name)\" that does not read as \(type.rawValue) "
                        + "(\(detail)); it does not override")
            }
        }
        return result
    }
}
