import ConfigDomain
import ConfigPorts
import Foundation

/// A remote-configuration client: synchronous typed reads, refresh, activation, overrides and updates.
///
/// Build one with ``RemoteConfigBuilder``. Conversion, validation and layering happen once per
/// activation; a read of a registered key finds the key's slot and returns its value.
///
/// ```swift
/// let enabled = client[Flags.newCheckout]
/// ```
public final class RemoteConfigClient: Sendable {
    @usableFromInline let registry: KeyRegistry
    @usableFromInline let cell: StateCell
    let engine: RefreshEngine
    let eventBroadcaster: Broadcaster<ConfigEvent>
    let updateBroadcaster: Broadcaster<ConfigUpdate>
    /// The client's background tasks (override observation, periodic refresh), and the names whose
    /// unregistered reads were reported.
    let bookkeeping = Locked((tasks: [Task<Void, Never>](), reported: Set<String>()))

    init(
        registry: KeyRegistry, cell: StateCell, engine: RefreshEngine, events: Broadcaster<ConfigEvent>,
        updates: Broadcaster<ConfigUpdate>
    ) {
        self.registry = registry
        self.cell = cell
        self.engine = engine
        self.eventBroadcaster = events
        self.updateBroadcaster = updates
    }

    deinit {
        for task in bookkeeping.withLock({ $0.tasks }) { task.cancel() }
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
    /// A registered key (any key with a registered key's name and type) returns its resolved value.
    /// Any other key is resolved on the spot through the same layers and its own rules, and a
    /// ``ConfigEvent`` says so once.
    @inlinable
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        if let slot = registry.slot(named: key.name, hash: key.nameHash),
            let value = cell.withCurrent({ $0.value(at: slot, as: Value.self) })
        {
            return value
        }
        return slowRead(key)
    }

    /// A read the fast path could not serve: the key is not registered under this name and type.
    @usableFromInline
    func slowRead<Value>(_ key: ConfigKey<Value>) -> Value { value(key, in: cell.load()) }

    /// The current value of a key; the same as the subscript.
    public func value<Value>(_ key: ConfigKey<Value>) -> Value { self[key] }

    /// A consistent view of the current state: several reads through it never see half of a refresh.
    public func snapshot() -> ConfigView { ConfigView(client: self, state: cell.load()) }

    /// The raw value of any name in the active snapshot, unconverted and unchecked, or nil.
    ///
    /// A name that differs from a registered key only by case or separators produces a
    /// `ConfigEvent/mistypedKey(requested:registered:)` event.
    public func rawValue(forKey name: String) -> ConfigValue? {
        noteUnregistered(name, readType: nil)
        return cell.load().snapshot?.values[name]
    }

    /// A read of a key the registry does not hold under this name and type: resolved alone.
    func unregisteredRead<Value>(_ key: ConfigKey<Value>, in state: ResolvedState) -> Value {
        noteUnregistered(key.name, readType: key.converter.typeName)
        return resolvedAlone(key, snapshot: state.snapshot, overrides: state.overrides, context: state.context)
    }

    /// `key` resolved on its own, through `overrides`, `snapshot` (its targeting rules for `context`)
    /// and its own rules, as no registry slot holds it.
    private func resolvedAlone<Value>(
        _ key: ConfigKey<Value>, snapshot: ConfigSnapshot?, overrides: [OverrideLayer], context: EvaluationContext
    ) -> Value {
        let alone = Resolver.resolve(
            key, slot: nil, snapshot: snapshot, overrides: overrides, context: context, previous: nil)
        return (alone.box as? ValueBox<Value>)?.value ?? key.defaultValue
    }

    /// Reports, once per name, a read that did not go through a registered key.
    private func noteUnregistered(_ name: String, readType: String?) {
        let slot = registry.slot(named: name)
        if slot != nil, readType == nil { return }
        guard bookkeeping.withLock({ $0.reported.insert(name).inserted }) else { return }
        if let slot, let readType {
            engine.emit(
                .keyTypeMismatch(name: name, registeredType: KeyRegistry.descriptor(of: registry.keys[slot]).typeName, readType: readType))
        } else if let intended = registry.likelyIntended(name) {
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
            if currentFreshness() != .fresh { _ = await engine.refresh(force: false) }
            return self[key]
        case .immediateWithBackgroundRefresh:
            let value = self[key]
            engine.refreshInBackgroundIfStale()
            return value
        case .cacheOnly:
            guard currentFreshness() == .expired else { return self[key] }
            return resolvedAlone(key, snapshot: nil, overrides: cell.load().overrides, context: .empty)
        }
    }

    /// The freshness of the active snapshot now, or nil when there is none.
    public func currentFreshness() -> Freshness? {
        cell.load().snapshot.map { engine.settings.freshness(of: $0.metadata) }
    }

    // MARK: Refresh and activation

