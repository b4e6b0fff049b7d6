import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// `build()` needs no `await`: it reads the cache and the override sources on the calling thread,
/// so launch code (a SwiftUI `App.init`) gets a client whose first read sees the cached values.
@Suite("Building without await")
struct BuildWithoutAwaitTests {
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

    @Test("the first read sees overrides, the cache (or the promoted pending snapshot) and the rules", arguments: [ActivationPolicy.immediate, .nextLaunch])
    func firstRead(activation: ActivationPolicy) async throws {
        let json = payload(flag: true, retries: 99, ratio: 0.25, title: "Cached")
        let pending = payload(flag: false, retries: 4, ratio: 0.5, title: "Pending")
        let (builder, _, observer) = try await setup(json: json, pendingJSON: pending, activation: activation)
        let client = try builder.build()
        #expect(client[Keys.ratio] == 0.9, "the override wins")
        #expect(
            client[Keys.title] == (activation == .immediate ? "Cached" : "Pending"),
            "the empty override is rejected by the rule, so the snapshot's value is read")
        #expect(client[Keys.flag] == (activation == .immediate), "next launch promotes the pending snapshot")
        #expect(client[Keys.retries] == (activation == .immediate ? 3 : 4), "99 breaks the range rule")
        #expect(client.status.cache == .inSync)
        if activation == .immediate {
            #expect(observer.events.contains { if case .valueRejected(let r) = $0 { r.key == "max_retries" } else { false } })
        }
    }

    @Test("the cache is read, and a pending snapshot promoted, on the calling thread")
    func readsTheCache() async throws {
        let (builder, cache, _) = try await setup(
            json: payload(retries: 6), pendingJSON: payload(retries: 7), activation: .nextLaunch)
        let before = cache.operations.count
        let client = try builder.build()
        #expect(Array(cache.operations.dropFirst(before)).count == 2)
        #expect(client[Keys.retries] == 7)
        #expect(client.status.cache == .inSync)
    }

    @Test("without a cache the client serves defaults and overrides")
    func noCache() throws {
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register(Keys.all)
            .override(InMemoryOverrideSource(name: "qa", values: ["max_retries": .text("9")]))
            .build()
        #expect(client[Keys.retries] == 9)
        #expect(client[Keys.flag] == false)
        #expect(client.status.cache == .notConfigured)
    }

    @Test("an unreadable cache is reported as build() reports it, and the client serves defaults")
    func unreadableCache() async throws {
        let (builder, cache, observer) = try await setup(json: payload(retries: 6))
        let failure = CacheError(.io(operation: "read", code: 5), message: "input/output error")
        cache.failLoads(with: failure)
        let client = try builder.build()
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
        let client = try builder.build()
        #expect(client[Keys.retries] == 6)
        #expect(observer.events.contains(.cacheUnreadable(failure)))
    }

    @Test("a setup mistake is reported before the cache's kind")
    func setupMistakeFirst() throws {
        let builder = RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .freshness(FreshnessPolicy(ttl: 0, maxStale: .seconds(60)))
        let error = try #require(throws: ConfigError.self) { try builder.build() }
        guard case .configuration(let problem) = error else {
            Issue.record("expected a configuration error, got \(error)")
            return
        }
        #expect(problem.kind == .invalidFreshness)
    }

    @Test("a local override store persisted in a cache applies its values before the first read")
    func localStorePersisted() async throws {
        let persisted = InMemoryCache()
        let writer = LocalOverrideStore(persistence: .init(cache: persisted, name: "qa"), buildKind: .debug)
        try await writer.set(Keys.retries, 9)
        let store = LocalOverrideStore(persistence: .init(cache: persisted, name: "qa"), buildKind: .debug)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register(Keys.all)
            .override(store)
            .build()
        #expect(client[Keys.retries] == 9)
        #expect(
            client.details(Keys.retries).layer
                == .override(source: "local overrides", position: 0, origin: "local overrides:max_retries"))
    }
}
