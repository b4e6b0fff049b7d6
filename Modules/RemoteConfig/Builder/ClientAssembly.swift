import ConfigDomain
import ConfigPorts
import Foundation

/// The work ``RemoteConfigBuilder/build()`` and ``RemoteConfigBuilder/buildSynchronously()``
/// share: validating the setup, the registry, the event plumbing, and making the client from the
/// override layers and the cache's answer, which each gathers in its own way.
struct ClientAssembly {
    let settings: ClientSettings
    let registry: KeyRegistry
    /// The registered keys' descriptors, for override sources (empty when there are none).
    let descriptors: [KeyDescriptor]
    let events = Broadcaster<ConfigEvent>()
    let updates = Broadcaster<ConfigUpdate>()
    let sink: EventSink

    /// Checks the settings and registers the keys.
    ///
    /// - Throws: `ConfigError/configuration(_:)` for a setup mistake.
    init(settings: ClientSettings, keys: [KeyEntry]) throws(ConfigError) {
        if let problem = settings.freshness.problem { throw .configuration(problem) }
        if let problem = settings.backoff.problem { throw .configuration(problem) }
        if !(settings.minimumFetchInterval >= 0) || !settings.minimumFetchInterval.isFinite {
            throw .configuration(
                ConfigurationError(
                    .invalidSchedule, "minimumFetchInterval must be zero or more seconds, got \(settings.minimumFetchInterval)"))
        }
        if let interval = settings.periodicInterval, !(interval > 0) || !interval.isFinite {
            throw .configuration(
                ConfigurationError(
                    .invalidSchedule, "periodicRefresh interval must be greater than zero seconds, got \(interval)"))
        }
        if settings.activation == .nextLaunch && settings.cache == nil {
            throw .configuration(
                ConfigurationError(
                    .missingComponent,
                    "next-launch activation keeps the fetched snapshot in the cache until the next build(); add a cache with .cache(_:)"
                ))
        }
        do throws(ConfigurationError) {
            registry = try KeyRegistry(keys: keys)
        } catch {
            throw .configuration(error)
        }
        self.settings = settings
        // Only override sources need descriptors; a client without any does not build them.
        descriptors = settings.overrideSources.isEmpty ? [] : registry.descriptors
        sink = EventSink(observers: settings.observers, streams: events)
    }

    /// Reports `event` to the observers and event streams.
    func emit(_ event: ConfigEvent) { sink.emit(event) }

    /// The layer of the override source `name` that answered `snapshot`; its problems are reported.
    func layer(_ name: String, _ snapshot: OverrideSnapshot) -> OverrideLayer {
        for problem in snapshot.problems { emit(.overrideProblem(source: name, message: problem)) }
        return OverrideLayer(name: name, snapshot: snapshot)
    }

    /// Makes the client over `layers` (in precedence order) and what the cache gave, and starts
    /// its background work.
    ///
    /// - Parameter onPlainThread: finish a first state from the cache on a plain thread (see
    ///   `DetachedThread`) rather than in a task, for a client built synchronously at launch.
    func client(layers: [OverrideLayer], start: CacheStart, onPlainThread: Bool = false) -> RemoteConfigClient {
        var engineStatus = start.status
        engineStatus.scheduler.periodicInterval = settings.periodicInterval
        let snapshot = start.snapshot

        let resolver = Resolver(registry: registry)
        let initialState: ResolvedState
        if case .some = snapshot {  // not `!= nil`: see `Resolver.SnapshotContext.init`
            // From the cache, the first state resolves each key when it is first read, and the whole
            // state in the background: the first read does not wait for a thousand conversions.
            let lazy = LazyResolution(resolver: resolver, snapshot: snapshot, overrides: layers, generation: 1) {
                [sink] output in
                for rejection in output.newRejections { sink.emit(.valueRejected(rejection)) }
            }
            initialState = ResolvedState(lazy: lazy, snapshot: snapshot, overrides: layers, generation: 1)
        } else {
            let initial = resolver.resolve(snapshot: snapshot, previous: nil, overrides: layers, generation: 1)
            for rejection in initial.newRejections { emit(.valueRejected(rejection)) }
            initialState = initial.state
        }
        let cell = StateCell(initialState)
        let status = EngineStatusCell(engineStatus)
        let engine = RefreshEngine(
            settings: settings, registry: registry, cell: cell, initialGeneration: 1, overrides: layers, status: status,
            sink: sink, updates: updates)
        let client = RemoteConfigClient(
            registry: registry, cell: cell, engine: engine, settings: settings, engineStatus: status, events: events,
            updates: updates)

        // Finish the first state in the background and swap it in, unless an activation came first
        // (which finished it itself, to compare against it).
        if initialState.resolvesOnDemand {
            let first = initialState
            let finish: @Sendable () -> Void = { [weak cell] in
                let whole = first.materialized()
                cell?.replace(first, with: whole)
            }
            if !(onPlainThread && DetachedThread.run(finish)) { Self.finishInTask(finish, of: client) }
        }
        if !settings.overrideSources.isEmpty || settings.periodicInterval != nil {
            startBackgroundTasks(of: client, engine: engine)
        }
        return client
    }

    // The two functions below are not inlined: tasks and async streams are types whose size the
    // compiler does not know, so a function that holds one asks the runtime for their metadata on
    // entry. Inlined into the build, that would be paid by every build, with tasks or not.

    /// Finishes the first state in a detached task, cancelled with the client.
    @inline(never)
    private static func finishInTask(_ finish: @escaping @Sendable () -> Void, of client: RemoteConfigClient) {
        let task = Task.detached(operation: finish)
        client.bookkeeping.addCancel { task.cancel() }
    }

    /// Starts the tasks that observe the override sources and refresh periodically, cancelled with the client.
    @inline(never)
    private func startBackgroundTasks(of client: RemoteConfigClient, engine: RefreshEngine) {
        // Observe override changes; each new state re-resolves.
        for (position, source) in settings.overrideSources.enumerated() {
            let stream = source.changes(for: descriptors)
            let task = Task { [weak engine] in
                for await snapshot in stream {
                    guard let engine else { return }
                    await engine.applyOverride(at: position, snapshot)
                }
            }
            client.bookkeeping.addCancel { task.cancel() }
        }

        // Periodic refresh while the client lives.
        if let interval = settings.periodicInterval {
            let clock = settings.clock
            let task = Task { [weak engine] in
                while !Task.isCancelled {
                    guard let delay = await engine?.nextPeriodicDelay(interval: interval) else { return }
                    do {
                        try await clock.sleep(for: delay)
                    } catch {
                        return
                    }
                    guard let engine else { return }
                    _ = await engine.refresh(force: false)
                }
            }
            client.bookkeeping.addCancel { task.cancel() }
        }
    }
}
