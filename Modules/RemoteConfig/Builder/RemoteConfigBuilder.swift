import ConfigDomain
import ConfigPorts
import Foundation

/// Collects adapters and policies and builds a ``RemoteConfigClient``.
///
/// ```swift
/// let client = try await RemoteConfigClient.builder(fetcher: fetcher)
///     .cache(cache)
///     .override(environment)
///     .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)))
///     .register(Flags.newCheckout, Flags.maxRetries)
///     .build()
/// ```
///
/// Every method returns a changed copy; the builder is a value.
public struct RemoteConfigBuilder: Sendable {
    private var settings: ClientSettings
    private var keys: [KeyEntry] = []

    /// Starts a builder with `fetcher` and the defaults: no cache, no overrides,
    /// `FreshnessPolicy/standard`, immediate activation, no minimum interval,
    /// ``BackoffPolicy/standard``, the system clock, plain JSON payloads, no periodic refresh.
    public init(fetcher: any ConfigFetcher) {
        settings = ClientSettings(
            fetcher: fetcher, cache: nil, configurationName: "default", overrideSources: [],
            freshness: .standard, activation: .immediate, minimumFetchInterval: 0, backoff: .standard,
            clock: SystemClock(), observers: [], format: PlainJSONFormat(), periodicInterval: nil,
            random: { Double.random(in: 0..<1) }, honorsTTLHints: false)
    }

    /// Keeps snapshots in `cache` under `name` (several clients may share a cache with different names).
    public func cache(_ cache: any SnapshotCache, name: String = "default") -> Self {
        var copy = self
        copy.settings.cache = cache
        copy.settings.configurationName = name
        return copy
    }

    /// Adds an override source; sources added first win over those added later.
    public func override(_ source: any OverrideSource) -> Self {
        var copy = self
        copy.settings.overrideSources.append(source)
        return copy
    }

    /// Sets the freshness policy (TTL and stale window).
    public func freshness(_ policy: FreshnessPolicy) -> Self {
        var copy = self
        copy.settings.freshness = policy
        return copy
    }

    /// Uses a server's TTL hint (for example `Cache-Control: max-age`) instead of the policy's TTL when present.
    public func honoringTTLHints(_ honors: Bool = true) -> Self {
        var copy = self
        copy.settings.honorsTTLHints = honors
        return copy
    }

    /// Sets when fetched snapshots become active.
    public func activation(_ policy: ActivationPolicy) -> Self {
        var copy = self
        copy.settings.activation = policy
        return copy
    }

    /// Sets the least time between two fetches, in seconds; refreshes sooner are skipped (not failed).
    public func minimumFetchInterval(_ seconds: TimeInterval) -> Self {
        var copy = self
        copy.settings.minimumFetchInterval = seconds
        return copy
    }

    /// Sets the backoff after failed fetches.
    public func backoff(_ policy: BackoffPolicy) -> Self {
        var copy = self
        copy.settings.backoff = policy
        return copy
    }

    /// Refreshes in the background every `seconds` while the client lives (nil: never).
    public func periodicRefresh(every seconds: TimeInterval?) -> Self {
        var copy = self
        copy.settings.periodicInterval = seconds
        return copy
    }

    /// Registers keys: their values are resolved, converted and validated at activation.
    public func register(_ keys: any ConfigKeyRepresentable...) -> Self { register(keys) }

    /// Registers a list of keys.
    public func register(_ keys: [any ConfigKeyRepresentable]) -> Self {
        var copy = self
        copy.keys.reserveCapacity(copy.keys.count + keys.count)
        for key in keys { copy.keys.append(key.anyConfigKey.erased) }
        return copy
    }

    /// Sets the clock (inject `ManualClock` from `TestDoubles` in tests).
    public func clock(_ clock: any ConfigClock) -> Self {
        var copy = self
        copy.settings.clock = clock
        return copy
    }

    /// Adds an observer of events (logging, metrics).
    public func observer(_ observer: any ConfigObserver) -> Self {
        var copy = self
        copy.settings.observers.append(observer)
        return copy
    }

    /// Sets the payload format (default: `PlainJSONFormat`).
    public func payloadFormat(_ format: any PayloadFormat) -> Self {
        var copy = self
        copy.settings.format = format
        return copy
    }

