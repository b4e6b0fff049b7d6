import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

/// A write operation that takes the configuration's lock.
struct LockedOperation: Sendable, CustomTestStringConvertible {
    let label: String
    let run: @Sendable (FileSnapshotCache) async throws(CacheError) -> Void
    var testDescription: String { label }

    static let all: [LockedOperation] = [
        .init(label: "store") { cache throws(CacheError) in try await cache.store(sampleSnapshot(2), as: "locked", slot: .active)
        },
        .init(label: "store pending") { cache throws(CacheError) in
            try await cache.store(sampleSnapshot(2), as: "locked", slot: .pending)
        },
        .init(label: "renew") { cache throws(CacheError) in
            try await cache.renew(fullMetadata(2, payload: sampleSnapshot(1).payload), for: "locked")
        },
        .init(label: "promote") { cache throws(CacheError) in _ = try cache.promotePending("locked") },
        .init(label: "clear") { cache throws(CacheError) in try await cache.clear("locked") },
    ]
}

@Suite("Write lock")
struct LockTests {
    @Test("a write waits a bounded time for a lock held elsewhere and fails with lockTimeout", arguments: LockedOperation.all)
    func lockTimeout(operation: LockedOperation) async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url, options: .init(lockTimeout: 0.1))
            try await cache.store(sampleSnapshot(1), as: "locked", slot: .active)
            let holder = try #require(ForeignLockHolder(path: dir.file(cache.fileNames(for: "locked").lock)))
            do throws(CacheError) {
                try await operation.run(cache)
                Issue.record("\(operation.label) must time out while the lock is held")
            } catch {
                #expect(error.kind == .lockTimeout(seconds: 0.1))
                #expect(error.message.contains("Options.lockTimeout"))
            }
            // Nothing changed while locked, and other names are not blocked.
            #expect(cache.load("locked", slot: .active) == .hit(sampleSnapshot(1)))
            try await cache.store(sampleSnapshot(3), as: "free", slot: .active)
            holder.release()
            try await operation.run(cache)
        }
    }

    @Test("a negative or NaN lock timeout makes a single attempt instead of trapping", arguments: [-1.0, Double.nan])
    func degenerateTimeouts(timeout: Double) async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url, options: .init(lockTimeout: timeout))
            try await cache.store(sampleSnapshot(1), as: "n", slot: .active)
            let holder = try #require(ForeignLockHolder(path: dir.file(cache.fileNames(for: "n").lock)))
            do throws(CacheError) {
                try await cache.store(sampleSnapshot(2), as: "n", slot: .active)
                Issue.record("a held lock must fail the store")
            } catch {
                guard case .lockTimeout = error.kind else {
                    Issue.record("expected lockTimeout, got \(error)")
                    return
                }
            }
            holder.release()
            try await cache.store(sampleSnapshot(2), as: "n", slot: .active)
            #expect(cache.load("n", slot: .active) == .hit(sampleSnapshot(2)))
        }
    }

    @Test("two cache instances in one process exclude each other through the lock")
    func instancesExclude() async throws {
        try await withTemporaryDirectory { dir in
            let first = FileSnapshotCache(directory: dir.url)
            let second = FileSnapshotCache(directory: dir.url)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for seed in 0..<40 {
                    let cache = seed.isMultiple(of: 2) ? first : second
                    group.addTask { try await cache.store(sampleSnapshot(seed, size: 1_000 + seed), as: "shared", slot: .active) }
                }
                try await group.waitForAll()
            }
            let loaded = try #require(first.load("shared", slot: .active).snapshot)
            #expect((0..<40).contains { loaded == sampleSnapshot($0, size: 1_000 + $0) })
        }
    }
}
