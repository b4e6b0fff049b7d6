import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// A client built from a cache starts from the cached values: provenance, rejection events and
/// change detection work on that first state as on any other.
@Suite("Starting from the cache")
struct CachedStartTests {
    /// A cache holding `json`, fetched a minute before the client's clock.
    private func client(
        cachedJSON json: String, fetcher: any ConfigFetcher = InMemoryFetcher(json: "{}"), observer: RecordingObserver? = nil
    ) async throws -> RemoteConfigClient {
        let cache = InMemoryCache()
        try await cache.store(cached(json, fetchedAt: epoch), as: "default", slot: .active)
        var builder = RemoteConfigBuilder.testing(
            fetcher: fetcher, clock: ManualClock(now: epoch.addingTimeInterval(60)), cache: cache)
        if let observer { builder = builder.observer(observer) }
        return try builder.build()
    }

    @Test("the first state gives the cached values to reads, views and raw reads")
    func readsCachedValues() async throws {
        let client = try await client(cachedJSON: payload(flag: true, retries: 7, ratio: 0.75, title: "Cached"))
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 7)
        #expect(client.view()[Keys.ratio] == 0.75)
        #expect(client[Keys.title] == "Cached")
        #expect(client.view().entry(forName: "max_retries")?.value == .int(7))
    }

    @Test("a cached value a rule rejects falls back to the default and is reported once, with its provenance")
    func cachedRejectionReportedOnce() async throws {
        let observer = RecordingObserver()
        let client = try await client(cachedJSON: payload(retries: 99, title: ""), observer: observer)
        #expect(client[Keys.retries] == 3)
        #expect(client[Keys.title] == "Welcome")
        let explanation = client.details(Keys.retries)
        #expect(explanation.layer == .defaultValue)
        #expect(explanation.rejected.map(\.value) == ["99"])
        #expect(client.details(Keys.flag).layer == .snapshot(source: "test-cache"))
        let rejected = observer.events.compactMap { event -> String? in
            if case .valueRejected(let rejection) = event { rejection.key } else { nil }
        }
        #expect(rejected.sorted() == ["max_retries", "title"])
    }

    @Test("the first refresh compares against the cached state and reports each rejection once")
    func firstRefreshComparesAgainstCache() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: payload(flag: true, retries: 99, ratio: 0.5, title: "Cached"))
        let client = try await client(
            cachedJSON: payload(flag: true, retries: 99, ratio: 0.25, title: "Cached"), fetcher: fetcher, observer: observer)
        let result = try await client.refresh(force: true)
        #expect(result == .updated(changedKeys: ["ratio"]))
        #expect(client[Keys.ratio] == 0.5)
        #expect(client[Keys.retries] == 3)
        let rejected = observer.events.compactMap { event -> String? in
            if case .valueRejected(let rejection) = event { "\(rejection.value) from \(rejection.origin ?? "?")" } else { nil }
        }
        // Once from the cache, once from the fetch.
        #expect(rejected == ["99 from snapshot test-cache", "99 from snapshot memory://config"])
    }

    @Test("readers on many tasks racing a refresh only ever see cached or fetched values")
    func readersRaceFinishAndRefresh() async throws {
        for _ in 0..<50 {
            let fetcher = InMemoryFetcher(json: payload(retries: 9, title: "Fetched"))
            let client = try await client(cachedJSON: payload(retries: 7, title: "Cached"), fetcher: fetcher)
            let seen = await withTaskGroup(of: Set<String>.self) { group in
                group.addTask {
                    _ = try? await client.refresh(force: true)
                    return []
                }
                for _ in 0..<4 {
                    group.addTask {
                        var seen: Set<String> = []
                        for _ in 0..<200 {
                            // Two plain reads may straddle the refresh; a view's two reads may not.
                            seen.insert("retries \(client[Keys.retries])")
                            seen.insert("title \(client[Keys.title])")
                            let view = client.view()
                            seen.insert("view \(view[Keys.retries]) \(view[Keys.title])")
                        }
                        return seen
                    }
                }
                var all: Set<String> = []
                for await part in group { all.formUnion(part) }
                return all
            }
            let allowed: Set<String> = [
                "retries 7", "retries 9", "title Cached", "title Fetched", "view 7 Cached", "view 9 Fetched",
            ]
            #expect(seen.isSubset(of: allowed), "\(seen)")
            #expect(client[Keys.retries] == 9)
        }
    }
}
