import ConfigDomain
import ConfigPorts
import Foundation

/// Collects adapters and policies and builds a ``RemoteConfigClient``.
///
/// ```swift
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .cache(cache)
///     .override(environment)
///     .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)))
///     .register(Flags.newCheckout, Flags.maxRetries)
///     .build()
/// ```
///
/// Every method returns a changed copy; the builder is a value.
public struct RemoteConfigBuilder: Sendable {
    /// What the builder collected for its own fetcher, and the settings every provider shares.
    var settings: ClientSettings
    private var keys: [any ConfigKeyRepresentable] = []
    /// The providers added with `fetcher(_:name:precedence:format:)`, after the builder's own fetcher.
    var additionalProviders: [RemoteProvider] = []
    /// Values shipped with the app, in the order added.
    var bundled: [BundledDefaults] = []

    /// Starts a builder with `fetcher` and the defaults: no cache, no overrides,
    /// `FreshnessPolicy/standard`, immediate activation, no minimum interval,
    /// `BackoffPolicy/standard`, the system clock, plain JSON payloads, no periodic refresh.
    public init(fetcher: any ConfigFetcher) {
        settings = ClientSettings(
            fetcher: fetcher, cache: nil, configurationName: "default", overrideSources: [],
            freshness: .standard, activation: .immediate, minimumFetchInterval: 0, backoff: .standard,
            clock: SystemClock(), observers: [], format: PlainJSONFormat(), periodicInterval: nil,
            random: { Double.random(in: 0..<1) }, honorsTTLHints: false)
    }

