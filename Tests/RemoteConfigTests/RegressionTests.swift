import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// The five bugs found when the library was tried as a new user would, each pinned by a test that
/// failed before the core was rebuilt.
@Suite("Regressions of the rebuilt core")
struct RegressionTests {
    // MARK: 1. Keys are settings, matched by name

    @Test("a second key with a registered name and type is the same setting: overrides, rules, last good, explain")
    func keyMatchedByName() async throws {
        let fetcher = InMemoryFetcher(json: #"{"max_retries": 5}"#)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        // Written at a call site, not the registered `static let`.
        let callSite = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        _ = try await client.refresh()
        #expect(client[callSite] == 5)

        fetcher.serve(json: #"{"max_retries": 50}"#)
        await client.refreshRejectingEveryValue()
        #expect(client[callSite] == 5, "50 breaks the rule: the last good value, not the raw snapshot")
        #expect(client.details(callSite).layer == .lastGoodSnapshot(source: "memory://config"))
        #expect(client.view()[callSite] == 5)
        #expect(
            !observer.events.contains { if case .unregisteredKeyRead = $0 { true } else { false } },
            "a key with a registered name is not an unregistered read")
    }

    @Test("an override source applies to a key created at the call site")
    func callSiteKeySeesOverrides() async throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(InMemoryOverrideSource(name: "env", values: ["max_retries": .text("7")]))
            .build()
        let callSite = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        #expect(client[callSite] == 7)
        #expect(client.details(callSite).layer.isOverride)
    }

    @Test("a read of a registered name with another type is resolved on its own and reported, never a silent value")
    func typeMismatchReported() async throws {
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: #"{"max_retries": 5}"#), clock: ManualClock())
            .observer(observer).build()
        _ = try await client.refresh()
        let asText = ConfigKey("max_retries", default: "three")
        #expect(client[asText] == "three", "5 is not a String: the read key's own default")
        #expect(observer.events.contains(.keyTypeMismatch(name: "max_retries", registeredType: "Int", readType: "String")))
    }

    @Test("an unregistered key is resolved through its own rules, and reported once")
    func unregisteredKey() async throws {
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: #"{"timeout": 90, "label": "Hi"}"#), clock: ManualClock())
            .observer(observer).build()
        _ = try await client.refresh()
        let timeout = ConfigKey("timeout", default: 30, rules: [.range(1...60)])
        #expect(client[timeout] == 30, "90 breaks the read key's rule")
        #expect(client[ConfigKey("label", default: "")] == "Hi")
        _ = client[timeout]
        let reports = observer.events.filter { $0 == .unregisteredKeyRead(name: "timeout") }
        #expect(reports.count == 1)
    }

    // MARK: 2. A caller after a finished fetch starts a new one

    @Test("callers looping refresh(force:) each get a fetch that started after their call")
    func loopingCallersFetchAgain() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 1))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        let loops = 4
        let calls = 100
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<loops {
                group.addTask {
                    for _ in 0..<calls { _ = try? await client.refresh(force: true) }
                }
            }
        }
        // Each task's calls are one after another, so each needs a fetch of its own.
        #expect(fetcher.fetchCount >= calls)
        #expect(fetcher.fetchCount <= loops * calls)
    }

    @Test("a refresh after another one returned fetches again")
    func sequentialRefreshes() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 1))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        for _ in 0..<50 { _ = try await client.refresh(force: true) }
        #expect(fetcher.fetchCount == 50)
    }

    // MARK: 3. A burst of stale reads fetches once

    @Test("a burst of stale reads with background refresh fetches exactly once (200 trials)")
    func staleBurstFetchesOnce() async throws {
        for trial in 0..<200 {
            let clock = ManualClock(now: epoch)
            let cache = InMemoryCache()
            let json = payload(retries: 4)
            let fetcher = InMemoryFetcher(json: json)
            try await cache.store(cached(json, fetchedAt: epoch, etag: fetcher.currentETag), as: "default", slot: .active)
            clock.advance(by: 4000)  // past the one-hour TTL: stale
            let observer = RecordingObserver()
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).observer(observer).build()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<25 { _ = await client.fetch(.immediateWithBackgroundRefresh)[Keys.retries] }
                    }
                }
            }
            _ = await observer.waitFor { $0 == .notModified }
            for _ in 0..<25 { _ = await client.fetch(.immediateWithBackgroundRefresh)[Keys.retries] }
            #expect(fetcher.fetchCount == 1, "trial \(trial) fetched \(fetcher.fetchCount) times")
            #expect(client.status.freshness == .fresh)
            if fetcher.fetchCount != 1 { break }
        }
    }

    // MARK: 4. A purged cache is repaired

    @Test("a cache purged while the app runs is rewritten after a 304, so the next offline launch has the values")
    func purgedCacheRepaired() async throws {
        let cache = InMemoryCache()
        let json = payload(retries: 8)
        let fetcher = InMemoryFetcher(json: json)
        let clock = ManualClock(now: epoch)
        let online = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).build()
        _ = try await online.refresh()
        try await cache.clear("default")  // the OS purges the caches directory
        clock.advance(by: 10)
        #expect(try await online.refresh(force: true) == .unchanged)
        #expect(fetcher.requests.last?.validators == Validators.none, "the repair fetch is unconditional")
        #expect(cache.snapshot("default")?.payload == Data(json.utf8))

        let offline = InMemoryFetcher(json: "{}")
        offline.failAll(with: FetchError(.transport, retry: .backoff, message: "offline"))
        let relaunched = try RemoteConfigBuilder.testing(fetcher: offline, clock: clock, cache: cache).build()
        #expect(relaunched[Keys.retries] == 8)
    }

    // MARK: 5. Structured reads go through typed keys and read policies

    struct Banner: Codable, Sendable, Equatable {
        var title: String
    }

    @Test("a structured value is read through its typed key under a read policy, and a rejection is reported")
    func structuredReadThroughKey() async throws {
        let banner = ConfigKey(decoding: "banner", default: Banner(title: "none"))
        let fetcher = InMemoryFetcher(json: #"{"banner": {"title": "Sale"}}"#)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [banner])
            .observer(observer).build()
        #expect(await client.fetch(.refreshBeforeReturning)[banner] == Banner(title: "Sale"))
        #expect(fetcher.fetchCount == 1)

        fetcher.serve(json: #"{"banner": {"title": 7}}"#)
        await client.refreshRejectingEveryValue(force: true)
        #expect(client[banner] == Banner(title: "Sale"), "the rejected value falls back to the last good one")
        #expect(observer.events.contains { if case .valueRejected(let r) = $0 { r.key == "banner" } else { false } })
        #expect(client.view().details(forKey: "banner").rejected.first?.value == #"{"title":7}"#, "details show the refused raw value")
    }
}
