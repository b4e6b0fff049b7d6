import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("Limits and permissions")
struct LimitsAndPermissionsTests {
    @Test("a payload over the limit is rejected with payloadTooLarge and nothing is written; one at the limit is stored")
    func sizeLimit() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url, options: .init(maxPayloadSize: 1_000))
            try await cache.store(sampleSnapshot(1), as: "limit", slot: .active)
            let tooBig = CachedSnapshot(payload: Data(count: 1_001), metadata: fullMetadata(payload: Data(count: 1_001)))
            do throws(CacheError) {
                try await cache.store(tooBig, as: "limit", slot: .active)
                Issue.record("a store over the limit must throw")
            } catch {
                #expect(error.kind == .payloadTooLarge(size: 1_001, limit: 1_000))
                #expect(error.message.contains("maxPayloadSize"))
            }
            #expect(cache.load("limit", slot: .active) == .hit(sampleSnapshot(1)))
            let atLimit = CachedSnapshot(payload: Data(count: 1_000), metadata: fullMetadata(payload: Data(count: 1_000)))
            try await cache.store(atLimit, as: "limit", slot: .active)
            #expect(cache.load("limit", slot: .active) == .hit(atLimit))
        }
    }

    @Test("a negative size limit rejects every store and reports stored files as too large, without trapping")
    func negativeLimit() async throws {
        try await withTemporaryDirectory { dir in
            try await FileSnapshotCache(directory: dir.url).store(sampleSnapshot(1), as: "neg", slot: .active)
            let cache = FileSnapshotCache(directory: dir.url, options: .init(maxPayloadSize: -1))
            await #expect(throws: CacheError.self) { try await cache.store(sampleSnapshot(2), as: "neg", slot: .active) }
            guard case .unreadable(let error) = cache.load("neg", slot: .active), case .payloadTooLarge = error.kind else {
                Issue.record("expected payloadTooLarge")
                return
            }
        }
    }

    @Test("the default payload limit is 5 MiB, and metadata over 1 MiB is rejected too")
    func defaultsAndMetadataLimit() async throws {
        #expect(FileSnapshotCache.Options().maxPayloadSize == 5 * 1024 * 1024)
        #expect(FileSnapshotCache.Options().lockTimeout == 5)
        #expect(FileSnapshotCache.Options().quarantineLimit == 3)
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            var metadata = fullMetadata(payload: Data())
            metadata.source = String(repeating: "s", count: 1 << 20)
            do throws(CacheError) {
                try await cache.store(CachedSnapshot(payload: Data(), metadata: metadata), as: "m", slot: .active)
                Issue.record("oversized metadata must throw")
            } catch {
                guard case .payloadTooLarge(_, let limit) = error.kind else {
                    Issue.record("expected payloadTooLarge, got \(error)")
                    return
                }
                #expect(limit == 1 << 20)
            }
            #expect(cache.load("m", slot: .active) == .miss)
        }
    }

    @Test("files are written 0600 and a directory the cache creates 0700")
    func permissionsOfFiles() async throws {
        try await withTemporaryDirectory { dir in
            let root = dir.url.appendingPathComponent("created", isDirectory: true)
            let cache = FileSnapshotCache(directory: root)
            try await cache.store(sampleSnapshot(), as: "perm", slot: .active)
            try await cache.store(sampleSnapshot(), as: "perm", slot: .pending)
            try await cache.renew(fullMetadata(9, payload: sampleSnapshot().payload), for: "perm")
            let names = cache.fileNames(for: "perm")
            #expect(try permissions(of: root.path) == 0o700)
            for fileName in [names.snapshot(.active), names.snapshot(.pending), names.renewedMetadata, names.lock] {
                #expect(try permissions(of: root.appendingPathComponent(fileName).path) == 0o600, "\(fileName)")
            }
            try overwrite(root.appendingPathComponent(names.snapshot(.active)).path, with: [])
            _ = cache.load("perm", slot: .active)
            #expect(try permissions(of: root.appendingPathComponent("quarantine").path) == 0o700)
        }
    }

    @Test("custom permission options are applied exactly, and an existing directory keeps its mode")
    func customPermissions() async throws {
        try await withTemporaryDirectory { dir in
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            let cache = FileSnapshotCache(directory: dir.url, options: .init(filePermissions: 0o640, directoryPermissions: 0o750))
            try await cache.store(sampleSnapshot(), as: "custom", slot: .active)
            #expect(try permissions(of: dir.file(cache.fileNames(for: "custom").snapshot(.active))) == 0o640)
            #expect(try permissions(of: dir.path) == 0o755)
        }
    }

    @Test("a cache directory under a regular file fails with ENOTDIR and says what to do, not an I/O error")
    func directoryUnderAFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.url.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: file)
            let cache = FileSnapshotCache(directory: file.appendingPathComponent("cache"))
            await #expect {
                try await cache.store(sampleSnapshot(), as: "default", slot: .active)
            } throws: { error in
                guard let error = error as? CacheError, case .io(let operation, let code) = error.kind else { return false }
                return operation == "mkdir" && code == ENOTDIR && error.message.contains("Not a directory (errno \(ENOTDIR))")
                    && error.message.contains("a part of the path is a file, not a directory")
            }
            #expect(cache.load("default", slot: .active) == .miss)
        }
    }

}
