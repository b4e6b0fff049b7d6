import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// The last good values survive a relaunch: a cache holds them beside the payloads (the `last-good`
/// slot), and a launch whose cached payload rejects a key serves what the last run served.
@Suite("Last good values kept across launches")
struct LastGoodAcrossLaunchesTests {
    private let clock = ManualClock(now: epoch)

    /// A client on `cache` whose fetcher answers with each of `payloads` in turn.
    private func launch(
        cache: InMemoryCache, payloads: [String] = [], activation: ActivationPolicy = .immediate, observer: RecordingObserver? = nil
    ) throws -> RemoteConfigClient {
        let fetcher = ScriptedFetcher()
        for (index, json) in payloads.enumerated() { fetcher.enqueue(.modifiedJSON(json, etag: "\"v\(index)\"")) }
        var builder = RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).activation(activation)
        if let observer { builder = builder.observer(observer) }
        return try builder.build()
    }

    @Test("a payload whose values are all rejected does not cost the next launch the values this one served")
    func relaunchAfterRejectedPayload() async throws {
        let cache = InMemoryCache()
        let first = try launch(cache: cache, payloads: [payload(retries: 9, title: "Hi"), payload(retries: 99, title: "")])
        try await first.refresh()
        try await first.refresh()
        #expect(first[Keys.retries] == 9)
        #expect(first.details(Keys.retries).layer == .lastGoodSnapshot(source: "scripted://config"))
        let record = try #require(cache.snapshot("default", slot: .lastGood))
        #expect(LastGoodValues(bytes: record.payload)?.entries.keys.sorted() == ["max_retries", "title"])

        let second = try launch(cache: cache)  // offline: the fetcher has nothing
        #expect(second[Keys.retries] == 9)
        #expect(second[Keys.title] == "Hi")
        #expect(second[Keys.flag] == true, "a value the cached payload gives is served as before")
        let explanation = second.details(Keys.retries)
        #expect(explanation.layer == .lastGoodSnapshot(source: "scripted://config"))
        #expect(explanation.rejected.map(\.value) == ["99"], "the cached payload's value is still reported as rejected")
    }

    @Test("once a payload gives the key a good value again, the record drops it")
    func recordFollowsRecovery() async throws {
        let cache = InMemoryCache()
        let client = try launch(
            cache: cache, payloads: [payload(retries: 9), payload(retries: 99), payload(retries: 4)])
        try await client.refresh()
        try await client.refresh()
        #expect(LastGoodValues(bytes: try #require(cache.snapshot("default", slot: .lastGood)).payload)?.entries.count == 1)
        try await client.refresh()
        #expect(client[Keys.retries] == 4)
        #expect(LastGoodValues(bytes: try #require(cache.snapshot("default", slot: .lastGood)).payload) == LastGoodValues.none)
    }

    @Test("a client that never kept a value writes no record, and reads none while its cache gives every value")
    func noRecordWhenNothingIsKept() async throws {
        let cache = InMemoryCache()
        let client = try launch(cache: cache, payloads: [payload(retries: 5), payload(retries: 6)])
        try await client.refresh()
        try await client.refresh()
        #expect(cache.snapshot("default", slot: .lastGood) == nil)
        #expect(!cache.operations.contains("store default/last-good"))

        let before = cache.operations.count
        _ = try launch(cache: cache)
        #expect(Array(cache.operations[before...]) == ["load default/active"], "one read at build, not two")
    }

    @Test("a kept value the key's rules now refuse is rejected and reported, and the key falls to its default")
    func keptValueRejectedByNewRules() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 99), fetchedAt: epoch), as: "default", slot: .active)
        let record = LastGoodValues(entries: ["max_retries": .init(raw: 42, source: "older build")])
        try await cache.store(record.cached(at: epoch), as: "default", slot: .lastGood)
        let client = try launch(cache: cache)
        #expect(client[Keys.retries] == 3)
        #expect(client.details(Keys.retries).rejected.map(\.value) == ["99", "42"])
        #expect(client.details(Keys.retries).rejected.last?.origin == "last good value from older build")
    }

    @Test("a damaged record is reported as an unreadable cache and ignored")
    func damagedRecord() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 99), fetchedAt: epoch), as: "default", slot: .active)
        try await cache.store(cached(#"["not", "a", "record"]"#, fetchedAt: epoch), as: "default", slot: .lastGood)
        let observer = RecordingObserver()
        let client = try launch(cache: cache, observer: observer)
        #expect(client[Keys.retries] == 3)
        let unreadable = observer.events.compactMap { event -> String? in
            if case .cacheUnreadable(let error) = event { error.message } else { nil }
        }
        #expect(unreadable.contains { $0.contains("last good values kept for \"default\"") })
    }

    @Test("under next-launch activation, the record written with the pending payload is what the next launch keeps")
    func nextLaunch() async throws {
        let cache = InMemoryCache()
        let first = try launch(cache: cache, payloads: [payload(retries: 9)], activation: .nextLaunch)
        try await first.refresh()
        let second = try launch(cache: cache, payloads: [payload(retries: 99)], activation: .nextLaunch)
        #expect(second[Keys.retries] == 9, "the first payload was promoted at this launch")
        try await second.refresh()
        #expect(second[Keys.retries] == 9, "the rejected payload waits for the next launch")

        let third = try launch(cache: cache, activation: .nextLaunch)
        #expect(third[Keys.retries] == 9)
        #expect(third.details(Keys.retries).layer == .lastGoodSnapshot(source: "scripted://config"))
    }
}
