import ConfigDomain
import ConfigPorts
import Foundation

/// A remote-configuration client: synchronous typed reads, refresh, activation, overrides and updates.
///
/// Build one with ``RemoteConfigBuilder``. Reads of registered keys are synchronous and cheap:
/// conversion, validation and layering happened once, when the current state was activated; a
/// read loads that immutable state and indexes it.
///
/// ```swift
/// let enabled = client[Flags.newCheckout]
/// ```
public final class RemoteConfigClient: Sendable {
    @usableFromInline let registry: KeyRegistry
    @usableFromInline let cell: StateCell
    let engine: RefreshEngine
    let settings: ClientSettings
    let engineStatus: EngineStatusCell
    let eventBroadcaster: Broadcaster<ConfigEvent>
    let updateBroadcaster: Broadcaster<ConfigUpdate>
    /// Cancels the client's background tasks (override observation, periodic refresh), and the
    /// unregistered names already reported.
    let bookkeeping = ClientBookkeeping()

    init(
        registry: KeyRegistry, cell: StateCell, engine: RefreshEngine, settings: ClientSettings,
        engineStatus: EngineStatusCell, events: Broadcaster<ConfigEvent>, updates: Broadcaster<ConfigUpdate>
    ) {
        self.registry = registry
        self.cell = cell
        self.engine = engine
        self.settings = settings
        self.engineStatus = engineStatus
        self.eventBroadcaster = events
        self.updateBroadcaster = updates
    }

    deinit {
        for cancel in bookkeeping.takeCancels() { cancel() }
        eventBroadcaster.finish()
        updateBroadcaster.finish()
    }

    /// Starts a builder for a client that fetches with `fetcher`.
    public static func builder(fetcher: any ConfigFetcher) -> RemoteConfigBuilder {
        RemoteConfigBuilder(fetcher: fetcher)
    }

    // MARK: Synchronous reads

