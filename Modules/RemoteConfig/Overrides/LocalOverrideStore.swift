import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides the app writes at run time (a QA debug menu), typed by the same keys and checked by the same rules.
///
/// Add it to the builder like any override source. Values can persist across launches through any
/// `SnapshotCache` (the file cache, for example) under their own configuration name.
///
/// In release builds the store is inert unless `allowedInRelease` is `true`: writes throw and
/// reads ignore it, so a debug menu left in a shipping app cannot change what users see.
///
/// ```swift
/// let debugMenu = LocalOverrideStore(persistence: .init(cache: cache, name: "debug-overrides"))
/// try await debugMenu.set(Flags.newCheckout, true)
/// ```
public final class LocalOverrideStore: OverrideSource, Sendable {
    /// Where overrides persist.
    public struct Persistence: Sendable {
        /// The cache that keeps them.
        public var cache: any SnapshotCache
        /// The configuration name they are stored under (keep it apart from the remote one).
        public var name: String

        /// Creates a persistence setting.
        public init(cache: any SnapshotCache, name: String = "local-overrides") {
            self.cache = cache
            self.name = name
        }
    }

    /// Which kind of build the store believes it runs in (the store is active in release builds only when allowed).
    public typealias BuildKind = RemoteConfig.BuildKind

    /// The source's name in provenance.
    public let name: String
    /// Whether the store works in release builds.
    public let allowedInRelease: Bool
    /// The build kind the store assumes.
    public let buildKind: BuildKind
    private let persistence: Persistence?
    private let state = Locked(StoreState())
    private let broadcaster = Broadcaster<[String: ConfigValue]>()

    private struct StoreState {
        var values: [String: ConfigValue] = [:]
        var loaded = false
        var problems: [String] = []
    }

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - name: the name shown in provenance.
    ///   - persistence: where values persist, or nil to keep them in memory only.
    ///   - allowedInRelease: let the store work in release builds (default false).
    ///   - buildKind: the build kind to assume (default: how this library was compiled).
    public init(
        name: String = "local overrides", persistence: Persistence? = nil, allowedInRelease: Bool = false,
        buildKind: BuildKind = .current
    ) {
        self.name = name
        self.persistence = persistence
        self.allowedInRelease = allowedInRelease
        self.buildKind = buildKind
    }

    /// Whether the store may be written and is read (always in debug; in release only when allowed).
    public var isEnabled: Bool { buildKind == .debug || allowedInRelease }

    /// Sets an override; it must pass the key's type and rules.
    ///
    /// - Throws: `ConfigError/rejected(_:)` when a rule rejects the value;
    ///   `ConfigError/configuration(_:)` when the store is disabled in this build or the type cannot be stored;
    ///   `ConfigError/cache(_:)` when persisting fails (the value is still set in memory).
    public func set<Value>(_ key: ConfigKey<Value>, _ value: Value) async throws(ConfigError) {
        try ensureEnabled()
        if case .failure(let rejection) = key.validate(value, origin: name) { throw .rejected(rejection) }
        guard let raw = key.converter.toValue(value) else {
            throw .configuration(
                ConfigurationError(
                    .invalidAdapterSetting,
                    "values of \(key.converter.typeName) cannot be stored as overrides; make the type Encodable"))
        }
        loadIfNeeded()
        let values = state.withLock { s in
            s.values[key.name] = raw
            return s.values
        }
        broadcaster.send(values)
        try await persist(values)
    }

    /// Removes the override of one key.
    public func remove<Value>(_ key: ConfigKey<Value>) async throws(ConfigError) {
        try ensureEnabled()
        loadIfNeeded()
        let values = state.withLock { s in
            s.values.removeValue(forKey: key.name)
            return s.values
        }
        broadcaster.send(values)
        try await persist(values)
    }

    /// Removes every override.
    public func removeAll() async throws(ConfigError) {
        try ensureEnabled()
        loadIfNeeded()
        state.withLock { $0.values.removeAll() }
        broadcaster.send([:])
        try await persist([:])
    }

