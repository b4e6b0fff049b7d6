import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("Store and load round trips")
struct RoundTripTests {
    @Test("every metadata field round-trips exactly, set or unset")
    func metadataRoundTrip() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let payload = Data("{\"a\":1}".utf8)
            let full = SnapshotMetadata(
                fetchedAt: Date(timeIntervalSinceReferenceDate: 123_456_789.987_654_321),
                validators: Validators(etag: "W/\"x\\u{0}y\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"),
                contentHash: ContentHash(of: payload), source: "s\u{0}ource ✓ 🚀", ttlHint: 0.1)
            let sparse = SnapshotMetadata(
                fetchedAt: Date(timeIntervalSinceReferenceDate: -1e9), validators: .none,
                contentHash: ContentHash(of: payload), source: "", ttlHint: nil)
            let etagOnly = SnapshotMetadata(
                fetchedAt: .distantFuture, validators: Validators(etag: "", lastModified: nil),
                contentHash: ContentHash(of: payload),
                source: "file:///tmp/x.json", ttlHint: -5)
            for (index, metadata) in [full, sparse, etagOnly].enumerated() {
                let name = "config-\(index)"
                try await cache.store(CachedSnapshot(payload: payload, metadata: metadata), as: name, slot: .active)
                let loaded = try #require(cache.load(name, slot: .active).snapshot)
                #expect(loaded.metadata == metadata)
                #expect(
                    loaded.metadata.fetchedAt.timeIntervalSinceReferenceDate == metadata.fetchedAt.timeIntervalSinceReferenceDate)
                #expect(loaded.metadata.validators.etag == metadata.validators.etag)
                #expect(loaded.metadata.validators.lastModified == metadata.validators.lastModified)
                #expect(loaded.metadata.contentHash == metadata.contentHash)
                #expect(loaded.metadata.source == metadata.source)
                #expect(loaded.metadata.ttlHint == metadata.ttlHint)
            }
        }
    }

    @Test(
        "payload bytes round-trip byte for byte",
        arguments: [0, 1, 7, 8, 9, 4_096, 100_003])
    func payloadRoundTrip(size: Int) async throws {
        try await withTemporaryDirectory { dir in
            var generator = SeededGenerator(seed: UInt64(size) + 7)
            let payload = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let snapshot = CachedSnapshot(payload: payload, metadata: fullMetadata(size, payload: payload))
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(snapshot, as: "bytes", slot: .active)
            #expect(cache.load("bytes", slot: .active) == .hit(snapshot))
            // The payload sits verbatim at the end of the file.
            let file = try bytes(of: dir.file(cache.fileNames(for: "bytes").snapshot(.active)))
            #expect(Array(file.suffix(size)) == [UInt8](payload))
        }
    }

    @Test("a cache made from a path is the cache made from the directory's URL")
    func pathAndURLAreOneCache() async throws {
        try await withTemporaryDirectory { dir in
            let fromPath = FileSnapshotCache(directoryPath: dir.path + "//")
            let fromURL = FileSnapshotCache(directory: dir.url)
            #expect(fromPath.directoryPath == fromURL.directoryPath, "trailing slashes are dropped")
            #expect(fromPath.directory.standardizedFileURL == dir.url.standardizedFileURL)
            #expect(fromPath.directory.hasDirectoryPath)
            try await fromPath.store(sampleSnapshot(7), as: "shared", slot: .active)
            #expect(fromURL.load("shared", slot: .active).snapshot == sampleSnapshot(7))
            try await fromURL.store(sampleSnapshot(8), as: "shared", slot: .active)
            #expect(fromPath.load("shared", slot: .active).snapshot == sampleSnapshot(8))
        }
    }

    @Test("a relative path is taken relative to the current directory when the cache is made")
    func relativePath() {
        let current = FileManager.default.currentDirectoryPath
        let cache = FileSnapshotCache(directoryPath: "caches/remote-config/")
        #expect(cache.directoryPath == (current == "/" ? "" : current) + "/caches/remote-config")
        #expect(FileSnapshotCache(directoryPath: "/").directoryPath == "/", "the root keeps its slash")
    }

    @Test("JSON payload text is kept as written, not re-encoded")
    func jsonKeptVerbatim() async throws {
        try await withTemporaryDirectory { dir in
            let text = "{ \"b\" : 1.0,\n  \"a\":true , \"u\":\"\\u00e9\" }  "
            let snapshot = CachedSnapshot(payload: Data(text.utf8), metadata: fullMetadata(payload: Data(text.utf8)))
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(snapshot, as: "json", slot: .active)
            let loaded = try #require(cache.load("json", slot: .active).snapshot)
            #expect(String(decoding: loaded.payload, as: UTF8.self) == text)
        }
    }

    @Test("a missing directory or name is a miss, and a store creates the directory and its parents")
    func missAndDirectoryCreation() async throws {
        try await withTemporaryDirectory { dir in
            let nested = dir.url.appendingPathComponent("a/b/cache", isDirectory: true)
            let cache = FileSnapshotCache(directory: nested)
            #expect(cache.load("x", slot: .active) == .miss)
            #expect(cache.load("x", slot: .pending) == .miss)
            #expect(!FileManager.default.fileExists(atPath: nested.path))
            try await cache.store(sampleSnapshot(), as: "x", slot: .active)
            #expect(cache.load("x", slot: .active) == .hit(sampleSnapshot()))
            #expect(cache.load("y", slot: .active) == .miss)
        }
    }

    @Test("a second store replaces the first, and many concurrent stores leave one whole snapshot")
    func replaceAndConcurrentStores() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "c", slot: .active)
            try await cache.store(sampleSnapshot(2, size: 500), as: "c", slot: .active)
            #expect(cache.load("c", slot: .active) == .hit(sampleSnapshot(2, size: 500)))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for seed in 10..<30 {
                    group.addTask { try await cache.store(sampleSnapshot(seed, size: seed * 37), as: "c", slot: .active) }
                }
                try await group.waitForAll()
            }
            let loaded = try #require(cache.load("c", slot: .active).snapshot)
            #expect((10..<30).contains { loaded == sampleSnapshot($0, size: $0 * 37) })
            #expect(dir.contents().filter { $0.hasSuffix(".tmp") }.isEmpty)
        }
    }

    @Test("the cache directory path being a regular file is an io error on store")
    func directoryIsAFile() async throws {
        try await withTemporaryDirectory { dir in
            let blocker = dir.url.appendingPathComponent("not-a-dir")
            try Data("x".utf8).write(to: blocker)
            let cache = FileSnapshotCache(directory: blocker)
            await #expect(throws: CacheError.self) { try await cache.store(sampleSnapshot(), as: "x", slot: .active) }
            do throws(CacheError) {
                try await cache.store(sampleSnapshot(), as: "x", slot: .active)
            } catch {
                guard case .io(let operation, _) = error.kind else {
                    Issue.record("expected an io error, got \(error)")
                    return
                }
                #expect(operation == "mkdir")
                #expect(error.message.contains("not a directory"))
            }
            #expect(cache.load("x", slot: .active) == .miss)
        }
    }

    @Test("the metadata encoding round-trips extreme values")
    func metadataEncodingExtremes() throws {
        let extreme = SnapshotMetadata(
            fetchedAt: Date(timeIntervalSinceReferenceDate: -1e300), validators: Validators(etag: "", lastModified: "\u{0}"),
            contentHash: ContentHash(value: 0xFFFF_FFFF_FFFF_FFFF, byteCount: Int.max), source: "", ttlHint: .infinity)
        let decoded = try MetadataCoding.decode(MetadataCoding.encode(name: "\u{0}é", metadata: extreme)).get()
        #expect(decoded.name == "\u{0}é")
        #expect(decoded.metadata == extreme)
    }

    @Test("a snapshot whose metadata gives another payload's content hash is refused, and nothing is written")
    func contentHashMismatchRefused() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let wrong = CachedSnapshot(payload: Data("{\"a\":1}".utf8), metadata: fullMetadata(payload: Data("{}".utf8)))
            do throws(CacheError) {
                try await cache.store(wrong, as: "wrong", slot: .active)
                Issue.record("a store with a mismatched content hash must throw")
            } catch {
                #expect(error.kind == .corrupt(.badChecksum))
                #expect(error.message.contains("ContentHash(of: payload)"))
            }
            #expect(cache.load("wrong", slot: .active) == .miss)
            #expect(dir.contents().isEmpty)
        }
    }

    @Test("the metadata encoding rejects every malformed section without crashing")
    func metadataDecodingFailures() throws {
        let good = MetadataCoding.encode(name: "n", metadata: fullMetadata())
        #expect(try MetadataCoding.decode(good).get().metadata == fullMetadata())
        // Every strict prefix and one extra byte are refused.
        for length in 0..<good.count {
            #expect((try? MetadataCoding.decode(Array(good.prefix(length))).get()) == nil, "prefix \(length)")
        }
        #expect((try? MetadataCoding.decode(good + [0]).get()) == nil)
        // Invalid UTF-8 in the name.
        var badUTF8 = MetadataCoding.encode(name: "ab", metadata: fullMetadata())
        badUTF8[4] = 0xFF
        #expect((try? MetadataCoding.decode(badUTF8).get()) == nil)
        // A presence byte other than 0 or 1.
        var badFlag = MetadataCoding.encode(name: "", metadata: fullMetadata())
        badFlag[12] = 2
        #expect((try? MetadataCoding.decode(badFlag).get()) == nil)
    }
}
