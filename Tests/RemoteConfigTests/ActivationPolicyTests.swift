import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// Each activation policy across a simulated relaunch: two clients built one after the other over one cache.
@Suite("Activation policies")
struct ActivationPolicyTests {
    @Test("immediate: a fetch is applied at once and is there after a relaunch")
    func immediate() async throws {
        let cache = InMemoryCache()
        let clock = ManualClock()
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let first = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).build()
        #expect(first[Keys.retries] == 3)
        let result = try await first.refresh()
        #expect(result == .updated(changedKeys: ["new_checkout", "max_retries", "ratio", "title"]))
        #expect(first[Keys.retries] == 8)

        let relaunched = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).build()
        #expect(relaunched[Keys.retries] == 8)
    }

    @Test("nextLaunch: a fetch is stored as pending, unchanged for this session, applied at the next build")
    func nextLaunch() async throws {
        let cache = InMemoryCache()
        let clock = ManualClock()
        try await cache.store(cached(payload(retries: 2), fetchedAt: clock.now()), as: "default", slot: .active)
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let first = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .activation(.nextLaunch).build()
        let result = try await first.refresh()
        #expect(result == .pendingActivation(changedKeys: ["max_retries"]))
        #expect(first[Keys.retries] == 2)
        #expect(first.status.pendingActivation)
        #expect(cache.snapshot("default", slot: .pending) != nil)

        let relaunched = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .activation(.nextLaunch).build()
        #expect(relaunched[Keys.retries] == 8)
        #expect(cache.snapshot("default", slot: .pending) == nil)
        #expect(!relaunched.status.pendingActivation)
    }

    @Test("nextLaunch: the next fetch is conditional on the pending snapshot's validators")
    func nextLaunchUsesPendingValidators() async throws {
        let cache = InMemoryCache()
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), cache: cache)
            .activation(.nextLaunch).build()
        _ = try await client.refresh()
        let second = try await client.refresh()
        #expect(second == .unchanged)
        #expect(fetcher.requests.count == 2)
        #expect(fetcher.requests[1].validators.etag != nil)
        #expect(client[Keys.retries] == 3)
    }

    @Test("manual: nothing changes until activate(); activate() applies and persists")
    func manual() async throws {
        let cache = InMemoryCache()
        let clock = ManualClock()
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .activation(.manual).build()
        _ = try await client.refresh()
        #expect(client[Keys.retries] == 3)
        #expect(client.status.pendingActivation)
        let activated = await client.activate()
        #expect(activated == .updated(changedKeys: ["new_checkout", "max_retries", "ratio", "title"]))
        #expect(client[Keys.retries] == 8)
        #expect(await client.activate() == nil)

        let relaunched = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .activation(.manual).build()
        #expect(relaunched[Keys.retries] == 8)
    }

    @Test("manual: a relaunch before activate() keeps the old values")
    func manualRelaunchWithoutActivation() async throws {
        let cache = InMemoryCache()
        let clock = ManualClock()
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .activation(.manual).build()
        _ = try await client.refresh()
        let relaunched = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .activation(.manual).build()
        #expect(relaunched[Keys.retries] == 3)
    }
}
