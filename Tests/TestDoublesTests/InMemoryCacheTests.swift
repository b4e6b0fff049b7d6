import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

func sampleSnapshot(_ text: String, etag: String? = "\"e\"", at seconds: TimeInterval = 1_700_000_000)
    -> CachedSnapshot
{
    let payload = Data(text.utf8)
    return CachedSnapshot(
        payload: payload,
        metadata: SnapshotMetadata(
            fetchedAt: Date(timeIntervalSince1970: seconds), validators: Validators(etag: etag, lastModified: "lm"),
            contentHash: ContentHash(of: payload), source: "test://\(text)", ttlHint: 60))
}

@Suite("InMemoryCache")
struct InMemoryCacheTests {
    @Test func anEmptyCacheMisses() {
        let cache = InMemoryCache()
        #expect(cache.load("default", slot: .active) == .miss)
        #expect(cache.load("default", slot: .pending) == .miss)
    }

    @Test func storeThenLoadRoundTripsAndCounts() async throws {
        let cache = InMemoryCache()
        let snapshot = sampleSnapshot(#"{"a":1}"#)
        try await cache.store(snapshot, as: "default", slot: .active)
        #expect(cache.load("default", slot: .active) == .hit(snapshot))
        #expect(cache.snapshot("default") == snapshot)
        #expect(cache.storeCount == 1)
        #expect(cache.payloadBytesWritten == snapshot.payload.count)
    }

    @Test func renewReplacesMetadataKeepsPayloadAndWritesNoBytes() async throws {
        let cache = InMemoryCache()
        let snapshot = sampleSnapshot("{}")
        try await cache.store(snapshot, as: "default", slot: .active)
        let renewed = snapshot.metadata.renewed(at: Date(timeIntervalSince1970: 1_800_000_000), validators: .none)
        try await cache.renew(renewed, for: "default")
        #expect(cache.snapshot("default") == CachedSnapshot(payload: snapshot.payload, metadata: renewed))
        #expect(cache.renewCount == 1)
        #expect(cache.storeCount == 1)
        #expect(cache.payloadBytesWritten == snapshot.payload.count)
    }

    @Test func renewingAnAbsentSnapshotThrowsNotFound() async {
        let cache = InMemoryCache()
        do {
            try await cache.renew(sampleSnapshot("{}").metadata, for: "nothing")
            Issue.record("expected notFound")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.message.contains("nothing"))
        }
        #expect(cache.renewCount == 0)
    }

    @Test func namesAndSlotsAreKeptApart() async throws {
        let cache = InMemoryCache()
        let a = sampleSnapshot("a")
        let b = sampleSnapshot("b")
        let pending = sampleSnapshot("p")
        try await cache.store(a, as: "a", slot: .active)
        try await cache.store(b, as: "b", slot: .active)
        try await cache.store(pending, as: "a", slot: .pending)
        #expect(cache.load("a", slot: .active) == .hit(a))
        #expect(cache.load("b", slot: .active) == .hit(b))
        #expect(cache.load("a", slot: .pending) == .hit(pending))
        #expect(cache.load("b", slot: .pending) == .miss)
    }

    @Test func promoteMovesPendingToActive() async throws {
        let cache = InMemoryCache()
        try await cache.store(sampleSnapshot("old"), as: "default", slot: .active)
        let next = sampleSnapshot("new")
        try await cache.store(next, as: "default", slot: .pending)
        #expect(try cache.promotePending("default"))
        #expect(cache.snapshot("default") == next)
        #expect(cache.snapshot("default", slot: .pending) == nil)
        #expect(try cache.promotePending("default") == false)
    }

    @Test func clearRemovesBothSlotsOfOneName() async throws {
        let cache = InMemoryCache()
        try await cache.store(sampleSnapshot("a"), as: "a", slot: .active)
        try await cache.store(sampleSnapshot("p"), as: "a", slot: .pending)
        try await cache.store(sampleSnapshot("b"), as: "b", slot: .active)
        try await cache.clear("a")
        #expect(cache.load("a", slot: .active) == .miss)
        #expect(cache.load("a", slot: .pending) == .miss)
        #expect(cache.snapshot("b") != nil)
    }