    /// The current value of a key: synchronous, no I/O, no parsing, no validation.
    ///
    /// A registered key returns its resolved value (override, snapshot, last good, or default).
    /// An unregistered key takes a slower path: the raw snapshot value is converted on each read,
    /// and an `ConfigEvent/unregisteredKeyRead(name:)` event says so once.
    @inlinable
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        if let slot = registry.slot(for: key.identity) {
            return cell.withCurrent { state in
                state.value(at: slot, as: Value.self)
            }
        }
        return unregisteredRead(key)
    }

    /// The slow path of the subscript, kept out of line so the inlined fast path stays small.
    @usableFromInline @inline(never)
    func unregisteredRead<Value>(_ key: ConfigKey<Value>) -> Value {
        unregisteredRead(key, state: cell.load())
    }

    /// The slow path of ``ConfigView``'s subscript.
    @usableFromInline @inline(never)
    func unregisteredRead<Value>(_ key: ConfigKey<Value>, in state: ResolvedState) -> Value {
        unregisteredRead(key, state: state)
    }

    /// The current value of a key; the same as the subscript.
    public func value<Value>(_ key: ConfigKey<Value>) -> Value { self[key] }

    /// A consistent view of the current state: several reads through it never see half of a refresh.
    public func snapshot() -> ConfigView { ConfigView(client: self, state: cell.load()) }

    /// The raw value of any key in the active snapshot (registered or not), or nil.
    ///
    /// This is the slow path: nothing is validated. A name that differs from a registered key only by
    /// case or separators produces a `ConfigEvent/mistypedKey(requested:registered:)` event.
    public func rawValue(forKey name: String) -> ConfigValue? {
        let state = cell.load()
        noteUnregistered(name)
        return state.snapshot?.values[name]
    }

    /// Decodes the active snapshot's value for `name` into `type`; the decoded value is cached per state.
    ///
    /// - Throws: `ConfigError/decoding(key:failure:)` naming the key and the path inside the value.
    public func decode<T: Decodable & Sendable>(_ type: T.Type, forKey name: String) throws(ConfigError) -> T {
        try decode(type, forKey: name, in: cell.load())
    }

    func decode<T: Decodable & Sendable>(_ type: T.Type, forKey name: String, in state: ResolvedState) throws(ConfigError) -> T {
        if let cached = state.decodedCache.value(forKey: name, as: T.self) { return cached }
        let raw: ConfigValue
        if let slot = registry.slot(named: name), let registeredRaw = state.details[slot].raw {
            raw = registeredRaw
        } else if let snapshotRaw = state.snapshot?.values[name] {
            raw = snapshotRaw
        } else {
            throw .decoding(
                key: name, failure: DecodingFailure(path: "", reason: "there is no value for this key in the active state"))
        }
        let decoded: T
        do throws(DecodingFailure) {
            decoded = try ConfigValueDecoder().decode(T.self, from: raw)
        } catch {
            throw .decoding(key: name, failure: error)
        }
        state.decodedCache.store(decoded, forKey: name)
        return decoded
    }

    func unregisteredRead<Value>(_ key: ConfigKey<Value>, state: ResolvedState) -> Value {
        noteUnregistered(key.name)
        guard let raw = state.snapshot?.values[key.name], case .success(let value) = key.resolve(raw) else {
            return key.defaultValue
        }
        return value
    }

    private func noteUnregistered(_ name: String) {
        guard registry.slot(named: name) == nil else { return }
        guard bookkeeping.reportsFirst(name) else { return }
        if let intended = registry.likelyIntended(name) {
            engine.emit(.mistypedKey(requested: name, registered: intended))
        } else {
            engine.emit(.unregisteredKeyRead(name: name))
        }
    }

    // MARK: Asynchronous reads

    /// Reads a key under a `ReadPolicy` (see its table for fresh, stale, expired and no data).
    public func value<Value>(_ key: ConfigKey<Value>, policy: ReadPolicy) async -> Value {
        switch policy {
        case .immediate:
            return self[key]
        case .refreshBeforeReturning:
            if currentFreshness() != .fresh { _ = try? await refresh() }
            return self[key]
        case .immediateWithBackgroundRefresh:
            let value = self[key]
            if currentFreshness() != .fresh {
                // Single-flight in the engine; `stop()` cancels the fetch this starts.
                Task { [engine] in _ = await engine.refresh(force: false) }
            }
            return value
        case .cacheOnly:
            guard currentFreshness() == .expired else { return self[key] }
            return valueIgnoringSnapshot(key)
        }
    }

    /// The freshness of the active snapshot now, or nil when there is none.
    public func currentFreshness() -> Freshness? {
        guard let metadata = cell.load().snapshot?.metadata else { return nil }
        return effectiveFreshness(metadata).freshness(fetchedAt: metadata.fetchedAt, now: settings.clock.now())
    }

    func effectiveFreshness(_ metadata: SnapshotMetadata) -> FreshnessPolicy {
        var policy = settings.freshness
        if settings.honorsTTLHints, let hint = metadata.ttlHint, hint > 0 { policy.ttl = hint }
        return policy
    }

    /// The key's value from overrides or its default, as if no snapshot were held.
    func valueIgnoringSnapshot<Value>(_ key: ConfigKey<Value>) -> Value {
        guard let slot = registry.slot(for: key.identity) else { return key.defaultValue }
        let state = cell.load()
        if state.details[slot].layer.isOverride {
            return state.value(at: slot, as: Value.self)
        }
        return key.defaultValue
    }

    // MARK: Refresh and activation

    /// Fetches now unless the scheduler holds it back; concurrent callers share one fetch.
    ///
    /// - Parameter force: ignore the minimum fetch interval and backoff (a server's `Retry-After` still holds).
    /// - Returns: what the refresh did; a skipped refresh is not an error.
    /// - Throws: `ConfigError` when the fetch or decoding failed. The last good state is kept.
    @discardableResult
    public func refresh(force: Bool = false) async throws(ConfigError) -> RefreshResult {
        try await engine.refresh(force: force).get()
    }

    /// Applies a snapshot waiting for activation (manual or next-launch policy); nil when none waits.
    @discardableResult
    public func activate() async -> RefreshResult? {
        await engine.activatePending()
    }

    /// Stops background refreshes and override observation, and finishes every stream.
    public func stop() async {
        for cancel in bookkeeping.takeCancels() { cancel() }
        await engine.stop()
        eventBroadcaster.finish()
        updateBroadcaster.finish()
    }

    // MARK: Provenance and inspection

    /// Where a key's value came from, what was rejected on the way, and how fresh the snapshot is.
    public func explain<Value>(_ key: ConfigKey<Value>) -> Explanation {
        explain(name: key.name, state: cell.load(), key: key)
    }

    /// Explains a key by name (registered or not).
    public func explain(name: String) -> Explanation {
        explain(name: name, state: cell.load(), key: Optional<ConfigKey<ConfigValue>>.none)
    }

    func explain<Value>(name: String, state: ResolvedState, key: ConfigKey<Value>?) -> Explanation {
        let metadata = state.snapshot?.metadata
        let now = settings.clock.now()
        let age = metadata.map { now.timeIntervalSince($0.fetchedAt) }
        let freshness = metadata.map { effectiveFreshness($0).freshness(fetchedAt: $0.fetchedAt, now: now) }
        if let slot = registry.slot(named: name) {
            let detail = state.details[slot]
            return Explanation(
                key: name, isRegistered: true, value: registry.entries[slot].render(state.box(at: slot)), layer: detail.layer,
                rejected: detail.rejected,
                snapshot: metadata, snapshotAge: age, freshness: freshness, generation: state.generation)
        }
        var rejected: [Rejection] = []
        var rendered = "nil"
        var layer = ValueLayer.defaultValue
        if let raw = state.snapshot?.values[name] {
            if let key {
                switch key.resolve(raw) {
                case .success(let v): rendered = key.render(v); layer = .snapshot(source: metadata?.source ?? "")
                case .failure(let r): rejected.append(r); rendered = key.render(key.defaultValue)
                }
            } else {
                rendered = raw.jsonText()
                layer = .snapshot(source: metadata?.source ?? "")
            }
        } else if let key {
            rendered = key.render(key.defaultValue)
        }
        return Explanation(
            key: name, isRegistered: false, value: rendered, layer: layer, rejected: rejected, snapshot: metadata,
            snapshotAge: age, freshness: freshness, generation: state.generation)
    }

    /// Every registered key: name, type, default and rules.
    public var registeredKeys: [KeyDescriptor] { registry.descriptors }

    /// Freshness, last fetch and outcome, last error, scheduler, key count, pending activation, cache.
    public var status: ClientStatus {
        let engine = engineStatus.current
        let state = cell.load()
        return ClientStatus(
            freshness: currentFreshness(), snapshot: state.snapshot?.metadata, lastFetch: engine.lastFetch,
            lastOutcome: engine.lastOutcome, lastError: engine.lastError, scheduler: engine.scheduler,
            keyCount: registry.entries.count, pendingActivation: engine.pendingActivation, cache: engine.cache,
            generation: state.generation)
    }

    // MARK: Updates

    /// Every event from now on (refreshes, errors, rejections, cache trouble), until the client stops.
    public func events() -> AsyncStream<ConfigEvent> { eventBroadcaster.stream() }

    /// Every change of the values reads see, from now on.
    public func updates() -> AsyncStream<ConfigUpdate> { updateBroadcaster.stream() }

    /// The key's current value first, then its value after each change. A slow consumer gets the latest value.
    public func values<Value: Sendable>(_ key: ConfigKey<Value>) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let lastGeneration = Locked<UInt64?>(nil)
        let yieldCurrent: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let state = self.cell.load()
            let shouldYield = lastGeneration.withLock { last -> Bool in
                if let last, last >= state.generation { return false }
                last = state.generation
                return true
            }
            if shouldYield {
                let value: Value =
                    if let slot = self.registry.slot(for: key.identity) {
                        state.value(at: slot, as: Value.self)
                    } else {
                        self.unregisteredRead(key, state: state)
                    }
                continuation.yield(value)
            }
        }
        let handler = updateBroadcaster.addHandler { update in
            if update.changedKeys.contains(key.name) { yieldCurrent() }
        }
        continuation.onTermination = { [weak updateBroadcaster] _ in updateBroadcaster?.removeHandler(handler) }
        yieldCurrent()
        return stream
    }

    /// Calls `handler` after each change of the values reads see, until the token is cancelled or released.
    public func onChange(_ handler: @escaping @Sendable (ConfigUpdate) -> Void) -> ObservationToken {
        let id = updateBroadcaster.addHandler(handler)
        return ObservationToken { [weak updateBroadcaster] in updateBroadcaster?.removeHandler(id) }
    }
}
