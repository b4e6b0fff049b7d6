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
    /// The cache again when it was handed over as one that can read synchronously.
    private(set) var synchronousCache: (any SynchronousSnapshotCache)?
    /// For each override source, in order, the same source when it was handed over as one that
    /// can answer synchronously (nil otherwise).
    private(set) var synchronousSources: [(any SynchronousOverrideSource)?] = []

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
        copy.synchronousCache = nil
        return copy
    }

    /// Keeps snapshots in `cache` under `name`; a cache that can also read on the calling thread
    /// (the file cache can) serves ``buildSynchronously()`` as well.
    public func cache(_ cache: any SynchronousSnapshotCache, name: String = "default") -> Self {
        var copy = self.cache(cache as any SnapshotCache, name: name)
        copy.synchronousCache = cache
        return copy
    }

    /// Adds an override source; sources added first win over those added later.
    public func override(_ source: any OverrideSource) -> Self {
        var copy = self
        copy.settings.overrideSources.append(source)
        copy.synchronousSources.append(nil)
        return copy
    }

    /// Adds an override source that can also answer on the calling thread (the environment, `.env`
    /// and launch-argument sources can), so ``buildSynchronously()`` applies it too.
    public func override(_ source: any SynchronousOverrideSource) -> Self {
        var copy = self.override(source as any OverrideSource)
        copy.synchronousSources[copy.synchronousSources.count - 1] = source
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
        let assembly = try ClientAssembly(settings: settings, keys: keys)
        var layers: [OverrideLayer] = []
        for source in settings.overrideSources {
            layers.append(assembly.layer(source.name, await source.overrides(for: assembly.descriptors)))
        }
        var start = CacheStart(assembly.settings)
        if let cache = settings.cache {
            if settings.activation == .nextLaunch {
                do throws(CacheError) {
                    _ = try await cache.promotePending(settings.configurationName)
                } catch {
                    assembly.emit(.cacheUnreadable(error))
                }
            }
            start.take(await cache.load(settings.configurationName, slot: .active), assembly)
        }
        return assembly.client(layers: layers, start: start)
    }

    /// ``build()`` on the calling thread, for launch code that cannot wait: a SwiftUI `App.init`,
    /// `application(_:didFinishLaunchingWithOptions:)`, the first lines of a tool.
    ///
    /// ```swift
    /// let client = try RemoteConfigClient.builder(fetcher: fetcher)
    ///     .cache(FileSnapshotCache(directory: cacheDirectory))
    ///     .register(Flags.newCheckout, Flags.maxRetries)
    ///     .buildSynchronously()
    /// let enabled = client[Flags.newCheckout]  // the cached value, read without an `await`
    /// ```
    ///
    /// The client is the same as ``build()`` would make, and so are its values, status and events.
    /// The difference is where the work runs: the cache's snapshot file (and, with next-launch
    /// activation, the promotion of a pending one) and the override sources are read on this
    /// thread, which waits for them (one small file read for the file cache, 0.1–0.2 ms here;
    /// a promotion may wait for another process's write lock). This thread waits for no other: in
    /// a fresh process that saves the runtime's first hop onto a thread and the cache's own hop,
    /// about 0.5–0.8 ms of a cold start here. The first state finishes resolving in the background
    /// on one plain thread (Swift's thread pool starts only if the client has tasks to run:
    /// override sources to observe, periodic refresh).
    ///
    /// The cache must be a `SynchronousSnapshotCache` and every override source a
    /// `SynchronousOverrideSource`, as the file cache and the environment, `.env`, launch-argument
    /// and local override sources are.
    ///
    /// - Throws: what ``build()`` throws, and `ConfigError/configuration(_:)` (`.missingComponent`)
    ///   naming the cache or the first override source that can only be read asynchronously.
    public func buildSynchronously() throws(ConfigError) -> RemoteConfigClient {
        let assembly = try ClientAssembly(settings: settings, keys: keys)
        let cache = try synchronousCacheOrNil()
        let sources = try synchronousOverrideSources()
        let layers = sources.map { assembly.layer($0.name, $0.overridesSynchronously(for: assembly.descriptors)) }
        var start = CacheStart(assembly.settings)
        if let cache {
            if settings.activation == .nextLaunch {
                do throws(CacheError) {
                    _ = try cache.promotePendingSynchronously(settings.configurationName)
                } catch {
                    assembly.emit(.cacheUnreadable(error))
                }
            }
            start.take(cache.loadSynchronously(settings.configurationName, slot: .active), assembly)
        }
        return assembly.client(layers: layers, start: start, onPlainThread: true)
    }

    /// The cache as one that reads synchronously, nil without a cache.
    ///
    /// Handed over through the `cache(_:name:)` that takes a `SynchronousSnapshotCache`, it is
    /// known already; otherwise a dynamic cast finds out (a run-time conformance lookup, which costs a
    /// cold start tens of microseconds, so the typed overload is the fast way).
    private func synchronousCacheOrNil() throws(ConfigError) -> (any SynchronousSnapshotCache)? {
        guard let cache = settings.cache else { return nil }
        if let synchronousCache { return synchronousCache }
        if let found = cache as? any SynchronousSnapshotCache { return found }
        throw .configuration(
            ConfigurationError(
                .missingComponent,
                "buildSynchronously() reads the cache on the calling thread, but \(String(describing: type(of: cache))) "
                    + "can only be read asynchronously (it is not a SynchronousSnapshotCache); use `try await build()`, "
                    + "or a cache that can read synchronously, such as FileSnapshotCache"))
    }

    /// Every override source as one that answers synchronously, in order.
    private func synchronousOverrideSources() throws(ConfigError) -> [any SynchronousOverrideSource] {
        // Without sources, no array is made: its element type is one the runtime would make at launch.
        if settings.overrideSources.isEmpty { return [] }
        var found: [any SynchronousOverrideSource] = []
        found.reserveCapacity(settings.overrideSources.count)
        for (source, synchronous) in zip(settings.overrideSources, synchronousSources) {
            if let synchronous = synchronous ?? (source as? any SynchronousOverrideSource) {
                found.append(synchronous)
                continue
            }
            throw .configuration(
                ConfigurationError(
                    .missingComponent,
                    "buildSynchronously() reads override sources on the calling thread, but the source \"\(source.name)\" "
                        + "(\(String(describing: type(of: source)))) can only be read asynchronously (it is not a "
                        + "SynchronousOverrideSource); use `try await build()` instead"))
        }
        return found
    }
}