    /// Sets the source of jitter, a function returning a number in `0..<1` (tests make it fixed).
    public func jitter(_ random: @escaping @Sendable () -> Double) -> Self {
        var copy = self
        copy.settings.random = random
        return copy
    }

    /// Validates the setup, loads the cache and overrides, and returns a client whose first read
    /// already sees the cached values.
    ///
    /// With no cache, or an unreadable one, the client serves defaults (plus overrides) and reports why
    /// (``ClientStatus/cache``, `ConfigEvent/cacheUnreadable(_:)`).
    ///
    /// From a cache, the first state resolves each key when it is first read and is finished in the
    /// background right after this returns (reads give the same values either way); a cached value
    /// that a rule rejects is reported as `ConfigEvent/valueRejected(_:)` when it is finished.
    ///
    /// - Throws: `ConfigError/configuration(_:)` for a setup mistake (TTL ≤ 0, a key registered twice
    ///   with different types or defaults, an invalid rule, next-launch activation without a cache).
    public func build() async throws(ConfigError) -> RemoteConfigClient {
        let settings = self.settings
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
        let registry: KeyRegistry
        do throws(ConfigurationError) {
            registry = try KeyRegistry(keys: keys)
        } catch {
            throw .configuration(error)
        }
        // Only override sources need descriptors; a client without any does not build them.
        let descriptors = settings.overrideSources.isEmpty ? [] : registry.descriptors

        let events = Broadcaster<ConfigEvent>()
        let updates = Broadcaster<ConfigUpdate>()
        let sink = EventSink(observers: settings.observers, streams: events)
        let emit = sink.emit

        // Overrides, in precedence order.
        var layers: [OverrideLayer] = []
        for source in settings.overrideSources {
            let snapshot = await source.overrides(for: descriptors)
            for problem in snapshot.problems { emit(.overrideProblem(source: source.name, message: problem)) }
            layers.append(OverrideLayer(name: source.name, snapshot: snapshot))
        }

        // The cache: promote a pending snapshot (next launch), then load the active one.
        var engineStatus = EngineStatus()
        var snapshot: ConfigSnapshot?
        if let cache = settings.cache {
            engineStatus.cache = .empty
            if settings.activation == .nextLaunch {
                do throws(CacheError) {
                    _ = try await cache.promotePending(settings.configurationName)
                } catch {
                    emit(.cacheUnreadable(error))
                }
            }
            switch await cache.load(settings.configurationName, slot: .active) {
            case .hit(let cached):
                do throws(PayloadError) {
                    let values = try settings.format.decode(cached.payload)
                    snapshot = ConfigSnapshot(values: values, metadata: cached.metadata)
                    engineStatus.cache = .inSync
                    let freshness = settings.freshness.freshness(fetchedAt: cached.metadata.fetchedAt, now: settings.clock.now())
                    emit(
                        .cacheLoaded(name: settings.configurationName, fetchedAt: cached.metadata.fetchedAt, freshness: freshness)
                    )
                } catch {
                    let cacheError = CacheError(
                        .corrupt(.badMetadata),
                        message:
                            "the cached payload for \"\(settings.configurationName)\" no longer decodes (\(error)); serving defaults until the next refresh"
                    )
                    engineStatus.cache = .unreadable(cacheError)
                    emit(.cacheUnreadable(cacheError))
                }
            case .miss:
                emit(.cacheMiss(name: settings.configurationName))
            case .unreadable(let error):
                engineStatus.cache = .unreadable(error)
                emit(.cacheUnreadable(error))
            }
        }
        engineStatus.scheduler.periodicInterval = settings.periodicInterval

        let resolver = Resolver(registry: registry)
        let initialState: ResolvedState
        if snapshot != nil {
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
        let status = Locked(engineStatus)
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
            let task = Task.detached { [weak cell] in
                let whole = first.materialized()
                cell?.replace(first, with: whole)
            }
            client.backgroundTasks.withLock { $0.append { task.cancel() } }
        }

        // Observe override changes; each new state re-resolves.
        for (position, source) in settings.overrideSources.enumerated() {
            let stream = source.changes(for: descriptors)
            let task = Task { [weak engine] in
                for await snapshot in stream {
                    guard let engine else { return }
                    await engine.applyOverride(at: position, snapshot)
                }
            }
            client.backgroundTasks.withLock { $0.append { task.cancel() } }
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
            client.backgroundTasks.withLock { $0.append { task.cancel() } }
        }
        return client
    }
}
