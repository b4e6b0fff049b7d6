import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Updates")
struct UpdatesTests {
    @Test("the update stream reports changed keys and the cause")
    func updateStream() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        var updates = client.activations().makeAsyncIterator()
        _ = try await client.refresh()
        let first = await updates.next()
        #expect(first?.changedKeys == ["new_checkout", "max_retries", "ratio", "title"])
        #expect(first?.cause == .refresh)
        fetcher.serve(json: payload(retries: 6))
        _ = try await client.refresh()
        #expect(await updates.next()?.changedKeys == ["max_retries"])
    }

    @Test("a per-key stream yields the current value first, then each change, and skips unrelated changes")
    func perKeyStream() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        var values = client.watch(Keys.retries).makeAsyncIterator()
        #expect(await values.next() == 3)
        _ = try await client.refresh()
        #expect(await values.next() == 5)
        fetcher.serve(json: payload(retries: 5, title: "Other"))
        _ = try await client.refresh()
        fetcher.serve(json: payload(retries: 6, title: "Other"))
        _ = try await client.refresh()
        #expect(await values.next() == 6)
    }

    @Test("a slow consumer of a per-key stream gets the latest value, never a stale one")
    func backPressure() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 1))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        let stream = client.watch(Keys.retries)
        for n in 1...5 {
            fetcher.serve(json: payload(retries: n))
            _ = try await client.refresh()
        }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == 5)
    }

    @Test("cancelling the consuming task ends a per-key stream")
    func cancellation() async throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock())
            .build()
        let stream = client.watch(Keys.flag)
        let consumer = Task {
            var seen = 0
            for await _ in stream { seen += 1 }
            return seen
        }
        consumer.cancel()
        let seen = await consumer.value
        #expect(seen <= 1)
    }

    @Test("stop() finishes the event and update streams")
    func stopFinishesStreams() async throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock())
            .build()
        let updates = client.activations()
        let events = client.events()
        await client.stop()
        var u = updates.makeAsyncIterator()
        var e = events.makeAsyncIterator()
        #expect(await u.next() == nil)
        #expect(await e.next() == nil)
    }

    @Test("watch() yields the current state, then each new state with what changed and why")
    func stateStream() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        var states = client.watch().makeAsyncIterator()
        let first = await states.next()
        #expect(first?.update == nil)
        #expect(first?[Keys.retries] == 3)
        _ = try await client.refresh()
        let refreshed = await states.next()
        #expect(refreshed?.update?.changedKeys == ["new_checkout", "max_retries", "ratio", "title"])
        #expect(refreshed?.update?.cause == .refresh)
        #expect(refreshed?[Keys.retries] == 5)
        #expect(refreshed.map { $0.generation > first?.generation ?? 0 } == true)
        await client.stop()
        #expect(await states.next() == nil, "stop() ends the watch")
    }

    @Test("the event stream carries refresh outcomes and errors")
    func eventStream() async throws {
        let fetcher = InMemoryFetcher(json: payload())
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        var events = client.events().makeAsyncIterator()
        let error = FetchError(.transport, retry: .backoff, message: "connection refused")
        fetcher.failNext(error)
        _ = try? await client.refresh()
        #expect(await events.next() == .refreshStarted)
        #expect(await events.next() == .fetched(.failed(error), duration: 0))
        #expect(await events.next() == .refreshFailed(.fetch(error)))
    }
}

/// Collects values from a Sendable closure, for assertions.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.current }
}
