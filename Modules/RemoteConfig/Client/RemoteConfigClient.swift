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
    /// Makes every new state: refreshes, override changes and writes.
    let activator: Activator
    /// One engine per remote provider; the first refreshes the builder's own fetcher.
    let engines: [RefreshEngine]
    let eventBroadcaster: Broadcaster<ConfigEvent>
    let updateBroadcaster: Broadcaster<ConfigUpdate>
    /// By provider: takes its push sources' signals into its refresh (nil for a provider without push sources).
    let pushReceivers: [PushReceiver?]
    /// The events `build()` raised, which each `events()` stream starts with.
    let startupEvents: [ConfigEvent]
    /// Where reads that give no context find one (a server's request), if the builder was given a source.
    let contextSource: (any EvaluationContextSource)?
    /// Run around every evaluation, in the order added.
    let hooks: [any EvaluationHook]
    /// Reports rule-decided values' first reads, when the builder asked for it.
    let exposures: ExposureRecorder?
    /// Whether a read that gives no context is the plain fast read: no context source, no hooks, no exposures.
    @usableFromInline let plainReads: Bool
    /// Starts the background work (override observation, push, periodic refresh) and returns its tasks.
    let backgroundWork: @Sendable (RemoteConfigClient) -> [Task<Void, Never>]
    /// The client's background tasks, whether they were started and whether the client stopped, the
    /// `run()` calls waiting for it to stop, and the names whose unregistered reads were reported.
    let bookkeeping = Locked(
        (
            tasks: [Task<Void, Never>](), started: false, stopped: false, runners: [CheckedContinuation<Void, Never>](),
            reported: Set<String>()
        ))

    init(
        registry: KeyRegistry, activator: Activator, engines: [RefreshEngine],
        events: Broadcaster<ConfigEvent>, updates: Broadcaster<ConfigUpdate>, pushReceivers: [PushReceiver?] = [],
        startupEvents: [ConfigEvent] = [], contextSource: (any EvaluationContextSource)? = nil,
        hooks: [any EvaluationHook] = [], exposures: ExposureRecorder? = nil,
        backgroundWork: @escaping @Sendable (RemoteConfigClient) -> [Task<Void, Never>] = { _ in [] }
    ) {
        self.contextSource = contextSource
        self.hooks = hooks
        self.exposures = exposures
        self.plainReads = contextSource == nil && hooks.isEmpty && exposures == nil
        self.backgroundWork = backgroundWork
        self.startupEvents = startupEvents
        self.registry = registry
        self.cell = activator.cell
        self.activator = activator
        self.engines = engines
        self.eventBroadcaster = events
        self.updateBroadcaster = updates
        self.pushReceivers = pushReceivers
    }

    /// The engine of the builder's own fetcher (provider 0).
    var engine: RefreshEngine { engines[0] }

    deinit {
        for task in bookkeeping.withLock({ $0.tasks }) { task.cancel() }
        exposures?.finish()
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
    /// A registered key (any key with a registered key's name, type, default and rules) returns its
    /// resolved value. Any other key, a key with a registered name but another type or definition
    /// included, is resolved on the spot through the same layers with its own default and rules, and a
    /// `ConfigEvent` says so once.
    ///
    /// With a context source (``RemoteConfigBuilder/contextSource(_:)``), a read inside a request
    /// evaluates for the request's context, as ``value(_:for:)`` does.
    @inlinable @inline(__always)
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        if plainReads, let slot = registry.slot(for: key.fingerprint, type: ObjectIdentifier(Value.self)) {
            return cell.withCurrent { $0.value(at: slot, as: Value.self) }
        }
        return slowRead(key)
    }

    /// A read the fast path could not serve: the key is not registered under this name, type and
    /// definition, or the client has a context source, hooks or exposures.
    @usableFromInline
    func slowRead<Value>(_ key: ConfigKey<Value>) -> Value {
        if let context = contextSource?.currentContext { return value(key, for: context) }
        if !hooks.isEmpty || exposures != nil {
            let state = cell.load()
            return evaluated(key, for: state.context, in: state).value
        }
        if let slot = registry.slot(for: key.fingerprint, type: ObjectIdentifier(Value.self)) {
            return cell.withCurrent { $0.value(at: slot, as: Value.self) }
        }
        return value(key, in: cell.load())
    }

    /// The current value of a key; the same as the subscript.
    public func value<Value>(_ key: ConfigKey<Value>) -> Value { self[key] }

    /// A consistent view of the current state: several reads through it never see half of a refresh.
    /// With a context source, its reads evaluate for the context of the calling task's request.
    public func snapshot() -> ConfigView { ConfigView(client: self, state: cell.load(), context: contextSource?.currentContext) }

    /// A consistent view of the current state whose reads evaluate for `context`.
    public func snapshot(for context: EvaluationContext) -> ConfigView {
        ConfigView(client: self, state: cell.load(), context: context)
    }

    /// The raw value of any name in the active snapshots (the first, in precedence order, that
    /// offers one: what its targeting rules serve in the current context, else its plain value),
    /// unconverted and unchecked, or nil.
    ///
    /// A name that differs from a registered key only by case or separators produces a
    /// `ConfigEvent/mistypedKey(requested:registered:)` event.
    public func rawValue(forKey name: String) -> ConfigValue? {
        if registry.slot(named: name) == nil { noteUnregistered(name) }
        return cell.load().sources.rawValue(name)?.value
    }

    /// A read of a key the registry does not hold under this name, type and definition: resolved alone,
    /// with its own default and rules.
    /// (Reads for a context given with the call are in `RemoteConfigClient+ContextPerCall.swift`.)
    func unregisteredRead<Value>(_ key: ConfigKey<Value>, in state: ResolvedState) -> Value {
        noteUnregistered(key)
        return resolvedAlone(key, sources: state.sources)
    }

    /// `key` resolved on its own, through `sources` and its own rules, as no registry slot holds it.
    private func resolvedAlone<Value>(_ key: ConfigKey<Value>, sources: ValueSources) -> Value {
        let alone = Resolver.resolve(key, slot: nil, sources: sources, previous: nil)
        return (alone.box as? ValueBox<Value>)?.value ?? key.defaultValue
    }

    /// Reports, once per name, a read of `key` that did not go through a registered key: its name is
    /// registered with another type or another definition, or not registered at all.
    func noteUnregistered<Value>(_ key: ConfigKey<Value>) {
        guard let slot = registry.slot(named: key.name) else { return noteUnregistered(key.name) }
        guard isFirstReport(of: key.name) else { return }
        let registered = KeyRegistry.descriptor(of: registry.keys[slot])
        if registry.valueType(at: slot) == key.valueType {
            engine.emit(.keyDefinitionMismatch(name: key.name, registered: registered, read: key.descriptor))
        } else {
            engine.emit(
                .keyTypeMismatch(name: key.name, registeredType: registered.typeName, readType: key.converter.typeName))
        }
    }

    /// Reports, once per name, a read of `name`, which no registered key has.
    private func noteUnregistered(_ name: String) {
        guard isFirstReport(of: name) else { return }
        if let intended = registry.likelyIntended(name) {
            engine.emit(.mistypedKey(requested: name, registered: intended))
        } else {
            engine.emit(.unregisteredKeyRead(name: name))
        }
    }

    /// Whether no read of `name` was reported yet; records that one now is.
    private func isFirstReport(of name: String) -> Bool {
        bookkeeping.withLock { $0.reported.insert(name).inserted }
    }

    // MARK: Asynchronous reads

    /// Reads a key under a `ReadPolicy` (see its table for fresh, stale, expired and no data).
    public func value<Value>(_ key: ConfigKey<Value>, policy: ReadPolicy) async -> Value {
        switch policy {
        case .immediate:
            return self[key]
        case .refreshBeforeReturning:
            _ = await refreshEach(force: false, onlyUnlessFresh: true)
            return self[key]
        case .immediateWithBackgroundRefresh:
            let value = self[key]
            for engine in engines { engine.refreshInBackgroundIfStale() }
            return value
        case .cacheOnly:
            let expired = engines.filter { $0.freshness() == .expired }.map(\.provider)
            guard !expired.isEmpty else { return self[key] }
            return resolvedAlone(key, sources: cell.load().sources.withoutPayloads(of: expired))
        }
    }

    /// The freshness of the builder's own fetcher's active snapshot now, or nil when there is none.
    public func currentFreshness() -> Freshness? { engine.freshness() }

    // MARK: Refresh and activation

    /// Fetches now from every provider unless its scheduler holds it back; callers that arrive
    /// while a provider's fetch runs share it. Each provider activates its snapshot as soon as its
    /// own fetch is done: one failing or slow provider never holds back the others.
    ///
    /// - Parameter force: ignore the minimum fetch interval and backoff (a server's `Retry-After` still holds).
    /// - Returns: what the refresh did (with several providers, all of it: see ``RefreshResult``);
    ///   a skipped refresh is not an error.
    /// - Throws: `ConfigError` when every provider's fetch or decoding failed (the builder's own
    ///   fetcher's error first), or when a new payload offered the registered keys values and every
    ///   one was rejected (`.rejected`, the first of them). The last good values are kept.
    ///   ``status`` has each provider's outcome.
    @discardableResult
    public func refresh(force: Bool = false) async throws(ConfigError) -> RefreshResult {
        try await refreshEach(force: force, onlyUnlessFresh: false).get()
    }

    /// Applies the snapshots waiting for activation (manual or next-launch policy); nil when none waits.
    @discardableResult
    public func activate() async -> RefreshResult? {
        var results: [Result<RefreshResult, ConfigError>] = []
        for engine in engines {
            if let result = await engine.activatePending() { results.append(.success(result)) }
        }
        return results.isEmpty ? nil : try? RefreshResult.combining(results).get()
    }

    /// Stops background refreshes, push and override observation, and finishes every stream; a
    /// running ``run()`` returns.
    public func stop() async {
        let (tasks, runners) = bookkeeping.withLock { book in
            book.stopped = true
            defer { book.runners = [] }
            return (book.tasks, book.runners)
        }
        for task in tasks { task.cancel() }
        for engine in engines { engine.stop() }
        activator.stop()
        exposures?.finish()
        eventBroadcaster.finish()
        updateBroadcaster.finish()
        for runner in runners { runner.resume() }
    }

    // MARK: Provenance and inspection

    /// Where a key's value came from, what was rejected on the way, and how fresh the snapshot is.
    /// With a context source, for the context of the calling task's request.
    public func explain<Value>(_ key: ConfigKey<Value>) -> Explanation {
        if let context = contextSource?.currentContext { return explain(key, for: context) }
        return explain(key, in: cell.load())
    }

    /// Explains a key by name (registered or not), as `rawValue(forKey:)` names it.
    public func explain(forKey name: String) -> Explanation {
        let state = cell.load()
        if let slot = registry.slot(named: name) { return explain(registry.keys[slot], in: state) }
        let raw = state.sources.rawValue(name)
        return explanation(
            name: name, isRegistered: false, value: raw?.value.jsonText() ?? "nil",
            layer: raw.map { state.valueLayer(.snapshot($0.provider), name: name, lastGood: nil) } ?? .defaultValue,
            rejected: [], provider: raw?.provider, targeting: state.sources.decision(for: name, from: raw?.provider),
            in: state)
    }

    func explain<Key: ConfigKeyRepresentable>(_ key: Key, in state: ResolvedState) -> Explanation {
        let key = key.configKey
        // By fingerprint and type, as a read finds its slot: a key with another definition is explained alone.
        if let slot = registry.slot(for: key.fingerprint, type: key.valueType) {
            return explanation(
                name: key.name, isRegistered: true, value: key.render(state.values[slot]),
                layer: state.valueLayer(at: slot, name: key.name), rejected: state.rejections[slot] ?? [],
                provider: state.provider(at: slot), targeting: state.decision(at: slot, name: key.name), in: state)
        }
        let alone = Resolver.resolve(key, slot: nil, sources: state.sources, previous: nil)
        let provider: Int? = if case .snapshot(let provider) = alone.layer { provider } else { nil }
        return explanation(
            name: key.name, isRegistered: false, value: key.render(alone.box),
            layer: state.valueLayer(alone.layer, name: key.name, lastGood: nil), rejected: alone.rejected,
            provider: provider, targeting: state.sources.decision(for: key.name, from: provider), in: state)
    }

    /// An explanation; the snapshot described is `provider`'s, else the builder's own fetcher's.
    func explanation(
        name: String, isRegistered: Bool, value: String, layer: ValueLayer, rejected: [Rejection], provider: Int?,
        targeting: TargetingDecision?, in state: ResolvedState
    ) -> Explanation {
        let described = provider ?? 0
        let metadata = engines[described].activeMetadata
        let settings = engines[described].settings
        return Explanation(
            key: name, isRegistered: isRegistered, value: value, layer: layer, rejected: rejected,
            provider: provider.map { state.sources.providerNames[$0] }, snapshot: metadata,
            snapshotAge: metadata.map { settings.clock.now().timeIntervalSince($0.fetchedAt) },
            freshness: metadata.map { settings.freshness(of: $0) }, generation: state.generation,
            targeting: targeting)
    }

    /// Every registered key: name, type, default and rules.
    public var registeredKeys: [KeyDescriptor] { registry.keys.map { KeyRegistry.descriptor(of: $0) } }

    /// Freshness, last fetch and outcome, last error, scheduler, key count, pending activation, cache
    /// (of the builder's own fetcher), and the same for every provider.
    public var status: ClientStatus {
        let state = cell.load()
        return ClientStatus(
            keyCount: registry.keys.count, generation: state.generation, own: engine.providerStatus(),
            others: engines.dropFirst().map { $0.providerStatus() })
    }

    // MARK: Updates

    /// The events `build()` raised (the cache loaded or missed, cached values rejected, override
    /// problems), then every event from now on (refreshes, errors, rejections, cache trouble), until the client stops.
    public func events() -> AsyncStream<ConfigEvent> { eventBroadcaster.stream(startingWith: startupEvents) }

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
        if let slot = registry.slot(for: key.fingerprint, type: ObjectIdentifier(Value.self)) {
            return state.value(at: slot, as: Value.self)
        }
        return unregisteredRead(key, in: state)
    }

    /// Calls `handler` after each change of the values reads see, until the token is cancelled or released.
    public func onChange(_ handler: @escaping @Sendable (ConfigUpdate) -> Void) -> ObservationToken {
        let id = updateBroadcaster.addHandler(handler)
        return ObservationToken { [weak updateBroadcaster] in updateBroadcaster?.removeHandler(id) }
    }
}