    /// A copy of the builder with `change` applied: what every setting method returns.
    func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }

    /// Keeps snapshots in `cache` under `name` (several clients may share a cache with different names).
    public func cache(_ cache: any SnapshotCache, name: String = "default") -> Self {
        with {
            $0.settings.cache = cache
            $0.settings.configurationName = name
        }
    }

    /// Adds an override source; sources added first win over those added later.
    public func override(_ source: any OverrideSource) -> Self {
        with { $0.settings.overrideSources.append(source) }
    }

    /// Sets the freshness policy (TTL and stale window).
    public func freshness(_ policy: FreshnessPolicy) -> Self {
        with { $0.settings.freshness = policy }
    }

    /// Uses a server's TTL hint (for example `Cache-Control: max-age`) instead of the policy's TTL when present.
    public func honoringTTLHints(_ honors: Bool = true) -> Self {
        with { $0.settings.honorsTTLHints = honors }
    }

    /// Sets when fetched snapshots become active.
    public func activation(_ policy: ActivationPolicy) -> Self {
        with { $0.settings.activation = policy }
    }

    /// Sets the least time between two fetches, in seconds; refreshes sooner are skipped (not failed).
    public func minimumFetchInterval(_ seconds: TimeInterval) -> Self {
        with { $0.settings.minimumFetchInterval = seconds }
    }

    /// Sets the backoff after failed fetches.
    public func backoff(_ policy: BackoffPolicy) -> Self {
        with { $0.settings.backoff = policy }
    }

    /// Refreshes in the background every `seconds` while the client lives (nil: never).
    public func periodicRefresh(every seconds: TimeInterval?) -> Self {
        with { $0.settings.periodicInterval = seconds }
    }

    /// Adds a push source (server-sent events, an etcd watch): each change it signals starts a refresh
    /// at once, or activates the payload it delivers; a signal naming the version held does nothing.
    ///
    /// Polling (``periodicRefresh(every:)``) stays useful beside it, for changes a dropped connection missed.
    ///
    /// - Parameters:
    ///   - source: the transport whose signals start refreshes or deliver payloads.
    ///   - provider: the name of the provider whose server the source watches, as given to
    ///     ``fetcher(_:name:precedence:format:)``; nil (the default) for the builder's own fetcher.
    ///     `build()` throws `.unknownProvider` for a name no provider has.
    public func push(_ source: any ChangeSignalSource, to provider: String? = nil) -> Self {
        with { $0.settings.pushSources.append((source, provider)) }
    }

    /// Registers keys: their values are resolved, converted and validated at activation.
    public func register(_ keys: any ConfigKeyRepresentable...) -> Self { register(keys) }

    /// Registers a list of keys.
    public func register(_ keys: [any ConfigKeyRepresentable]) -> Self {
        // The first list is kept as it is, so the client's registry shares the app's array instead of copying it.
        with { $0.keys = $0.keys.isEmpty ? keys : $0.keys + keys }
    }

    /// Adds values shipped with the app, under every remote snapshot and over each key's own default.
    ///
    /// Bundled defaults added first win over those added later (a defaults file, then `Settings.bundle`).
    public func bundledDefaults(_ defaults: BundledDefaults) -> Self {
        with { $0.bundled.append(defaults) }
    }

    /// Sets the clock (inject `ManualClock` from `TestDoubles` in tests).
    public func clock(_ clock: any ConfigClock) -> Self {
        with { $0.settings.clock = clock }
    }

    /// Adds an observer of events (logging, metrics).
    public func observer(_ observer: any ConfigObserver) -> Self {
        with { $0.settings.observers.append(observer) }
    }

    /// Sets the payload format (default: `PlainJSONFormat`).
    public func payloadFormat(_ format: any PayloadFormat) -> Self {
        with { $0.settings.format = format }
    }

    /// Hands every payload, fetched or cached, to `verifier` with its exact bytes before they are
    /// decoded, and decodes only those it accepts (`SigningAdapter`'s `Ed25519Verifier` requires a
    /// signature by a trusted key, for this configuration, newer than the one held). A refusal keeps
    /// the last good configuration and is reported as a `ConfigError.signature` (refresh) or a
    /// `CacheError.Kind.untrusted` (cache at build); a refused pending snapshot is discarded before
    /// next-launch activation promotes it. The last good values are then kept in memory only, since
    /// no signature covers the client's own record of them. See the article "Signed configurations".
    public func verifyPayloads(with verifier: any PayloadVerifier) -> Self {
        with { $0.settings.verifier = verifier }
    }

    /// Sets the evaluation context that targeting rules see from the first read on (change it later
    /// with `RemoteConfigClient/updateContext(_:)`).
    public func context(_ context: EvaluationContext) -> Self {
        with { $0.settings.context = context }
    }

    /// Makes reads that give no context evaluate for `source`'s context when it has one: on a server,
    /// the request's user, which middleware puts in the request's task-local context
    /// (`ServiceContextAdapter`'s `ServiceContextSource`). Outside a request, and in a client built
    /// without a source, a read serves the client's own context. Only keys whose value can differ by
    /// context are evaluated on a read; every other key stays the plain read. See the article "Flags in a server".
    public func contextSource(_ source: any EvaluationContextSource) -> Self {
        with {
            $0.settings.contextSource = source
            $0.settings.installInterception()
        }
    }

    /// Adds a hook that runs around every evaluation a read, a read for a context given with the call,
    /// or `details` makes (see `EvaluationHook` for the order): the reads of keys whose value can differ
    /// by context. A key no payload targets is read as resolved at activation, with no hook. A client
    /// without hooks never calls any.
    public func hook(_ hook: any EvaluationHook) -> Self {
        with {
            $0.settings.hooks.append(hook)
            $0.settings.installInterception()
        }
    }

    /// Reports each value decided by a rule, rollout or experiment the first time it is read for a
    /// targeting key, as `ConfigEvent/exposure(_:)`, once per key, variant and targeting key,
    /// delivered to the observers and `events()` from a task of the client's own. A repeated read
    /// costs a set lookup; a client without it pays nothing.
    public func reportingExposures(_ reports: Bool = true) -> Self {
        with {
            $0.settings.reportsExposures = reports
            $0.settings.installInterception()
        }
    }

    /// Sets when the background work starts: the periodic refresh, the push subscriptions and the
    /// override observation. `.atBuild` (the default) starts it in `build()`; `.whenRun` waits for
    /// `RemoteConfigClient/run()`, which a service runner calls (`ServiceLifecycleAdapter`).
    public func backgroundWork(_ start: BackgroundWorkStart) -> Self {
        with { $0.settings.backgroundWorkStart = start }
    }

    /// Sets the source of jitter, a function returning a number in `0..<1` (tests make it fixed).
    public func jitter(_ random: @escaping @Sendable () -> Double) -> Self {
        with { $0.settings.random = random }
    }

    /// Validates the setup, reads the caches, the overrides and the stored written values on the
    /// calling thread, and returns a client whose first read already sees the cached values. No
    /// `await`: launch code such as a SwiftUI `App.init` can call it.
    ///
    /// With no cache, or an unreadable one, the client serves defaults (plus overrides) and reports
    /// why (``ClientStatus/cache``, `ConfigEvent/cacheUnreadable(_:)`). A cached value that a rule
    /// rejects is reported as `ConfigEvent/valueRejected(_:)`.
    ///
    /// - Throws: `ConfigError/configuration(_:)` for a setup mistake (TTL ≤ 0, a key registered twice
    ///   with different types or defaults, an invalid rule, next-launch activation without a cache,
    ///   two providers with the same name or precedence).
    public func build() throws(ConfigError) -> RemoteConfigClient {
        try checkSettings()
        let providers = try providerSettings()
        let pushTargets = try pushTargets(among: providers.settings.map(\.configurationName))
        let registry: KeyRegistry
        do throws(ConfigurationError) {
            registry = try KeyRegistry(keys)
        } catch {
            throw .configuration(error)
        }
        let events = Broadcaster<ConfigEvent>()
        let sink = EventSink(observers: settings.observers, streams: events)
        // What build() reports also goes to the list that each events() stream starts with.
        let startup = StartupEvents()
        let buildSink = EventSink(observers: settings.observers + [startup], streams: events)
        let descriptors = settings.overrideSources.isEmpty ? [] : registry.keys.map { KeyRegistry.descriptor(of: $0) }

        let layers = settings.overrideSources.map { source in
            let snapshot = source.overrides(for: descriptors)
            for problem in snapshot.problems { buildSink.emit(.overrideProblem(source: source.name, message: problem)) }
            return OverrideLayer(name: source.name, snapshot: snapshot)
        }
        var statuses: [EngineStatus] = []
        var payloads: [DecodedPayload?] = []
        let stores = providers.settings.map { ProviderStore(settings: $0, sink: buildSink) }
        for (position, (provider, store)) in zip(providers.settings, stores).enumerated() {
            var status = EngineStatus()
            status.scheduler.periodicInterval = settings.periodicInterval
            status.pushSources = pushTargets.filter { $0 == position }.count
            payloads.append(store.loadAtLaunch(ContextSlot.cacheName(of: provider), into: &status))
            statuses.append(status)
        }
        let sources = ValueSources(
            overrides: layers, payloads: payloads, origins: statuses.map { $0.active?.source ?? "" },
            providerNames: providers.settings.map(\.configurationName), slots: providers.settings.map(ContextSlot.cacheName(of:)),
            evaluatesRemotely: providers.settings.map(\.fetcher.evaluatesContext), precedence: providers.precedence,
            bundled: bundled, context: settings.context)

        let interception = settings.interception?(sink)
        var resolver = Resolver(registry: registry, interceptsReads: interception != nil)
        resolver.marksExposures = interception?.exposures != nil
        let stored = StoredLastGood(
            readers: zip(providers.settings, stores).map { $1.lastGoodReader(ContextSlot.cacheName(of: $0)) })
        let first = resolver.resolve(sources: sources, previous: nil, generation: 1, cause: nil, stored: stored)
        for rejection in first.newRejections { buildSink.emit(.valueRejected(rejection)) }
        let activator = Activator(resolver: resolver, cell: StateCell(first.state), sink: sink, states: Broadcaster())
        let engines = providers.settings.enumerated().map { position, provider in
            RefreshEngine(
                settings: provider, provider: position, activator: activator, status: statuses[position],
                recordedLastGood: stored.recorded(of: position))
        }
        // Each provider that push sources watch gets one receiver, which drives its engine.
        let receivers = engines.indices.map { position in
            pushTargets.contains(position) ? PushReceiver(engine: engines[position]) : nil
        }
        let settings = self.settings
        let client = RemoteConfigClient(
            registry: registry, activator: activator, engines: engines, events: events, pushReceivers: receivers,
            startupEvents: startup.events, interception: interception,
            backgroundWork: { client in
                Self.backgroundTasks(of: client, settings: settings, descriptors: descriptors, pushTargets: pushTargets)
            })
        if settings.backgroundWorkStart == .atBuild { client.startBackgroundWork() }
        return client
    }

    /// The provider each push source drives, in the order the sources were added.
    ///
    /// - Throws: `.unknownProvider` for a source aimed at a name no provider has.
    private func pushTargets(among names: [String]) throws(ConfigError) -> [Int] {
        var targets: [Int] = []
        for push in settings.pushSources {
            guard let name = push.provider else {
                targets.append(0)
                continue
            }
            guard let position = names.firstIndex(of: name) else {
                throw .configuration(
                    ConfigurationError(
                        .unknownProvider,
                        "a push source (\(push.source.name)) is aimed at the provider \"\(name)\", but the providers are "
                            + names.map { "\"\($0)\"" }.joined(separator: ", ")
                            + "; add its fetcher with fetcher(_:name:precedence:) or use one of these names"))
            }
            targets.append(position)
        }
        return targets
    }

    /// Throws the first setup mistake.
    private func checkSettings() throws(ConfigError) {
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
    }

    /// Starts the tasks that observe the override sources, consume the push sources and refresh each
    /// provider periodically, and returns them; the client cancels them.
    /// `pushTargets` are the providers the push sources drive, in the order the sources were added.
    private static func backgroundTasks(
        of client: RemoteConfigClient, settings: ClientSettings, descriptors: [KeyDescriptor], pushTargets: [Int]
    ) -> [Task<Void, Never>] {
        let activator = client.activator
        var tasks: [Task<Void, Never>] = []
        for (position, source) in settings.overrideSources.enumerated() {
            let stream = source.changes(for: descriptors)
            tasks.append(
                Task { [weak activator] in
                    for await snapshot in stream {
                        guard let activator else { return }
                        activator.applyOverride(at: position, snapshot)
                    }
                })
        }
        for (push, target) in zip(settings.pushSources, pushTargets) {
            guard let receiver = client.pushReceivers[target] else { continue }
            let signals = push.source.signals()
            tasks.append(Task { await receiver.consume(signals, from: push.source.name) })
        }
        if let interval = settings.periodicInterval {
            let clock = settings.clock
            for engine in client.engines {
                tasks.append(
                    Task { [weak engine] in
                        while !Task.isCancelled {
                            guard let delay = engine?.nextPeriodicDelay(interval: interval) else { return }
                            do {
                                try await clock.sleep(for: delay)
                            } catch {
                                return
                            }
                            guard let engine else { return }
                            _ = await engine.refresh(force: false)
                        }
                    })
            }
        }
        return tasks
    }
}
