import ConfigDomain
import ConfigPorts
import Foundation

/// Where a client keeps the values the app writes to writable keys, and which build it runs as.
///
/// Without a store, written values live in memory until the process ends. The release lock:
/// in a release build only keys declared `.writable(inRelease: true)` take writes, and values
/// stored for the other writable keys are ignored.
struct WritableSettings: Sendable {
    /// Persists written values, or nil to keep them in memory only.
    var store: (any SettingsStore)?
    /// The build the client assumes.
    var buildKind: BuildKind

    /// The name written values carry in provenance: the store's, or `memory`.
    var name: String { store?.name ?? "memory" }

    /// Whether a key with `access` may be written (and its stored value read) in this build.
    func allows(_ access: WriteAccess) -> Bool { buildKind == .debug || access == .allowedInRelease }

    /// The writable layer at build time: the stored values of the keys writable in this build
    /// (problems go to `sink`), or nil when no key is writable in this build.
    func initialLayer(registry: KeyRegistry, sink: EventSink) -> OverrideLayer? {
        let writable = registry.keys.indices.filter { slot in registry.writeAccess[slot].map(allows) ?? false }
        guard !writable.isEmpty else { return nil }
        guard let store else { return OverrideLayer(name: name, snapshot: .empty) }
        let stored = store.load(writable.map { KeyRegistry.descriptor(of: registry.keys[$0]) })
        for problem in stored.problems { sink.emit(.overrideProblem(source: name, message: problem)) }
        return OverrideLayer(name: name, snapshot: OverrideSnapshot(values: stored.values))
    }
}

extension RemoteConfigBuilder {
    /// Persists the values the app writes to writable keys in `store` (default: memory, until the process ends).
    public func settingsStore(_ store: any SettingsStore) -> Self {
        with { $0.writable.store = store }
    }

    /// Sets the build kind the release lock assumes (default: how this library was compiled; tests set it).
    public func buildKind(_ kind: BuildKind) -> Self {
        with { $0.writable.buildKind = kind }
    }
}
