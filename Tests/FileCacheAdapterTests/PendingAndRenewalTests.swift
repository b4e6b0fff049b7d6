import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("Pending snapshots and renewals")
struct PendingAndRenewalTests {
    @Test("a pending snapshot waits beside the active one and promotion swaps it in; promoting nothing returns false")
    func pendingPromotion() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            #expect(try cache.promotePending("p") == false)
            try await cache.store(sampleSnapshot(1), as: "p", slot: .active)
            try await cache.store(sampleSnapshot(2), as: "p", slot: .pending)
            #expect(cache.load("p", slot: .active) == .hit(sampleSnapshot(1)))
            #expect(cache.load("p", slot: .pending) == .hit(sampleSnapshot(2)))
            #expect(try cache.promotePending("p") == true)
            #expect(cache.load("p", slot: .active) == .hit(sampleSnapshot(2)))
            #expect(cache.load("p", slot: .pending) == .miss)
            #expect(try cache.promotePending("p") == false)
            #expect(cache.load("p", slot: .active) == .hit(sampleSnapshot(2)))
        }
    }

    @Test("promotion with no active snapshot makes the pending one active")
    func promotionWithoutActive() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(3), as: "fresh", slot: .pending)
            #expect(cache.load("fresh", slot: .active) == .miss)
            #expect(try cache.promotePending("fresh"))
            #expect(cache.load("fresh", slot: .active) == .hit(sampleSnapshot(3)))
        }
    }

    @Test("discarding moves the pending snapshot to quarantine/ and keeps the active one; discarding nothing does nothing")
    func discardPending() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try cache.discardPending("p")
            try await cache.store(sampleSnapshot(1), as: "p", slot: .active)
            try await cache.store(sampleSnapshot(2), as: "p", slot: .pending)
            try cache.discardPending("p")
            #expect(cache.load("p", slot: .pending) == .miss)
            #expect(cache.load("p", slot: .active) == .hit(sampleSnapshot(1)))
            #expect(try cache.promotePending("p") == false)
            let quarantined = dir.contents("quarantine")
            #expect(quarantined.count == 1 && quarantined[0].hasSuffix(cache.fileNames(for: "p").snapshot(.pending)))
            try cache.discardPending("p")
            #expect(dir.contents("quarantine").count == 1)
        }
    }

    @Test("a renewal of the old active snapshot does not apply to a promoted one")
    func promotionDropsRenewal() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "p", slot: .active)
            try await cache.renew(fullMetadata(77, payload: sampleSnapshot(1).payload), for: "p")
            try await cache.store(sampleSnapshot(2), as: "p", slot: .pending)
            #expect(try cache.promotePending("p"))
            #expect(cache.load("p", slot: .active) == .hit(sampleSnapshot(2)))
            #expect(!FileManager.default.fileExists(atPath: dir.file(cache.fileNames(for: "p").renewedMetadata)))
        }
    }

    @Test("renew replaces the metadata and writes only the small renewal file: the payload file keeps its inode, size and mtime")
    func renewWritesMetadataOnly() async throws {
        try await withTemporaryDirectory { dir in
            let engine = CacheDirectory(path: dir.path, options: .init())
            let payload = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let snapshot = CachedSnapshot(payload: payload, metadata: fullMetadata(1, payload: payload))
            try engine.store(snapshot, as: "r", slot: .active).get()
            let names = CacheFileNames(name: "r")
            let snapshotPath = dir.file(names.snapshot(.active))
            let before = try fileIdentity(snapshotPath)
            #expect(before.size > payload.count)

            let renewed = snapshot.metadata.renewed(
                at: snapshot.metadata.fetchedAt + 3_600, validators: Validators(etag: "\"v2\"", lastModified: nil))
            try engine.renew(renewed, for: "r").get()
            let after = try fileIdentity(snapshotPath)
            #expect(after.inode == before.inode)
            #expect(after.size == before.size)
            #expect(after.modified == before.modified)
            #expect(try fileIdentity(dir.file(names.renewedMetadata)).size < 400)
            #expect(engine.load("r", slot: .active) == .hit(CachedSnapshot(payload: payload, metadata: renewed)))

            // A second renewal replaces the first; a store makes both obsolete.
            let again = renewed.renewed(at: renewed.fetchedAt + 10, validators: .none)
            try engine.renew(again, for: "r").get()
            #expect(engine.load("r", slot: .active).snapshot?.metadata == again)
            try engine.store(sampleSnapshot(4), as: "r", slot: .active).get()
            #expect(engine.load("r", slot: .active) == .hit(sampleSnapshot(4)))
            #expect(!FileManager.default.fileExists(atPath: dir.file(names.renewedMetadata)))
        }
    }

    @Test("a renewal file left by a crash between a store's rename and its cleanup is ignored")
    func staleRenewalIgnored() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "s", slot: .active)
            try await cache.renew(fullMetadata(50, payload: sampleSnapshot(1).payload), for: "s")
            let renewalPath = dir.file(cache.fileNames(for: "s").renewedMetadata)
            let oldRenewal = try bytes(of: renewalPath)
            // Same payload bytes stored again: only the generation tells the renewal is stale.
            try await cache.store(sampleSnapshot(1), as: "s", slot: .active)
            try overwrite(renewalPath, with: oldRenewal)
            #expect(cache.load("s", slot: .active) == .hit(sampleSnapshot(1)))
            let report = try await cache.inspect()
            #expect(report.configurations.first?.renewal?.state == .stale)
        }
    }

    @Test("renewing with metadata for another payload (replaced by another writer) throws notFound and writes nothing")
    func renewForReplacedPayload() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "x", slot: .active)
            // Another process stored snapshot 2 after this one loaded snapshot 1 and fetched a 304.
            try await cache.store(sampleSnapshot(2), as: "x", slot: .active)
            let staleRenewal = sampleSnapshot(1).metadata.renewed(at: .distantFuture, validators: Validators(etag: "\"v1\""))
            do throws(CacheError) {
                try await cache.renew(staleRenewal, for: "x")
                Issue.record("a renewal for a replaced payload must throw")
            } catch {
                #expect(error.kind == .notFound)
                #expect(error.message.contains("another writer replaced it"))
            }
            #expect(cache.load("x", slot: .active) == .hit(sampleSnapshot(2)))
            #expect(!FileManager.default.fileExists(atPath: dir.file(cache.fileNames(for: "x").renewedMetadata)))
        }
    }

    @Test("renewing with nothing stored throws notFound, before and after the directory exists")
    func renewNotFound() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url.appendingPathComponent("absent"))
            for _ in 0..<2 {
                do throws(CacheError) {
                    try await cache.renew(fullMetadata(), for: "nothing")
                    Issue.record("renew without a snapshot must throw")
                } catch {
                    #expect(error.kind == .notFound)
                    #expect(error.message.contains("store a snapshot first"))
                }
                try await cache.store(sampleSnapshot(), as: "other", slot: .active)
            }
            try await cache.store(sampleSnapshot(), as: "nothing", slot: .pending)
            await #expect(throws: CacheError.self) { try await cache.renew(fullMetadata(), for: "nothing") }
        }
    }

    @Test("renewing after the OS purged the files or the whole directory throws notFound, and a store repairs it")
    func renewAfterPurge() async throws {
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("purged", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            let snapshot = sampleSnapshot(1)
            let renewed = snapshot.metadata.renewed(at: snapshot.metadata.fetchedAt + 60, validators: .none)
            for purgeWholeDirectory in [false, true] {
                try await cache.store(snapshot, as: "app", slot: .active)
                if purgeWholeDirectory {
                    try FileManager.default.removeItem(at: root)
                } else {
                    try FileManager.default.removeItem(
                        atPath: root.appendingPathComponent(cache.fileNames(for: "app").snapshot(.active)).path)
                }
                do throws(CacheError) {
                    try await cache.renew(renewed, for: "app")
                    Issue.record("renewing a purged snapshot must throw")
                } catch {
                    #expect(error.kind == .notFound)
                }
                try await cache.store(CachedSnapshot(payload: snapshot.payload, metadata: renewed), as: "app", slot: .active)
                #expect(cache.load("app", slot: .active) == .hit(CachedSnapshot(payload: snapshot.payload, metadata: renewed)))
            }
        }
    }

    @Test("renewing a damaged active snapshot quarantines it and throws notFound naming the damage")
    func renewDamaged() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(), as: "d", slot: .active)
            let path = dir.file(cache.fileNames(for: "d").snapshot(.active))
            var file = try bytes(of: path)
            file[file.count - 1] ^= 1
            try overwrite(path, with: file)
            do throws(CacheError) {
                try await cache.renew(fullMetadata(2), for: "d")
                Issue.record("renewing a damaged snapshot must throw")
            } catch {
                #expect(error.kind == .notFound)
                #expect(error.message.contains("damaged (badChecksum)"))
                #expect(error.message.contains("quarantine/"))
            }
            #expect(dir.contents("quarantine").count == 1)
            #expect(cache.load("d", slot: .active) == .miss)
        }
    }
}
