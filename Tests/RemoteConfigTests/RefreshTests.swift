import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Refresh")
struct RefreshTests {
    @Test("a 304 renews freshness and the cache's metadata without rewriting the payload")
    func notModifiedRenews() async throws {
        let clock = ManualClock()
        let cache = InMemoryCache()
        let fetcher = InMemoryFetcher(json: payload())
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, cache: cache).build()
        _ = try await client.refresh()
        let bytesAfterFirst = cache.payloadBytesWritten
        #expect(cache.storeCount == 1)
        clock.advance(by: 4000)
        #expect(client.status.freshness == .stale)
        #expect(try await client.refresh() == .unchanged)
        #expect(client.status.freshness == .fresh)
        #expect(client.status.snapshot?.fetchedAt == clock.now())
        #expect(cache.renewCount == 1)
        #expect(cache.storeCount == 1)
        #expect(cache.payloadBytesWritten == bytesAfterFirst)
        #expect(cache.snapshot("default", slot: .active)?.metadata.fetchedAt == clock.now())
        #expect(fetcher.requests.last?.validators.etag != nil)
    }

    @Test("the same bytes served again without validators count as unchanged")
    func identicalBytesAreUnchanged() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(payload(), etag: nil))
        fetcher.enqueue(.modifiedJSON(payload(), etag: nil))
        let cache = InMemoryCache()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), cache: cache).build()
        _ = try await client.refresh()
        #expect(try await client.refresh() == .unchanged)
        #expect(cache.storeCount == 1)
    }

    @Test("a failed fetch keeps the last good state and records the error")
    func failureKeepsState() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        _ = try await client.refresh()
        let error = FetchError(.timeout, retry: .backoff, message: "timed out after 15 s")
        fetcher.failNext(error)
        await #expect(throws: ConfigError.fetch(error)) { try await client.refresh(force: true) }
        #expect(client[Keys.retries] == 5)
        #expect(client.status.lastError == .fetch(error))
        #expect(client.status.scheduler.consecutiveFailures == 1)
    }

    @Test("a payload that does not decode is a typed error naming the offset; the state is kept")
    func undecodablePayload() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        _ = try await client.refresh()
        fetcher.serve(json: #"{"max_retries": 6,}"#)
        await #expect {
            try await client.refresh(force: true)
        } throws: { error in
            guard case ConfigError.payload(let e) = error else { return false }
            return e.offset == 17 && e.format == "json" && e.source == "memory://config"
        }
        #expect(client[Keys.retries] == 5)
    }

    @Test("a 304 when nothing is held is reported as a fetcher error")
    func notModifiedWithoutSnapshot() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.notModified(.none))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        await #expect {
            try await client.refresh()
        } throws: { error in
            guard case ConfigError.fetch(let e) = error else { return false }
            return e.message.contains("holds no snapshot")
        }
    }

    @Test("a failing cache write is reported; the new values still apply")
    func cacheWriteFailure() async throws {
        let cache = InMemoryCache()
        let failure = CacheError(.io(operation: "write", code: 28), message: "no space left on device")
        cache.failWrites(with: failure)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: payload(retries: 5)), clock: ManualClock(), cache: cache
        )
        .observer(observer).build()
        _ = try await client.refresh()
        #expect(client[Keys.retries] == 5)
        #expect(client.status.cache == .writeFailed(failure))
        #expect(observer.events.contains(.cacheWriteFailed(failure)))
    }

    @Test("status reports last fetch, outcome, key count and generation")
    func status() async throws {
        let clock = ManualClock()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: clock).build()
        #expect(client.status.lastFetch == nil)
        #expect(client.status.keyCount == 4)
        let generation = client.status.generation
        _ = try await client.refresh()
        #expect(client.status.lastFetch == clock.now())
        #expect(client.status.lastOutcome?.changedKeys.count == 4)
        #expect(client.status.generation > generation)
    }

    @Test("the TTL hint is used only when the client honours it")
    func ttlHint() async throws {
        let clock = ManualClock()
        let hinted = FetchedPayload(bytes: Data(payload().utf8), validators: .none, ttlHint: 10, source: "hint")
        for honours in [false, true] {
            let fetcher = ScriptedFetcher()
            fetcher.enqueue(.modified(hinted))
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock).honoringTTLHints(honours).build()
            _ = try await client.refresh()
            clock.advance(by: 20)
            #expect(client.status.freshness == (honours ? .stale : .fresh))
        }
    }
}