    /// The overrides currently set, by key name (empty when disabled).
    public func currentValues() async -> [String: ConfigValue] {
        guard isEnabled else { return [:] }
        loadIfNeeded()
        return state.withLock { $0.values }
    }

    /// The overrides for the registered keys, each with origin `<name>:<key>`.
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        guard isEnabled else { return .empty }
        loadIfNeeded()
        let (values, problems) = state.withLock { ($0.values, $0.problems) }
        return snapshot(values, problems: problems, keys: keys)
    }

    /// The current overrides, then the new state after each `set`, `remove` or `removeAll`.
    public func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        let (stream, continuation) = AsyncStream<OverrideSnapshot>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard isEnabled else {
            continuation.yield(.empty)
            continuation.finish()
            return stream
        }
        let upstream = broadcaster.stream(bufferingPolicy: .bufferingNewest(1))
        let task = Task { [weak self] in
            guard let self else { return continuation.finish() }
            continuation.yield(self.overrides(for: keys))
            for await values in upstream {
                continuation.yield(self.snapshot(values, problems: [], keys: keys))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func snapshot(_ values: [String: ConfigValue], problems: [String], keys: [KeyDescriptor]) -> OverrideSnapshot {
        var result: [String: OverrideValue] = [:]
        for key in keys {
            if let value = values[key.name] { result[key.name] = OverrideValue(.value(value), origin: "\(name):\(key.name)") }
        }
        return OverrideSnapshot(values: result, problems: problems)
    }

    private func ensureEnabled() throws(ConfigError) {
        guard isEnabled else {
            throw .configuration(
                ConfigurationError(
                    .invalidAdapterSetting,
                    "the local override store \"\(name)\" is disabled in release builds; pass allowedInRelease: true to enable it"
                ))
        }
    }

    private func loadIfNeeded() {
        guard !state.withLock({ $0.loaded }) else { return }
        guard let persistence else { return applyLoaded(nil, from: nil) }
        applyLoaded(persistence.cache.load(persistence.name, slot: .active), from: persistence)
    }

    /// Takes what the persistence cache held (nil without persistence) as the starting values,
    /// under any set in the meantime; only the first load counts.
    private func applyLoaded(_ result: CacheLoadResult?, from persistence: Persistence?) {
        var loaded: [String: ConfigValue] = [:]
        var problems: [String] = []
        if let persistence, let result {
            switch result {
            case .hit(let cached):
                do throws(JSONParseError) {
                    let parsed = try JSONParser().parse(cached.payload)
                    if case .object(let members) = parsed {
                        loaded = members
                    } else {
                        problems.append(
                            "persisted overrides in \"\(persistence.name)\" are a JSON \(parsed.kind), not an object of keys to values; starting empty"
                        )
                    }
                } catch {
                    problems.append("persisted overrides in \"\(persistence.name)\" are unreadable (\(error)); starting empty")
                }
            case .miss:
                break
            case .unreadable(let error):
                problems.append(
                    "persisted overrides in \"\(persistence.name)\" are unreadable (\(error.message)); starting empty")
            }
        }
        state.withLock { s in
            guard !s.loaded else { return }
            s.loaded = true
            s.values = loaded.merging(s.values) { _, new in new }
            s.problems = problems
        }
    }

    private func persist(_ values: [String: ConfigValue]) async throws(ConfigError) {
        guard let persistence else { return }
        let payload = ConfigValue.object(values).jsonData()
        let metadata = SnapshotMetadata(
            fetchedAt: Date(), contentHash: ContentHash(of: payload), source: "local-overrides:\(name)")
        do throws(CacheError) {
            try await persistence.cache.store(
                CachedSnapshot(payload: payload, metadata: metadata), as: persistence.name, slot: .active)
        } catch {
            throw .cache(error)
        }
    }
}
