import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Each fetch is reported with what the fetcher answered and how long it took by the client's clock.
@Suite("Fetch events")
struct FetchEventTests {
    /// The events of one refresh whose fetch takes `seconds` on the client's clock (moved back when negative),
    /// from a cached snapshot when `fromCache`.
    private func refresh(
        _ step: ScriptedFetcher.Step, taking seconds: TimeInterval, fromCache: Bool = false
    ) async throws -> [ConfigEvent] {
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        let observer = RecordingObserver()
        let cache = InMemoryCache()
        if fromCache { try await cache.store(cached(payload(), fetchedAt: clock.now()), as: "default", slot: .active) }
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).observer(observer)
            .build()
        let hold = fetcher.enqueueHeld(step)
        let refresh = Task { try? await client.refresh(force: true) }
        await hold.waitUntilReached()
        clock.advance(by: seconds)
        hold.release()
        _ = await refresh.value
        await client.stop()
        return observer.events
    }

    @Test("a new payload: fetched, modified, after the time the fetcher took")
    func modified() async throws {
        let events = try await refresh(.modifiedJSON(payload(), etag: "\"v1\""), taking: 1.5)
        #expect(events.contains(.fetched(.modified, duration: 1.5)))
        let fetched = try #require(events.firstIndex(of: .fetched(.modified, duration: 1.5)))
        #expect(events.firstIndex(of: .refreshStarted).map { $0 < fetched } == true)
        #expect(events.firstIndex { if case .activated = $0 { true } else { false } }.map { $0 > fetched } == true)
    }

    @Test("a 304: fetched, not modified")
    func notModified() async throws {
        let events = try await refresh(.notModified(Validators(etag: "\"v1\"")), taking: 0.25, fromCache: true)
        #expect(events.contains(.fetched(.notModified, duration: 0.25)))
        #expect(events.contains(.notModified))
    }

    @Test("a failed fetch: fetched, failed with the error, before the refresh failure")
    func failed() async throws {
        let error = FetchError(.timeout, retry: .backoff, message: "timed out after 30 s")
        let events = try await refresh(.failure(error), taking: 30)
        let fetched = try #require(events.firstIndex(of: .fetched(.failed(error), duration: 30)))
        #expect(events.firstIndex(of: .refreshFailed(.fetch(error))).map { $0 > fetched } == true)
    }

    @Test("the unconditional fetch that repairs a purged cache after a 304 is reported too, answered or failed")
    func cacheRepairFetch() async throws {
        let error = FetchError(.transport, retry: .backoff, message: "connection reset")
        for repair in [ScriptedFetcher.Step.modifiedJSON(payload(), etag: "\"v1\""), .failure(error)] {
            let fetcher = ScriptedFetcher()
            let observer = RecordingObserver()
            let cache = InMemoryCache()
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), cache: cache)
                .observer(observer).build()
            fetcher.enqueue([.modifiedJSON(payload(), etag: "\"v1\""), .notModified(Validators(etag: "\"v1\"")), repair])
            _ = try await client.refresh(force: true)
            try await cache.clear("default")  // the OS purges the caches directory
            #expect(try await client.refresh(force: true) == .unchanged)
            let fetched = observer.events.filter { if case .fetched = $0 { true } else { false } }
            let answer: FetchOutcome = if case .failure = repair { .failed(error) } else { .modified }
            #expect(
                fetched == [.fetched(.modified, duration: 0), .fetched(.notModified, duration: 0), .fetched(answer, duration: 0)])
            await client.stop()
        }
    }

    @Test("a clock moved back during the fetch gives a duration of zero, never a negative one")
    func clockMovedBack() async throws {
        let events = try await refresh(.modifiedJSON(payload(), etag: nil), taking: -60)
        #expect(events.contains(.fetched(.modified, duration: 0)))
    }

    @Test("a pushed payload is not a fetch: it is activated with no fetched event")
    func pushedPayload() async throws {
        let observer = RecordingObserver()
        let pushed = FetchedPayload(bytes: Data(payload().utf8), validators: Validators(etag: "\"p1\""), source: "push://test")
        let push = InMemoryChangeSignalSource(current: .payload(pushed))
        let client = try RemoteConfigBuilder.testing(fetcher: ScriptedFetcher(), clock: ManualClock())
            .observer(observer).push(push).build()
        await (try #require(client.pushReceivers[0])).waitUntilSettled(1)
        await client.stop()
        #expect(observer.events.contains { if case .activated = $0 { true } else { false } })
        #expect(!observer.events.contains { if case .fetched = $0 { true } else { false } })
    }

    @Test("a fetch result names its outcome")
    func resultOutcome() {
        let payload = FetchedPayload(bytes: Data("{}".utf8), source: "memory")
        #expect(FetchResult.modified(payload).outcome == .modified)
        #expect(FetchResult.notModified(.none).outcome == .notModified)
    }
}
