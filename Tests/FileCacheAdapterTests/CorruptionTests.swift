import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One way to damage a stored snapshot file, and the reason a load must report.
struct CorruptionShape: Sendable, CustomTestStringConvertible {
    let label: String
    let expected: CacheError.CorruptionReason
    /// Damages the file at the path (a valid snapshot of `victim`); `other` is a valid file of another name.
    let damage: @Sendable (_ path: String, _ valid: [UInt8], _ other: [UInt8]) throws -> Void

    var testDescription: String { label }

    /// A file of the current layout with custom metadata bytes and flags, header check correct.
    static func crafted(metadata: [UInt8], reserved: UInt16 = 0, payload: [UInt8] = []) -> [UInt8] {
        var header = EnvelopeHeader(metadataLength: UInt32(metadata.count), generation: 1, payloadLength: UInt64(payload.count))
        header.reserved = reserved
        return header.sealed(kind: .snapshot, metadata: metadata) + payload
    }

    static let all: [CorruptionShape] = [
        .init(label: "empty file", expected: .empty) { path, _, _ in try overwrite(path, with: []) },
        .init(label: "three bytes of the magic", expected: .truncated) { path, valid, _ in
            try overwrite(path, with: Array(valid.prefix(3)))
        },
        .init(label: "truncated inside the header", expected: .truncated) { path, valid, _ in
            try overwrite(path, with: Array(valid.prefix(23)))
        },
        .init(label: "truncated inside the metadata", expected: .truncated) { path, valid, _ in
            try overwrite(path, with: Array(valid.prefix(45)))
        },
        .init(label: "truncated inside the payload", expected: .truncated) { path, valid, _ in
            try overwrite(path, with: Array(valid.dropLast(3)))
        },
        .init(label: "one payload byte changed (caught by the content hash)", expected: .badChecksum) { path, valid, _ in
            var bytes = valid
            bytes[bytes.count - 2] ^= 0x20
            try overwrite(path, with: bytes)
        },
        .init(label: "the first payload byte changed", expected: .badChecksum) { path, valid, _ in
            var bytes = valid
            bytes[bytes.count - 300] ^= 0x01
            try overwrite(path, with: bytes)
        },
        .init(label: "another payload under intact metadata", expected: .badChecksum) { path, valid, _ in
            let payload = Array(sampleSnapshot(9, size: 300).payload)
            try overwrite(path, with: Array(valid.dropLast(payload.count)) + payload)
        },
        .init(label: "one metadata byte changed", expected: .badChecksum) { path, valid, _ in
            var bytes = valid
            bytes[EnvelopeHeader.size + 6] ^= 0x01
            try overwrite(path, with: bytes)
        },
        .init(label: "the payload length field changed", expected: .badChecksum) { path, valid, _ in
            var bytes = valid
            bytes[31] &+= 1
            try overwrite(path, with: bytes)
        },
        .init(label: "text garbage", expected: .badMagic) { path, _, _ in
            try overwrite(path, with: Array("{\"this is\": \"not a cache file\"}".utf8))
        },
        .init(label: "random garbage", expected: .badMagic) { path, _, _ in
            var generator = SeededGenerator(seed: 9)
            try overwrite(path, with: (0..<500).map { _ in UInt8.random(in: 0...255, using: &generator) | 1 })
        },
        .init(label: "bytes after the declared end", expected: .trailingBytes) { path, valid, _ in
            try overwrite(path, with: valid + [0])
        },
        .init(label: "a directory", expected: .notAFile) { path, _, _ in
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path + "/inner", withIntermediateDirectories: true)
        },
        .init(label: "a symbolic link", expected: .notAFile) { path, _, _ in
            let target = path + ".target"
            try FileManager.default.moveItem(atPath: path, toPath: target)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        },
        .init(label: "a FIFO", expected: .notAFile) { path, _, _ in
            try FileManager.default.removeItem(atPath: path)
            #expect(mkfifo(path, 0o600) == 0)
        },
        .init(label: "a renewal file in place of a snapshot", expected: .badMagic) { path, valid, _ in
            var bytes = valid
            bytes[3] = CacheFileKind.renewal.magic[3]
            try overwrite(path, with: bytes)
        },
        .init(label: "the file of another configuration", expected: .badMetadata) { path, _, other in
            try overwrite(path, with: other)
        },
        .init(label: "reserved flags set", expected: .badMetadata) { path, _, _ in
            try overwrite(
                path, with: crafted(metadata: MetadataCoding.encode(name: "victim", metadata: fullMetadata()), reserved: 1))
        },
        .init(label: "metadata that does not decode", expected: .badMetadata) { path, _, _ in
            try overwrite(path, with: crafted(metadata: [0, 0, 0, 9, 1, 2]))
        },
        .init(label: "a metadata length over the bound", expected: .badMetadata) { path, valid, _ in
            let declared = EnvelopeHeader.maxMetadataLength + 1
            var bytes = Array(valid.prefix(EnvelopeHeader.size))
            bytes[12] = UInt8(declared >> 24)
            bytes[13] = UInt8((declared >> 16) & 0xFF)
            bytes[14] = UInt8((declared >> 8) & 0xFF)
            bytes[15] = UInt8(declared & 0xFF)
            try overwrite(path, with: bytes + [UInt8](repeating: 0, count: declared))
        },
    ]
}

