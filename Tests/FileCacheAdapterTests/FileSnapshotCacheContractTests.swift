import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import FileCacheAdapter

/// The contract's hooks for a ``FileSnapshotCache``, all working on the real files of its directory.
enum FileCacheContractHooks {
    /// A cache over a fresh directory under the system's temporary directory (created by the first store).
    static func makeCache() -> FileSnapshotCache {
        FileSnapshotCache(
            directory: FileManager.default.temporaryDirectory
                .appendingPathComponent("FileSnapshotCacheContract-\(UUID().uuidString)", isDirectory: true))
    }

    /// A second instance over the same directory, as after a relaunch.
    static func reopen(_ cache: FileSnapshotCache) -> FileSnapshotCache {
        FileSnapshotCache(directory: cache.directory, options: cache.options)
    }

    /// Damages the snapshot file of `name` in `slot` the way the contract asks.
    static func damage(
        _ cache: FileSnapshotCache, _ name: String, _ slot: CacheSlot, _ damage: SnapshotCacheContract<FileSnapshotCache>.Damage
    ) throws {
        let file = cache.directory.appendingPathComponent(cache.fileNames(for: name).snapshot(slot))
        var bytes = [UInt8](try Data(contentsOf: file))
        switch damage {
        case .garbage: bytes = bytes.indices.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        case .truncated: bytes = Array(bytes.prefix(bytes.count / 2))
        case .empty: bytes = []
        case .foreign:
            // The same file as a newer build would write it: format version 4 (bytes 8–9, big-endian).
            bytes[8] = 0
            bytes[9] = 4
        }
        try Data(bytes).write(to: file)
    }

    /// Makes every write to a configuration the directory already holds fail, or work again.
    ///
    /// A read-only directory would be the natural fault, but permission bits do not stop root, and
    /// the tests run as root in containers. Instead each configuration's lock file is replaced by a
    /// directory of the same name: the cache cannot open its lock, so every store, renewal,
    /// promotion and clear of that configuration fails with an `io` error before writing anything,
    /// for any user. Loads take no lock, so they keep working. The contract stores the snapshot it
    /// checks before it turns faults on, so its lock file exists by then.
    static func failWrites(_ cache: FileSnapshotCache, _ failing: Bool) throws {
        let manager = FileManager.default
        let entries = try manager.contentsOfDirectory(atPath: cache.directory.path)
        for entry in entries where entry.hasSuffix(".lock") {
            let path = cache.directory.appendingPathComponent(entry).path
            var isDirectory: ObjCBool = false
            _ = manager.fileExists(atPath: path, isDirectory: &isDirectory)
            guard failing != isDirectory.boolValue else { continue }
            try manager.removeItem(atPath: path)
            if failing { try manager.createDirectory(atPath: path, withIntermediateDirectories: false) }
        }
    }

    /// Removes the cache's directory.
    static func discard(_ cache: FileSnapshotCache) {
        try? FileManager.default.removeItem(at: cache.directory)
    }
}

/// Counts payload bytes written by looking at the files: every snapshot file (`*.snap`) with an
/// identity (inode, size, modification time) not seen before was written since the last look, and
/// its whole size counts. A rename (promotion) keeps the inode, so it writes nothing; a renewal
/// writes only a `.meta` file, so it writes nothing either.
final class SnapshotFileMeter: Sendable {
    private struct Identity: Hashable {
        var inode: UInt64
        var size: Int
        var modified: Date
    }

    /// Per directory path: the file identities seen so far and the bytes they add up to.
    private let state = Locked([String: (seen: Set<Identity>, total: Int)]())

    /// The snapshot bytes written in `directory` since the meter first looked at it.
    func bytesWritten(in directory: URL) -> Int {
        let manager = FileManager.default
        let entries = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
        var current: [Identity] = []
        for entry in entries where entry.hasSuffix(".snap") {
            guard let attributes = try? manager.attributesOfItem(atPath: directory.appendingPathComponent(entry).path)
            else { continue }
            current.append(
                Identity(
                    inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                    size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                    modified: attributes[.modificationDate] as? Date ?? .distantPast))
        }
        return state.withLock { state in
            var entry = state[directory.path, default: ([], 0)]
            for identity in current where entry.seen.insert(identity).inserted { entry.total += identity.size }
            state[directory.path] = entry
            return entry.total
        }
    }
}

@Suite("FileSnapshotCache contract")
struct FileSnapshotCacheContractTests {
    @Test func fileSnapshotCachePassesTheCacheContractOnAFreshDirectory() async {
        let meter = SnapshotFileMeter()
        let report = await SnapshotCacheContract<FileSnapshotCache>(
            subject: "FileSnapshotCache",
            makeCache: { FileCacheContractHooks.makeCache() },
            reopen: { FileCacheContractHooks.reopen($0) },
            damage: { try FileCacheContractHooks.damage($0, $1, $2, $3) },
            failWrites: { try FileCacheContractHooks.failWrites($0, $1) },
            payloadBytesWritten: { meter.bytesWritten(in: $0.directory) },
            discard: { FileCacheContractHooks.discard($0) }
        ).run()

        report.recordIssues()
        #expect(report.passed)
        #expect(report.skipped.isEmpty, "every hook is given, so no check is skipped")
        #expect(report.checks.count == SnapshotCacheContract<FileSnapshotCache>.Check.allCases.count)
    }

    @Test func theFileMeterCountsAStoreAndNotARenewal() async throws {
        try await withTemporaryDirectory { directory in
            let cache = FileSnapshotCache(directory: directory.url)
            let meter = SnapshotFileMeter()
            #expect(meter.bytesWritten(in: directory.url) == 0)
            let snapshot = sampleSnapshot(1, size: 500)
            try await cache.store(snapshot, as: "metered", slot: .active)
            let afterStore = meter.bytesWritten(in: directory.url)
            #expect(afterStore > snapshot.payload.count)
            var renewed = snapshot.metadata
            renewed.fetchedAt = renewed.fetchedAt.addingTimeInterval(60)
            try await cache.renew(renewed, for: "metered")
            #expect(meter.bytesWritten(in: directory.url) == afterStore)
            try await cache.store(sampleSnapshot(2), as: "metered", slot: .active)
            #expect(meter.bytesWritten(in: directory.url) > afterStore)
        }
    }

    @Test func theWriteFaultFailsStoresAndKeepsLoadsWorking() async throws {
        try await withTemporaryDirectory { directory in
            let cache = FileSnapshotCache(directory: directory.url)
            let snapshot = sampleSnapshot(3)
            try await cache.store(snapshot, as: "faulty", slot: .active)
            try FileCacheContractHooks.failWrites(cache, true)
            await #expect(throws: CacheError.self) { try await cache.store(sampleSnapshot(4), as: "faulty", slot: .active) }
            #expect(cache.load("faulty", slot: .active) == .hit(snapshot))
            try FileCacheContractHooks.failWrites(cache, false)
            try await cache.store(sampleSnapshot(4), as: "faulty", slot: .active)
            #expect(cache.load("faulty", slot: .active) == .hit(sampleSnapshot(4)))
        }
    }
}