    /// Fetches now unless the scheduler holds it back; callers that arrive while a fetch runs share it.
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
        for task in bookkeeping.withLock({ $0.tasks }) { task.cancel() }
        engine.stop()
        eventBroadcaster.finish()
        updateBroadcaster.finish()
    }

    // MARK: Provenance and inspection

    /// Where a key's value came from, what was rejected on the way, and how fresh the snapshot is.
    public func explain<Value>(_ key: ConfigKey<Value>) -> Explanation { explain(key, in: cell.load()) }

    /// Explains a key by name (registered or not).
    public func explain(name: String) -> Explanation {
        let state = cell.load()
        if let slot = registry.slot(named: name) { return explain(registry.keys[slot], in: state) }
        let raw = state.snapshot?.values[name]
        return explanation(
            name: name, isRegistered: false, value: raw?.jsonText() ?? "nil",
            layer: raw == nil ? .defaultValue : .snapshot(source: state.snapshot?.metadata.source ?? ""), rejected: [],
            in: state)
    }

    func explain<Key: ConfigKeyRepresentable>(_ key: Key, in state: ResolvedState) -> Explanation {
        let key = key.configKey
        if let slot = registry.slot(named: key.name), registry.valueTypes[slot] == key.valueType {
            return explanation(
                name: key.name, isRegistered: true, value: key.render(state.values[slot]),
                layer: state.valueLayer(at: slot, name: key.name), rejected: state.rejections[slot] ?? [],
                targeting: state.decision(at: slot), in: state)
        }
        let alone = Resolver.resolve(
            key, slot: nil, snapshot: state.snapshot, overrides: state.overrides, context: state.context, previous: nil)
        let layer: ValueLayer =
            switch alone.layer {
            case .override(let position):
                .override(
                    source: state.overrides[position].name, position: position,
                    origin: state.overrides[position].snapshot.values[key.name]?.origin ?? "")
            case .snapshot: .snapshot(source: state.snapshot?.metadata.source ?? "")
            case .lastGood, .defaultValue: .defaultValue
            }
        return explanation(
            name: key.name, isRegistered: false, value: key.render(alone.box), layer: layer, rejected: alone.rejected,
            targeting: alone.decision, in: state)
    }

    private func explanation(
        name: String, isRegistered: Bool, value: String, layer: ValueLayer, rejected: [Rejection],
        targeting: TargetingDecision? = nil, in state: ResolvedState
    ) -> Explanation {
        let metadata = state.snapshot?.metadata
        return Explanation(
            key: name, isRegistered: isRegistered, value: value, layer: layer, rejected: rejected, snapshot: metadata,
            snapshotAge: metadata.map { engine.settings.clock.now().timeIntervalSince($0.fetchedAt) },
            freshness: metadata.map { engine.settings.freshness(of: $0) }, generation: state.generation,
            targeting: targeting)
    }

    /// Every registered key: name, type, default and rules.
    public var registeredKeys: [KeyDescriptor] { registry.keys.map { KeyRegistry.descriptor(of: $0) } }

    /// Freshness, last fetch and outcome, last error, scheduler, key count, pending activation, cache.
    public var status: ClientStatus {
        let engineStatus = engine.status
        let state = cell.load()
        return ClientStatus(
            freshness: currentFreshness(), snapshot: state.snapshot?.metadata, lastFetch: engineStatus.lastFetch,
            lastOutcome: engineStatus.lastOutcome, lastError: engineStatus.lastError, scheduler: engineStatus.scheduler,
            keyCount: registry.keys.count, pendingActivation: engineStatus.pendingActivation, cache: engineStatus.cache,
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
        let lastGeneration = Locked<UInt64>(0)
        let yieldCurrent: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let state = self.cell.load()
            let isNew = lastGeneration.withLock { last -> Bool in
                guard last < state.generation else { return false }
                last = state.generation
                return true
            }
            guard isNew else { return }
            continuation.yield(self.value(key, in: state))
        }
        let handler = updateBroadcaster.addHandler { update in
            if update.changedKeys.contains(key.name) { yieldCurrent() }
        }
        continuation.onTermination = { [weak updateBroadcaster] _ in updateBroadcaster?.removeHandler(handler) }
        yieldCurrent()
        return stream
    }

    /// The key's value in `state`.
    func value<Value: Sendable>(_ key: ConfigKey<Value>, in state: ResolvedState) -> Value {
        if let slot = registry.slot(named: key.name, hash: key.nameHash), let value = state.value(at: slot, as: Value.self) {
            return value
        }
        return unregisteredRead(key, in: state)
    }

    /// Calls `handler` after each change of the values reads see, until the token is cancelled or released.
    public func onChange(_ handler: @escaping @Sendable (ConfigUpdate) -> Void) -> ObservationToken {
        let id = updateBroadcaster.addHandler(handler)
        return ObservationToken { [weak updateBroadcaster] in updateBroadcaster?.removeHandler(id) }
    }
}