@Suite("Damaged files")
struct CorruptionTests {
    @Test(
        "each corruption shape is reported with its reason, quarantined, and the next load is a clean miss",
        arguments: CorruptionShape.all)
    func corruptionShape(shape: CorruptionShape) async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1, size: 300), as: "victim", slot: .active)
            try await cache.store(sampleSnapshot(2), as: "other", slot: .active)
            let path = dir.file(cache.fileNames(for: "victim").snapshot(.active))
            let otherPath = dir.file(cache.fileNames(for: "other").snapshot(.active))
            try shape.damage(path, try bytes(of: path), try bytes(of: otherPath))

            let result = cache.load("victim", slot: .active)
            #expect(corruption(result) == shape.expected, "\(result)")
            if case .unreadable(let error) = result {
                #expect(error.message.contains(path))
                #expect(error.message.contains("quarantine/"))
            }
            #expect(dir.contents("quarantine").count == 1)
            #expect(cache.load("victim", slot: .active) == .miss)
            #expect(cache.load("other", slot: .active) == .hit(sampleSnapshot(2)))
            // A later store works again.
            try await cache.store(sampleSnapshot(3), as: "victim", slot: .active)
            #expect(cache.load("victim", slot: .active) == .hit(sampleSnapshot(3)))
        }
    }

    @Test("a damaged pending snapshot is quarantined on load and promotion throws its reason")
    func damagedPending() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1), as: "p", slot: .active)
            try await cache.store(sampleSnapshot(2), as: "p", slot: .pending)
            let pending = dir.file(cache.fileNames(for: "p").snapshot(.pending))
            try overwrite(pending, with: Array(try bytes(of: pending).dropLast()))
            #expect(corruption(cache.load("p", slot: .pending)) == .truncated)
            #expect(cache.load("p", slot: .pending) == .miss)

            try await cache.store(sampleSnapshot(3), as: "p", slot: .pending)
            try overwrite(pending, with: [])
            do throws(CacheError) {
                _ = try cache.promotePending("p")
                Issue.record("promoting a damaged pending snapshot must throw")
            } catch {
                #expect(error.kind == .corrupt(.empty))
            }
            #expect(cache.load("p", slot: .active) == .hit(sampleSnapshot(1)))
            #expect(try cache.promotePending("p") == false)
        }
    }

    @Test(
        "another format version (older 1, unknown 0, newer 4) is rejected naming both versions, quarantined, then a miss",
        arguments: [UInt8(1), 0, 4])
    func otherVersion(version: UInt8) async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(), as: "v", slot: .active)
            let path = dir.file(cache.fileNames(for: "v").snapshot(.active))
            var file = try bytes(of: path)
            // The version field (bytes 8-9, big-endian), with everything after it as another layout might have it.
            file[8] = 0
            file[9] = version
            try overwrite(path, with: file + [1, 2, 3])
            let result = cache.load("v", slot: .active)
            guard case .unreadable(let error) = result else {
                Issue.record("expected unreadable, got \(result)")
                return
            }
            #expect(error.kind == .unsupportedVersion(found: Int(version), supported: 3))
            #expect(error.message.contains("version \(version)"))
            #expect(error.message.contains("version 3"))
            #expect(dir.contents("quarantine").count == 1)
            #expect(cache.load("v", slot: .active) == .miss)
            // The next store replaces it.
            try await cache.store(sampleSnapshot(2), as: "v", slot: .active)
            #expect(cache.load("v", slot: .active) == .hit(sampleSnapshot(2)))
        }
    }

    @Test("a damaged renewal file is quarantined and the load falls back to the metadata stored with the payload")
    func damagedRenewal() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let snapshot = sampleSnapshot(1)
            try await cache.store(snapshot, as: "r", slot: .active)
            let renewed = snapshot.metadata.renewed(at: snapshot.metadata.fetchedAt + 60, validators: Validators(etag: "\"new\""))
            try await cache.renew(renewed, for: "r")
            let renewalPath = dir.file(cache.fileNames(for: "r").renewedMetadata)
            var renewal = try bytes(of: renewalPath)
            renewal[renewal.count - 1] ^= 0xFF
            try overwrite(renewalPath, with: renewal)
            #expect(cache.load("r", slot: .active) == .hit(snapshot))
            #expect(dir.contents("quarantine").count == 1)
            #expect(!FileManager.default.fileExists(atPath: renewalPath))
        }
    }

    @Test("a valid file over the reader's size limit is unreadable as payloadTooLarge and left in place")
    func fileOverReaderLimit() async throws {
        try await withTemporaryDirectory { dir in
            try await FileSnapshotCache(directory: dir.url).store(sampleSnapshot(1, size: 2_000), as: "big", slot: .active)
            let small = FileSnapshotCache(directory: dir.url, options: .init(maxPayloadSize: 1_000))
            let result = small.load("big", slot: .active)
            guard case .unreadable(let error) = result, case .payloadTooLarge(let size, let limit) = error.kind else {
                Issue.record("expected payloadTooLarge, got \(result)")
                return
            }
            #expect(size == 2_000)
            #expect(limit == 1_000)
            #expect(error.message.contains("maxPayloadSize"))
            #expect(dir.contents("quarantine").isEmpty)
            #expect(
                FileSnapshotCache(directory: dir.url).load("big", slot: .active) == .hit(sampleSnapshot(1, size: 2_000)))
        }
    }
}
