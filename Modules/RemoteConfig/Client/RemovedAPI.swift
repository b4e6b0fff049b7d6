import ConfigDomain
import ConfigPorts
import Foundation

// API that was removed, kept as unavailable declarations so that the compiler points to the replacement.

extension RemoteConfigBuilder {
    /// Removed in 0.2.0: `build()` is synchronous.
    @available(*, unavailable, renamed: "build()")
    public func buildSynchronously() throws(ConfigError) -> RemoteConfigClient { try build() }

    /// Removed: written values persist where their `LocalOverrideStore` keeps them.
    @available(
        *, unavailable, message: "write through a LocalOverrideStore added with .override(_:); it persists in a SnapshotCache"
    )
    public func settingsStore(_ store: Any) -> Self { self }

    /// Renamed: the verifier decides on the whole payload (signature, configuration, version), not only the cryptography.
    @available(*, unavailable, renamed: "verifyPayloads(with:)")
    public func verifySignatures(with verifier: any PayloadVerifier) -> Self { verifyPayloads(with: verifier) }

    /// Removed: a `LocalOverrideStore` takes the build kind its release lock assumes.
    @available(*, unavailable, message: "pass buildKind: to the LocalOverrideStore")
    public func buildKind(_ kind: BuildKind) -> Self { self }
}

extension RemoteConfigClient {
    /// Removed in 0.2.0: declare a typed key, `ConfigKey(decoding:default:)`, register it and read `client[key]`.
    @available(*, unavailable, message: "declare ConfigKey(decoding: name, default: …), register it, and read client[key]")
    public func decode<Value: Decodable>(_ type: Value.Type, forKey name: String) throws(ConfigError) -> Value? { nil }

    /// Renamed: a key's name has one label, `forKey:`, as in `rawValue(forKey:)`.
    @available(*, unavailable, renamed: "explain(forKey:)")
    public func explain(name: String) -> Explanation { explain(forKey: name) }

    /// Removed: values are written through a `LocalOverrideStore`.
    @available(*, unavailable, message: "add a LocalOverrideStore with .override(store) and call try await store.set(key, value)")
    public func set<Value>(_ key: ConfigKey<Value>, _ value: Value) throws(ConfigError) {}

    /// Removed: values are written through a `LocalOverrideStore`.
    @available(*, unavailable, message: "call try await store.remove(key) on the LocalOverrideStore that wrote it")
    public func reset<Value>(_ key: ConfigKey<Value>) throws(ConfigError) {}
}

extension ConfigKey {
    /// Removed: any registered key can be written through a `LocalOverrideStore`.
    @available(
        *, unavailable,
        message:
            "register the key itself; write it through a LocalOverrideStore (allowedInRelease: true to write in release builds)"
    )
    public func writable(inRelease: Bool = false) -> ConfigKey<Value> { self }
}

extension SnapshotCache {
    /// Removed in 0.2.0: ``SnapshotCache/load(_:slot:)`` is synchronous.
    @available(*, unavailable, renamed: "load(_:slot:)")
    public func loadSynchronously(_ name: String, slot: CacheSlot) -> CacheLoadResult { load(name, slot: slot) }
}
