import ConfigDomain
import ConfigPorts
import Foundation

/// A remote-configuration client: typed reads, refresh, activation, overrides and watching, in one
/// vocabulary.
///
/// | to | call |
/// |---|---|
/// | read now, for the app's context or one given with the call | `client[key]`, `client[key, for: context]` |
/// | read several keys from one state | `client.view()`, `client.view(for: context)` |
/// | read after bringing the providers up to date | `await client.fetch()` |
/// | watch a key or every state | `client.watch(key)`, `client.watch()` |
/// | ask why | `client.details(key)`, `client.details(key, for: context)` |
/// | hear what happened (logs, metrics) | `client.events()`, or an observer on the builder |
///
/// Build one with ``RemoteConfigBuilder``. Conversion, validation and layering happen once per
/// activation; a read of a registered key finds the key's slot and returns its value. Only a key
/// whose value can differ by context (some payload's rules target it) is evaluated on a read, and
/// only for a context other than the one it was resolved for.
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
    /// Every new state, for `watch`.
    let states: Broadcaster<ResolvedState>
    /// By provider: takes its push sources' signals into its refresh (nil for a provider without push sources).
    let pushReceivers: [PushReceiver?]
    /// The events `build()` raised, which each `events()` stream starts with.
    let startupEvents: [ConfigEvent]
    /// What a read of a targeted key does beyond the plain read (a context source, hooks, exposures),
    /// when the builder installed any of them.
    @usableFromInline let interception: ReadInterception?
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
        registry: KeyRegistry, activator: Activator, engines: [RefreshEngine], events: Broadcaster<ConfigEvent>,
        pushReceivers: [PushReceiver?] = [], startupEvents: [ConfigEvent] = [], interception: ReadInterception? = nil,
        backgroundWork: @escaping @Sendable (RemoteConfigClient) -> [Task<Void, Never>] = { _ in [] }
    ) {
        self.interception = interception
        self.backgroundWork = backgroundWork
        self.startupEvents = startupEvents
        self.registry = registry
        self.cell = activator.cell
        self.activator = activator
        self.states = activator.states
        self.engines = engines
        self.eventBroadcaster = events
        self.pushReceivers = pushReceivers
    }

    /// The engine of the builder's own fetcher (provider 0).
    var engine: RefreshEngine { engines[0] }

    deinit {
        for task in bookkeeping.withLock({ $0.tasks }) { task.cancel() }
        interception?.exposures?.finish()
        eventBroadcaster.finish()
        states.finish()
    }

    /// Starts a builder for a client that fetches with `fetcher`.
    public static func builder(fetcher: any ConfigFetcher) -> RemoteConfigBuilder {
        RemoteConfigBuilder(fetcher: fetcher)
    }

    // MARK: Reading

    /// The key's value: synchronous, no I/O, and no state swapped.
    ///
    /// Without `context`, the value for the client's own context (``updateContext(_:)``), or, with a
    /// context source (``RemoteConfigBuilder/contextSource(_:)``), for the calling task's request. With
    /// `context`, the value for that context, given with the call (a server's request):
    ///
    /// ```swift
    /// let enabled = client[Flags.newCheckout]
    /// let forUser = client[Flags.newCheckout, for: EvaluationContext(targetingKey: userID, attributes: ["country": "DE"])]
    /// ```
    ///
    /// A registered key returns the value resolved at activation, unless its value can differ by
    /// context and the read is for another context: then the rules of the snapshots holding the key
    /// are evaluated for it (about the cost of one activation of that key: see
    /// `Integration/Benchmarks/README.md`). Any other key, a key with a registered name but another
    /// type or definition included, is resolved on the spot through the same layers with its own
    /// default and rules, and a `ConfigEvent` says so once.
    @inlinable @inline(__always)
    public subscript<Value>(key: ConfigKey<Value>, for context: EvaluationContext? = nil) -> Value {
        if context == nil, let slot = registry.slot(for: key.fingerprint, type: ObjectIdentifier(Value.self)) {
            let plain: Value? = cell.withCurrent { $0.isPlain(slot) ? $0.value(at: slot, as: Value.self) : nil }
            if let plain { return plain }
            // A targeted key of a client with a context source, hooks or exposures: outside a request and
            // without hooks, still the value the state holds.
            let state = cell.read()
            guard let interception else { return state.value(at: slot, as: Value.self) }
            switch interception.read(slot: slot, in: state, registry: registry) {
            case .stored: return state.value(at: slot, as: Value.self)
            case .evaluate(let request): return read(key, for: request)
            }
        }
        return read(key, for: context)
    }

    /// A read the fast path could not serve: a context given with the call, a key read through the
    /// client's interception, or a key the registry does not hold under this name, type and definition.
    @usableFromInline
    func read<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext?) -> Value {
        value(key, in: cell.read(), for: context)
    }

    /// The key's value in `state`, for `context` (nil: the state's own, or the context source's).
    func value<Value>(_ key: ConfigKey<Value>, in state: ResolvedState, for context: EvaluationContext?) -> Value {
        let slot = registry.slot(for: key.fingerprint, type: ObjectIdentifier(Value.self))
        if slot == nil { noteUnregistered(key) }
        if let interception { return interception.read(key, slot: slot, in: state, for: context, client: self) }
        if let slot, context == nil || !state.dependsOnContext(slot) {
            return state.value(at: slot, as: Value.self)
        }
        let resolution = Resolver.resolve(key, slot: slot, in: state, for: context ?? state.context, explaining: false)
        return key.converter.value(in: resolution.box, or: key.defaultValue)
    }

    /// Several reads from one state: every read through the view sees the same activation, never half
    /// of a refresh, for `context` (nil: the client's own, or the calling task's request's with a context source).
    public func view(for context: EvaluationContext? = nil) -> ConfigView {
        ConfigView(client: self, state: cell.read(), context: context ?? interception?.contextSource?.currentContext)
    }

    /// Why the key's value is what it is, for `context` (nil: the client's own, or the calling task's
    /// request's with a context source): the value with its layer, provider and snapshot, freshness,
    /// rejections, the deciding rule or bucket with its provenance, variant, reason, error and metadata.
    ///
    /// ```swift
    /// print(client.details(Flags.newCheckout))          // a few lines for a person
    /// client.details(Flags.newCheckout).reason          // STATIC, TARGETING_MATCH, SPLIT, DEFAULT, CACHED…
    /// ```
    ///
    /// The key's rules are evaluated once, recording what they read and which rules did not match;
    /// hooks run around the evaluation and an exposure is reported as for a read.
    public func details<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext? = nil) -> EvaluationDetails<Value> {
        details(key, in: cell.read(), for: context)
    }

    // MARK: Context

    /// The evaluation context that the current values were resolved for.
    public var context: EvaluationContext { cell.load().context }

    /// Changes the evaluation context, for example at login or logout, and re-resolves the keys
    /// whose value can depend on it. `update` runs under the client's lock on the current context, so
    /// two updates never lose each other's changes; keep it short.
    ///
    /// ```swift
    /// client.updateContext { $0.targetingKey = "u1"; $0.attributes["plan"] = "pro" }   // login
    /// client.updateContext { $0 = EvaluationContext() }                                 // logout
    /// ```
    ///
    /// Synchronous and atomic: when it returns, reads see the values for the new context, and no read
    /// ever sees half of the change. It fetches nothing, except from a provider whose server evaluates
    /// the flags (`ConfigFetcher.evaluatesContext`, such as OFREP): that provider serves at once what
    /// the cache holds for the new targeting key (or nothing, so its keys fall to the layers below), and
    /// fetches for the new context in the background. A state whose `update` has cause
    /// `ConfigUpdate/Cause/context` names the keys whose value changed (none: no new state).
    /// - Returns: the names of the keys whose value changed.
    @discardableResult
    public func updateContext(_ update: (inout EvaluationContext) -> Void) -> [String] {
        let remote = engines.filter(\.evaluatesContext)
        guard !remote.isEmpty else { return activator.changeContext(update) }
        var moved = false
        let changed = activator.changeContext(update) { sources in
            moved = true
            for engine in remote { engine.move(to: sources.context, in: &sources) }
        }
        if moved {
            for engine in remote { engine.refetchForNewContext() }
        }
        return changed
    }

    /// Sends `name` (with a number and details) to the client's observers and `events()` as
    /// `ConfigEvent/tracked(_:)`, with the context of the calling task's request, else the client's own:
    /// what an experiment measures against the exposures.
    public func track(_ name: String, value: Double? = nil, attributes: [String: ConfigValue] = [:]) {
        let context = interception?.contextSource?.currentContext ?? cell.load().context
        engine.emit(.tracked(TrackedEvent(name: name, value: value, attributes: attributes, context: context)))
    }

    // MARK: Inspection and events

    /// Freshness, last fetch and outcome, last error, scheduler, pending activation, cache (of the
    /// builder's own fetcher), the same for every provider, and the registered keys.
    public var status: ClientStatus {
        let state = cell.load()
        return ClientStatus(
            registeredKeys: registry.keys.map { KeyRegistry.descriptor(of: $0) }, generation: state.generation,
            own: engine.providerStatus(), others: engines.dropFirst().map { $0.providerStatus() })
    }

    /// What happens in the client, for logs and metrics: the events `build()` raised (the cache loaded
    /// or missed, cached values rejected, override problems), then every event from now on (fetches,
    /// activations, errors, rejections, cache trouble), until the client stops. The builder's
    /// observers receive the same events.
    public func events() -> AsyncStream<ConfigEvent> { eventBroadcaster.stream(startingWith: startupEvents) }

    // MARK: Unregistered reads

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
    func noteUnregistered(_ name: String) {
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
}
