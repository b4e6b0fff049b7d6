import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Builder")
struct BuilderTests {
    @Test("build() with a cache serves cached values on the very first read")
    func firstReadSeesCache() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(flag: true, retries: 7), fetchedAt: epoch), as: "default", slot: .active)
        let clock = ManualClock(now: epoch.addingTimeInterval(60))
        let fetcher = InMemoryFetcher(json: "{}")
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).build()
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 7)
        #expect(fetcher.fetchCount == 0)
        #expect(client.status.cache == .inSync)
        #expect(client.status.freshness == .fresh)
    }

    @Test("a key registered through an app's own wrapper type reads like the key itself")
    func wrapperRegisteredKeyReads() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(flag: true, retries: 7), fetchedAt: epoch), as: "default", slot: .active)
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(now: epoch), cache: cache,
            keys: [FlagWrapper(key: Keys.flag), Keys.retries]
        ).build()
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 7)
        #expect(client.status.registeredKeys.map(\.name).sorted() == [Keys.flag.name, Keys.retries.name].sorted())
    }

    @Test("build() with no cache serves defaults")
    func noCacheServesDefaults() async throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock()).build()
        #expect(client[Keys.flag] == false)
        #expect(client[Keys.title] == "Welcome")
        #expect(client.status.cache == .notConfigured)
        #expect(client.status.freshness == nil)
    }

    @Test("build() with a corrupt cache succeeds, serves defaults and reports why")
    func corruptCacheServesDefaults() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(), fetchedAt: epoch), as: "default", slot: .active)
        cache.corrupt("default")
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), cache: cache
        )
        .observer(observer)
        .build()
        #expect(client[Keys.retries] == 3)
        guard case .unreadable = client.status.cache else {
            Issue.record("expected an unreadable cache status, got \(client.status.cache)")
            return
        }
        #expect(observer.events.contains { if case .cacheUnreadable = $0 { true } else { false } })
    }

    @Test("a cached payload that no longer decodes is reported and ignored")
    func undecodableCachedPayload() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached("[1, 2]", fetchedAt: epoch), as: "default", slot: .active)
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), cache: cache
        ).build()
        #expect(client[Keys.flag] == false)
        guard case .unreadable(let error) = client.status.cache else {
            Issue.record("expected unreadable, got \(client.status.cache)")
            return
        }
        #expect(error.message.contains("no longer decodes"))
    }

    @Test("ttl <= 0 is a configuration error at build time", arguments: [0.0, -1.0, Double.nan])
    func invalidTTL(ttl: Double) async {
        #expect {
            _ = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
                .freshness(FreshnessPolicy(ttl: ttl, maxStale: .none))
                .build()
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.kind == .invalidFreshness && e.message.contains("ttl")
        }
    }

    @Test("a key registered twice with different types is refused")
    func conflictingTypes() async {
        let asInt = ConfigKey("dup", default: 1)
        let asString = ConfigKey("dup", default: "1")
        #expect {
            _ = try RemoteConfigBuilder.testing(
                fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), keys: [asInt, asString]
            ).build()
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.kind == .conflictingKey && e.message.contains("different types")
        }
    }

    @Test("a key registered twice with different defaults is refused; the same key twice is fine")
    func conflictingDefaults() async throws {
        let one = ConfigKey("dup", default: 1)
        let two = ConfigKey("dup", default: 2)
        #expect {
            _ = try RemoteConfigBuilder.testing(
                fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), keys: [one, two]
            ).build()
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.kind == .conflictingKey && e.message.contains("different defaults")
        }
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), keys: [one, one]
        ).build()
        #expect(client.status.registeredKeys.count == 1)
        #expect(client[one] == 1)
    }

    @Test("after a merged duplicate, later keys still read their own values, by key and by name")
    func duplicateInTheMiddle() async throws {
        let first = ConfigKey("first", default: 0)
        let second = ConfigKey("second", default: "")
        let same = ConfigKey("first", default: 0)
        let third = ConfigKey("third", default: false)
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: #"{"first": 1, "second": "two", "third": true}"#), clock: ManualClock(),
            keys: [first, second, same, first, third]
        ).build()
        try await client.refresh(force: true)
        #expect(client.status.registeredKeys.map(\.name) == ["first", "second", "third"])
        #expect(client[first] == 1)
        #expect(client[same] == 1)
        #expect(client[second] == "two")
        #expect(client[third] == true)
        #expect(client.view().details(forKey: "third").isRegistered)
        #expect(client.view().details(forKey: "third").value == true)
    }

    @Test("an invalid pattern rule is a configuration error")
    func invalidRule() async {
        let key = ConfigKey("code", default: "a", rules: [.pattern("([a-z")])
        #expect {
            _ = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), keys: [key])
                .build()
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.kind == .invalidRule && e.message.contains("code")
        }
    }

    @Test("next-launch activation without a cache is refused")
    func nextLaunchNeedsCache() async {
        #expect {
            _ = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
                .activation(.nextLaunch).build()
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.kind == .missingComponent
        }
    }

    @Test("negative intervals and bad backoff are refused")
    func badSchedule() async {
        let base = RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
        for builder in [
            base.minimumFetchInterval(-1), base.periodicRefresh(every: 0),
            base.backoff(BackoffPolicy(initial: 0)), base.backoff(BackoffPolicy(initial: 10, maximum: 1)),
            base.backoff(BackoffPolicy(multiplier: 0.5)),
        ] {
            #expect {
                _ = try builder.build()
            } throws: { error in
                guard case ConfigError.configuration(let e) = error else { return false }
                return e.kind == .invalidSchedule
            }
        }
    }

    @Test("registered keys are listed with type, default and rules")
    func registryListing() async throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock()).build()
        let retries = try #require(client.status.registeredKeys.first { $0.name == "max_retries" })
        #expect(retries.typeName == "Int")
        #expect(retries.defaultValue == .int(3))
        #expect(retries.ruleNames == ["range(0...10)"])
    }
}

/// An app's own type standing for a key.
private struct FlagWrapper: ConfigKeyRepresentable {
    let key: ConfigKey<Bool>
    var configKey: ConfigKey<Bool> { key }
}