    @Test func failLoadsReportsUnreadableUntilStopped() async throws {
        let cache = InMemoryCache()
        let snapshot = sampleSnapshot("{}")
        try await cache.store(snapshot, as: "default", slot: .active)
        let error = CacheError(.io(operation: "read", code: 5), message: "input/output error")
        cache.failLoads(with: error)
        #expect(cache.load("default", slot: .active) == .unreadable(error))
        cache.failLoads(with: nil)
        #expect(cache.load("default", slot: .active) == .hit(snapshot))
    }

    @Test func failWritesThrowsFromEveryWriteAndChangesNothing() async throws {
        let cache = InMemoryCache()
        let snapshot = sampleSnapshot("{}")
        try await cache.store(snapshot, as: "default", slot: .active)
        try await cache.store(snapshot, as: "default", slot: .pending)
        let error = CacheError(.io(operation: "write", code: 28), message: "disk full")
        cache.failWrites(with: error)
        await #expect(throws: error) { try await cache.store(sampleSnapshot("x"), as: "default", slot: .active) }
        await #expect(throws: error) { try await cache.renew(sampleSnapshot("x").metadata, for: "default") }
        #expect(throws: error) { _ = try cache.promotePending("default") }
        await #expect(throws: error) { try await cache.clear("default") }
        #expect(cache.snapshot("default") == snapshot)
        #expect(cache.snapshot("default", slot: .pending) == snapshot)
        #expect(cache.storeCount == 2)
        #expect(cache.renewCount == 0)
        cache.failWrites(with: nil)
        try await cache.clear("default")
        #expect(cache.snapshot("default") == nil)
    }

    @Test func corruptEntriesAreUnreadableUntilAStoreReplacesThem() async throws {
        let cache = InMemoryCache()
        try await cache.store(sampleSnapshot("{}"), as: "default", slot: .active)
        cache.corrupt("default")
        for _ in 0..<2 {
            guard case .unreadable(let error) = cache.load("default", slot: .active) else {
                Issue.record("expected unreadable")
                return
            }
            #expect(error.kind == .corrupt(.badChecksum))
        }
        #expect(cache.snapshot("default") == nil)
        await #expect(throws: CacheError.self) { try await cache.renew(sampleSnapshot("x").metadata, for: "default") }
        let fresh = sampleSnapshot("fresh")
        try await cache.store(fresh, as: "default", slot: .active)
        #expect(cache.load("default", slot: .active) == .hit(fresh))
    }

    @Test func corruptingAPendingSlotLeavesActiveReadable() async throws {
        let cache = InMemoryCache()
        let active = sampleSnapshot("a")
        try await cache.store(active, as: "default", slot: .active)
        cache.corrupt("default", slot: .pending)
        #expect(cache.load("default", slot: .active) == .hit(active))
        guard case .unreadable = cache.load("default", slot: .pending) else {
            Issue.record("expected unreadable")
            return
        }
    }

    @Test func operationsAreLoggedInOrderWhateverTheOutcome() async throws {
        let cache = InMemoryCache()
        _ = cache.load("c", slot: .active)
        try await cache.store(sampleSnapshot("{}"), as: "c", slot: .pending)
        _ = try cache.promotePending("c")
        try? await cache.renew(sampleSnapshot("{}").metadata, for: "missing")
        try await cache.clear("c")
        _ = cache.snapshot("c")
        #expect(cache.operations == ["load c/active", "store c/pending", "promote c", "renew missing", "clear c"])
    }

    @Test func theSameInstanceSurvivesARelaunch() async throws {
        let cache = InMemoryCache()
        let first: any SnapshotCache = cache
        let snapshot = sampleSnapshot(#"{"x":1}"#)
        try await first.store(snapshot, as: "default", slot: .active)
        let second: any SnapshotCache = cache
        #expect(second.load("default", slot: .active) == .hit(snapshot))
    }
}
