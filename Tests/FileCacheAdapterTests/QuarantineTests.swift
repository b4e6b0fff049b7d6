import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("Quarantine")
struct QuarantineTests {
    @Test("quarantine keeps only the newest files up to the limit, across configurations")
    func rotation() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url, options: .init(quarantineLimit: 2))
            var stems: [String] = []
            for index in 0..<5 {
                let name = "damaged-\(index)"
                try await cache.store(sampleSnapshot(index), as: name, slot: .active)
                try overwrite(dir.file(cache.fileNames(for: name).snapshot(.active)), with: [1, 2, 3])
                #expect(corruption(cache.load(name, slot: .active)) == .badMagic)
                stems.append(cache.fileNames(for: name).stem)
                let kept = dir.contents("quarantine")
                #expect(kept.count == min(index + 1, 2))
                // The newest damaged file is always among those kept.
                #expect(kept.contains { $0.hasSuffix(cache.fileNames(for: name).snapshot(.active)) })
            }
            let kept = dir.contents("quarantine")
            #expect(kept.count == 2)
            #expect(kept.contains { $0.contains(stems[4]) })
            #expect(!kept.contains { $0.contains(stems[0]) })
        }
    }

    @Test("a quarantine limit of 0 deletes damaged files")
    func limitZero() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url, options: .init(quarantineLimit: 0))
            try await cache.store(sampleSnapshot(), as: "z", slot: .active)
            try overwrite(dir.file(cache.fileNames(for: "z").snapshot(.active)), with: [])
            #expect(corruption(cache.load("z", slot: .active)) == .empty)
            #expect(dir.contents("quarantine").isEmpty)
            #expect(cache.load("z", slot: .active) == .miss)
        }
    }

    @Test("a damaged file is left in place, and still reported, while another writer holds the lock")
    func lockedDuringQuarantine() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url, options: .init(lockTimeout: 0.05))
            try await cache.store(sampleSnapshot(), as: "busy", slot: .active)
            let path = dir.file(cache.fileNames(for: "busy").snapshot(.active))
            try overwrite(path, with: [0])
            let holder = try #require(ForeignLockHolder(path: dir.file(cache.fileNames(for: "busy").lock)))
            let result = cache.load("busy", slot: .active)
            #expect(corruption(result) == .badMagic)
            if case .unreadable(let error) = result { #expect(error.message.contains("left in place")) }
            #expect(FileManager.default.fileExists(atPath: path))
            holder.release()
            #expect(corruption(cache.load("busy", slot: .active)) == .badMagic)
            #expect(cache.load("busy", slot: .active) == .miss)
        }
    }

    @Test("quarantine does not move a file another writer replaced since it was read")
    func replacedMeanwhile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let engine = CacheDirectory(path: dir.path, options: .init())
        try engine.store(sampleSnapshot(1), as: "race", slot: .active).get()
        let fileName = CacheFileNames(name: "race").snapshot(.active)
        let before = try PosixFileSystem.status(dir.file(fileName)).get()
        // A writer replaces the file (new inode) between the damaged read and the move.
        try engine.store(sampleSnapshot(2), as: "race", slot: .active).get()
        let moved = try Quarantine.move(fileName, in: dir.path, expected: before, limit: 3, directoryPermissions: 0o700).get()
        #expect(moved == nil)
        #expect(engine.load("race", slot: .active) == .hit(sampleSnapshot(2)))
    }
}
