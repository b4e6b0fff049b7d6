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

    /// Removed: values are written through a `LocalOverrideStore`.
    @available(*, unavailable, message: "add a LocalOverrideStore with .override(store) and call try await store.set(key, value)")
    public func set<Value>(_ key: ConfigKey<Value>, _ value: Value) throws(ConfigError) {}

    /// Removed: values are written through a `LocalOverrideStore`.
    @available(*, unavailable, message: "call try await store.remove(key) on the LocalOverrideStore that wrote it")
    public func reset<Value>(_ key: ConfigKey<Value>) throws(ConfigError) {}

    /// Removed: the subscript is the one read.
    @available(*, unavailable, message: "read client[key]")
    public func value<Value>(_ key: ConfigKey<Value>) -> Value { self[key] }

    /// Removed: the subscript reads for a context given with the call.
    @available(*, unavailable, message: "read client[key, for: context]")
    public func value<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext) -> Value { self[key, for: context] }

    /// Removed: `fetch(_:for:)` reads after bringing the providers up to date.
    @available(*, unavailable, message: "read await client.fetch(policy)[key]")
    public func value<Value>(_ key: ConfigKey<Value>, policy: ReadPolicy) async -> Value { await fetch(policy)[key] }

    /// Renamed: a consistent view of one state; "snapshot" names a fetched payload.
    @available(*, unavailable, renamed: "view()")
    public func snapshot() -> ConfigView { view() }

    /// Renamed: a consistent view of one state, for a context.
    @available(*, unavailable, renamed: "view(for:)")
    public func snapshot(for context: EvaluationContext) -> ConfigView { view(for: context) }

    /// Renamed: details are the one answer to "why".
    @available(*, unavailable, renamed: "details(_:)")
    public func explain<Value>(_ key: ConfigKey<Value>) -> EvaluationDetails<Value> { details(key) }

    /// Renamed: details are the one answer to "why".
    @available(*, unavailable, renamed: "details(_:for:)")
    public func explain<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext) -> EvaluationDetails<Value> {
        details(key, for: context)
    }

    /// Removed: a view explains a key by name.
    @available(*, unavailable, message: "call client.view().details(forKey: name)")
    public func explain(forKey name: String) -> EvaluationDetails<ConfigValue?> { view().details(forKey: name) }

    /// Renamed: a key's name has one label, `forKey:`.
    @available(*, unavailable, message: "call client.view().details(forKey: name)")
    public func explain(name: String) -> EvaluationDetails<ConfigValue?> { view().details(forKey: name) }

    /// Removed: a view answers by name with what reads see.
    @available(*, unavailable, message: "call client.view().entry(forName: name)?.value")
    public func rawValue(forKey name: String) -> ConfigValue? { view().entry(forName: name)?.value }

    /// Removed: the status says how fresh each provider's snapshot is.
    @available(*, unavailable, message: "read client.status.freshness (or status.providers for each provider)")
    public func currentFreshness() -> Freshness? { status.freshness }

    /// Moved into the status.
    @available(*, unavailable, message: "read client.status.registeredKeys")
    public var registeredKeys: [KeyDescriptor] { status.registeredKeys }

    /// Renamed: watching is `watch`.
    @available(*, unavailable, renamed: "watch(_:)")
    public func values<Value: Sendable>(_ key: ConfigKey<Value>) -> AsyncStream<Value> { watch(key) }

    /// Removed: `watch()` yields each new state; its `update` says what changed and why.
    @available(*, unavailable, message: "iterate client.watch(); each view's update has the changed keys and the cause")
    public func updates() -> AsyncStream<ConfigUpdate> { AsyncStream { $0.finish() } }

    /// Removed: `watch()` yields each new state; cancel the task that iterates it to stop.
    @available(*, unavailable, message: "iterate client.watch() in a task, and cancel the task to stop")
    public func onChange(_ handler: @escaping @Sendable (ConfigUpdate) -> Void) {}

    /// Removed: `updateContext` changes all or part of the context.
    @available(*, unavailable, message: "call client.updateContext { $0 = context }")
    public func setContext(_ context: EvaluationContext) -> [String] { updateContext { $0 = context } }

    /// Renamed: the values reads see are a view.
    @available(*, unavailable, renamed: "view()")
    public func resolvedValues() -> ConfigView { view() }

    /// Renamed: the values reads see for a context are a view for it.
    @available(*, unavailable, renamed: "view(for:)")
    public func resolvedValues(for context: EvaluationContext) -> ConfigView { view(for: context) }

    /// Renamed: `fetch()` brings the values up to date first.
    @available(*, unavailable, renamed: "fetch()")
    public func freshResolvedValues() async -> ConfigView { await fetch() }

    /// Renamed: `watch()` yields each new state.
    @available(*, unavailable, renamed: "watch()")
    public func resolvedValueUpdates() -> AsyncStream<ConfigView> { watch() }
}

/// Removed: details are the one answer to "why".
@available(*, unavailable, message: "use EvaluationDetails, from client.details(key)")
public typealias Explanation = EvaluationDetails<ConfigValue?>

/// Removed: watches end with the task that iterates them.
@available(*, unavailable, message: "iterate client.watch() in a task, and cancel the task to stop")
public final class ObservationToken: Sendable {}

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
