import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// Every cell of the read-policy table (documented on `ReadPolicy` and in the DocC article).
///
/// The cache holds `max_retries = 7`; the server serves `max_retries = 9`; the default is 3.
@Suite("Read policies")
struct ReadPolicyTests {
    enum DataState: String, CaseIterable, Sendable {
        case fresh, stale, expired, noData

        /// Age of the cached snapshot under ttl 3600 and a one-day stale window.
        var age: TimeInterval? {
            switch self {
            case .fresh: 60
            case .stale: 4000
            case .expired: 3600 + 86_400 + 10
            case .noData: nil
            }
        }
    }

    /// What a read returns and whether it fetched: `foreground` before returning, `background` after.
    enum Fetch: Sendable { case none, foreground, background }

    struct Cell: Sendable, CustomTestStringConvertible {
        let policy: ReadPolicy
        let data: DataState
        let value: Int
        let fetch: Fetch
        var testDescription: String { "\(policy.rawValue) with \(data.rawValue) data returns \(value), fetch \(fetch)" }
    }

    static let table: [Cell] = [
        Cell(policy: .immediate, data: .fresh, value: 7, fetch: .none),
        Cell(policy: .immediate, data: .stale, value: 7, fetch: .none),
        Cell(policy: .immediate, data: .expired, value: 7, fetch: .none),
        Cell(policy: .immediate, data: .noData, value: 3, fetch: .none),
        Cell(policy: .refreshBeforeReturning, data: .fresh, value: 7, fetch: .none),
        Cell(policy: .refreshBeforeReturning, data: .stale, value: 9, fetch: .foreground),
        Cell(policy: .refreshBeforeReturning, data: .expired, value: 9, fetch: .foreground),
        Cell(policy: .refreshBeforeReturning, data: .noData, value: 9, fetch: .foreground),
        Cell(policy: .immediateWithBackgroundRefresh, data: .fresh, value: 7, fetch: .none),
        Cell(policy: .immediateWithBackgroundRefresh, data: .stale, value: 7, fetch: .background),
        Cell(policy: .immediateWithBackgroundRefresh, data: .expired, value: 7, fetch: .background),
        Cell(policy: .immediateWithBackgroundRefresh, data: .noData, value: 3, fetch: .background),
        Cell(policy: .cacheOnly, data: .fresh, value: 7, fetch: .none),
        Cell(policy: .cacheOnly, data: .stale, value: 7, fetch: .none),
        Cell(policy: .cacheOnly, data: .expired, value: 3, fetch: .none),
        Cell(policy: .cacheOnly, data: .noData, value: 3, fetch: .none),
    ]

    @Test("the table covers every policy and data state exactly once")
    func tableIsComplete() {
        for policy in ReadPolicy.allCases {
            for data in DataState.allCases {
                #expect(Self.table.filter { $0.policy == policy && $0.data == data }.count == 1)
            }
        }
    }

    @Test("read policy cell", arguments: table)
    func cell(_ cell: Cell) async throws {
        let clock = ManualClock(now: epoch.addingTimeInterval(200_000))
        let cache = InMemoryCache()
        if let age = cell.data.age {
            try await cache.store(
                cached(payload(retries: 7), fetchedAt: clock.now().addingTimeInterval(-age)), as: "default", slot: .active)
        }
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(payload(retries: 9), etag: "\"v2\""))
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache)
            .observer(observer)
            .build()

        let value = await client.fetch(cell.policy)[Keys.retries]
        #expect(value == cell.value)

        switch cell.fetch {
        case .none:
            #expect(fetcher.fetchCount == 0)
        case .foreground:
            #expect(fetcher.fetchCount == 1)
        case .background:
            await fetcher.waitForFetches(count: 1)
            _ = await observer.waitFor { if case .activated = $0 { true } else { false } }
            #expect(fetcher.fetchCount == 1)
            #expect(client[Keys.retries] == 9)
        }
    }

    @Test("refreshBeforeReturning with a failing server returns the best value held")
    func refreshFailureKeepsValue() async throws {
        let clock = ManualClock(now: epoch.addingTimeInterval(10_000))
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 7), fetchedAt: epoch), as: "default", slot: .active)
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.failure(FetchError(.httpStatus(500), retry: .backoff, message: "server error 500")))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).build()
        #expect(await client.fetch(.refreshBeforeReturning)[Keys.retries] == 7)
        #expect(fetcher.fetchCount == 1)
        #expect(client.status.lastError != nil)
    }

    @Test("cacheOnly with expired data still applies overrides")
    func cacheOnlyKeepsOverrides() async throws {
        let clock = ManualClock(now: epoch.addingTimeInterval(1_000_000))
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 7), fetchedAt: epoch), as: "default", slot: .active)
        let overrides = InMemoryOverrideSource(name: "qa", values: ["max_retries": .value(.int(1))])
        let client = try RemoteConfigBuilder.testing(fetcher: ScriptedFetcher(), clock: clock, cache: cache)
            .override(overrides).build()
        #expect(await client.fetch(.cacheOnly)[Keys.retries] == 1)
        #expect(await client.fetch(.cacheOnly)[Keys.flag] == false)
    }
}
