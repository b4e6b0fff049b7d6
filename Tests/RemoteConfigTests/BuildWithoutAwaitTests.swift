import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// `buildSynchronously()` makes the client `build()` makes, reading the cache and the override
/// sources on the calling thread, and refuses, with a message naming it, a cache or source that can
/// only be read asynchronously.
@Suite("Building on the calling thread")
struct BuildSynchronouslyTests {
    /// What one way of building gives: the values, the status, the provenance and the events.
    private struct Outcome: Equatable {
        let flag: Bool
        let retries: Int
        let ratio: Double
        let title: String
        let status: ClientStatus
        let retriesLayer: ValueLayer
        let events: [ConfigEvent]
    }

    /// A cache holding `json` and a pending snapshot, an override source, and an observer.
    private func setup(
        json: String, pendingJSON: String? = nil, activation: ActivationPolicy = .immediate
    ) async throws -> (RemoteConfigBuilder, InMemoryCache, RecordingObserver) {
        let cache = InMemoryCache()
        try await cache.store(cached(json, fetchedAt: epoch), as: "default", slot: .active)
        if let pendingJSON {
            try await cache.store(cached(pendingJSON, fetchedAt: epoch.addingTimeInterval(30)), as: "default", slot: .pending)
        }
        let observer = RecordingObserver()
        let builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .clock(ManualClock(now: epoch.addingTimeInterval(60)))
            .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)))
            .register(Keys.all)
            .cache(cache)
            .override(InMemoryOverrideSource(name: "qa", values: ["ratio": .text("0.9"), "title": .text("")]))
            .activation(activation)
            .observer(observer)
        return (builder, cache, observer)
    }

    private func outcome(of client: RemoteConfigClient, _ observer: RecordingObserver) -> Outcome {
        Outcome(
            flag: client[Keys.flag], retries: client[Keys.retries], ratio: client[Keys.ratio], title: client[Keys.title],
            status: client.status, retriesLayer: client.explain(Keys.retries).layer, events: observer.events)
    }

    @Test(
        "the client, its values, status, provenance and events are those build() gives",
        arguments: [ActivationPolicy.immediate, .nextLaunch])
    func sameAsBuild(activation: ActivationPolicy) async throws {
        let json = payload(flag: true, retries: 99, ratio: 0.25, title: "Cached")
        let pending = payload(flag: false, retries: 4, ratio: 0.5, title: "Pending")
        let (asyncBuilder, _, asyncObserver) = try await setup(json: json, pendingJSON: pending, activation: activation)
        let (syncBuilder, _, syncObserver) = try await setup(json: json, pendingJSON: pending, activation: activation)
        let built = try await asyncBuilder.build()
        let builtNow = try syncBuilder.buildSynchronously()
        // Finishing both first states reports the cached rejections, so both event lists are whole.
        _ = built.cell.load().materialized()
        _ = builtNow.cell.load().materialized()
        let expected = outcome(of: built, asyncObserver)
        #expect(outcome(of: builtNow, syncObserver) == expected)
        // And the values are the ones the setup implies, so the comparison compares something.
        #expect(expected.ratio == 0.9, "the override wins")
        #expect(
            expected.title == (activation == .immediate ? "Cached" : "Pending"),
            "the empty override is rejected by the rule, so the snapshot's value is read")
        #expect(expected.flag == (activation == .immediate), "next launch promotes the pending snapshot")
        #expect(expected.retries == (activation == .immediate ? 3 : 4), "99 breaks the range rule")
    }

    @Test("the cache is read, and a pending snapshot promoted, with the synchronous calls only")
    func usesSynchronousCalls() async throws {
        let (builder, cache, _) = try await setup(
            json: payload(retries: 6), pendingJSON: payload(retries: 7), activation: .nextLaunch)
        let before = cache.operations.count
        let client = try builder.buildSynchronously()
        #expect(
            Array(cache.operations.dropFirst(before)) == ["promote default synchronously", "load default/active synchronously"])
        #expect(client[Keys.retries] == 7)
        #expect(client.status.cache == .inSync)
    }

    @Test("a synchronous cache handed over as `any SnapshotCache` is still read synchronously")
    func cacheFoundByCast() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 8), fetchedAt: epoch), as: "default", slot: .active)
        let erased: any SnapshotCache = cache
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(now: epoch), cache: erased
        ).buildSynchronously()
        #expect(client[Keys.retries] == 8)
        #expect(cache.operations.last == "load default/active synchronously")
    }

    @Test("the typed overloads keep a synchronous cache and sources as such, so no run-time lookup is needed")
    func typedOverloads() {
        let erasedCache: any SnapshotCache = InMemoryCache()
        let erasedSource: any OverrideSource = InMemoryOverrideSource(name: "erased")
        let builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .override(InMemoryOverrideSource(name: "typed"))
            .override(erasedSource)
            .override(AsynchronousOnlySource())
        #expect(builder.synchronousSources.map { $0?.name } == ["typed", nil, nil])
        #expect(builder.cache(InMemoryCache()).synchronousCache != nil)
        #expect(builder.cache(erasedCache).synchronousCache == nil, "an erased cache is found by a cast at build time")
        #expect(
            builder.cache(InMemoryCache()).cache(erasedCache).synchronousCache == nil,
            "a later cache replaces the earlier one, synchronous or not")
    }

    @Test("the first state is finished on a thread of its own, with no read asking for it, and its rejections reported")
    func finishedInTheBackground() async throws {
        let observer = RecordingObserver()
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 99, title: "Cached"), fetchedAt: epoch), as: "default", slot: .active)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .clock(ManualClock(now: epoch.addingTimeInterval(60)))
            .register(Keys.all)
            .cache(cache)
            .observer(observer)
            .buildSynchronously()
        #expect(client[Keys.title] == "Cached")
        // Only finishing the first state reports the cached rejection, and nothing here asks for the
        // whole state (a read resolves its key alone), so the background finish reported it.
        let event = await observer.waitFor { event in
            if case .valueRejected = event { true } else { false }
        }
        guard case .valueRejected(let rejection) = event else {
            Issue.record("expected a rejection, got \(event)")
            return
        }
        #expect(rejection.key == "max_retries")
        #expect(client[Keys.retries] == 3, "the rejected cached value falls back to the default")
    }

    @Test("without a cache the client serves defaults and overrides")
    func noCache() throws {
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register(Keys.all)
            .override(InMemoryOverrideSource(name: "qa", values: ["max_retries": .text("9")]))
            .buildSynchronously()
        #expect(client[Keys.retries] == 9)
        #expect(client[Keys.flag] == false)
        #expect(client.status.cache == .notConfigured)
    }

    @Test("an unreadable cache is reported as build() reports it, and the client serves defaults")
    func unreadableCache() async throws {
        let (builder, cache, observer) = try await setup(json: payload(retries: 6))
        let failure = CacheError(.io(operation: "read", code: 5), message: "input/output error")
        cache.failLoads(with: failure)
        let client = try builder.buildSynchronously()
        #expect(client[Keys.retries] == 3)
        #expect(client.status.cache == .unreadable(failure))
        #expect(observer.events.contains(.cacheUnreadable(failure)))
    }

    @Test("a failed promotion is reported and the active snapshot is still loaded")
    func failedPromotion() async throws {
        let (builder, cache, observer) = try await setup(
            json: payload(retries: 6), pendingJSON: payload(retries: 7), activation: .nextLaunch)
        let failure = CacheError(.io(operation: "rename", code: 28), message: "no space left on device")
        cache.failWrites(with: failure)
        let client = try builder.buildSynchronously()
        #expect(client[Keys.retries] == 6)
        #expect(observer.events.contains(.cacheUnreadable(failure)))
    }

    @Test("a cache that can only be read asynchronously is refused, by its type, with what to do instead")
    func asynchronousCacheRefused() throws {
        let builder = RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(now: epoch), cache: AsynchronousOnlyCache())
        let error = try #require(throws: ConfigError.self) { try builder.buildSynchronously() }
        guard case .configuration(let problem) = error else {
            Issue.record("expected a configuration error, got \(error)")
            return
        }
        #expect(problem.kind == .missingComponent)
        #expect(problem.message.contains("AsynchronousOnlyCache"))
        #expect(problem.message.contains("try await build()"))
    }

    @Test("an override source that can only be read asynchronously is refused, by its name")
    func asynchronousSourceRefused() throws {
        let builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register(Keys.all)
            .override(InMemoryOverrideSource(name: "qa"))
            .override(AsynchronousOnlySource())
        let error = try #require(throws: ConfigError.self) { try builder.buildSynchronously() }
        guard case .configuration(let problem) = error else {
            Issue.record("expected a configuration error, got \(error)")
            return
        }
        #expect(problem.kind == .missingComponent)
        #expect(problem.message.contains("\"remote flags service\""))
        #expect(problem.message.contains("try await build()"))
    }

    @Test("a setup mistake is reported before the cache's kind")
    func setupMistakeFirst() throws {
        let builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .cache(AsynchronousOnlyCache())
            .freshness(FreshnessPolicy(ttl: 0, maxStale: .seconds(60)))
        let error = try #require(throws: ConfigError.self) { try builder.buildSynchronously() }
        guard case .configuration(let problem) = error else {
            Issue.record("expected a configuration error, got \(error)")
            return
        }
        #expect(problem.kind == .invalidFreshness)
    }

    @Test("a local override store persisted in a synchronous cache applies its values before the first read")
    func localStoreSynchronous() async throws {
        let persisted = InMemoryCache()
        let writer = LocalOverrideStore(persistence: .init(cache: persisted, name: "qa"), buildKind: .debug)
        try await writer.set(Keys.retries, 9)
        let store = LocalOverrideStore(persistence: .init(cache: persisted, name: "qa"), buildKind: .debug)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register(Keys.all)
            .override(store)
            .buildSynchronously()
        #expect(client[Keys.retries] == 9)
        #expect(
            client.explain(Keys.retries).layer
                == .override(source: "local overrides", position: 0, origin: "local overrides:max_retries"))
    }

    @Test("a local override store persisted in an asynchronous cache says so, then applies its values when read")
    func localStoreAsynchronousPersistence() async throws {
        let persisted = AsynchronousOnlyCache()
        let writer = LocalOverrideStore(persistence: .init(cache: persisted, name: "qa"), buildKind: .debug)
        try await writer.set(Keys.retries, 9)
        let observer = RecordingObserver()
        let store = LocalOverrideStore(persistence: .init(cache: persisted, name: "qa"), buildKind: .debug)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register(Keys.all)
            .override(store)
            .observer(observer)
            .buildSynchronously()
        let problem = observer.events.first { event in
            if case .overrideProblem(source: "local overrides", let message) = event { message.contains("\"qa\"") } else { false }
        }
        #expect(problem != nil, "the unread persisted overrides are reported")
        // The store's change stream reads them and the client activates them, then announces the
        // update: subscribe first, so an update after the check below is not missed.
        let updates = client.updates()
        if client[Keys.retries] != 9 {
            for await update in updates where update.changedKeys.contains("max_retries") { break }
        }
        #expect(client[Keys.retries] == 9)
    }
}

/// A cache that offers only the `async` calls.
private final class AsynchronousOnlyCache: SnapshotCache {
    private let inner = InMemoryCache()
    func load(_ name: String, slot: CacheSlot) async -> CacheLoadResult { await inner.load(name, slot: slot) }
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        try await inner.store(snapshot, as: name, slot: slot)
    }
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        try await inner.renew(metadata, for: name)
    }
    func promotePending(_ name: String) async throws(CacheError) -> Bool { try await inner.promotePending(name) }
    func clear(_ name: String) async throws(CacheError) { try await inner.clear(name) }
}

/// An override source that offers only the `async` call.
private struct AsynchronousOnlySource: OverrideSource {
    var name: String { "remote flags service" }
    func overrides(for keys: [KeyDescriptor]) async -> OverrideSnapshot { .empty }
}
