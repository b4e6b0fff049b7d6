import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

/// The metadata's `signature` field (format version 3), and version-2 files written before it.
@Suite("Signature field and format versions 2 and 3")
struct SignatureFieldTests {
    private let signature = "keyid=prod-1, version=1767225600000, sig=" + Data(repeating: 7, count: 64).base64EncodedString()

    private func signed(_ seed: Int) -> CachedSnapshot {
        var snapshot = sampleSnapshot(seed)
        snapshot.metadata.signature = signature + "\(seed)"
        return snapshot
    }

    @Test("a signature is stored with the payload and loads back exactly, in the active and the pending slot")
    func roundTrip() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            for slot in CacheSlot.allCases {
                try await cache.store(signed(1), as: "s", slot: slot)
                let loaded = try #require(cache.load("s", slot: slot).snapshot)
                #expect(loaded.metadata.signature == signature + "1")
                #expect(loaded == signed(1))
            }
        }
    }

    @Test("a renewal keeps the signature it is given, and a promotion keeps the pending snapshot's")
    func renewalAndPromotion() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(signed(1), as: "s", slot: .active)
            let renewed = signed(1).metadata.renewed(at: Date(timeIntervalSinceReferenceDate: 800_000_000), validators: .none)
            try await cache.renew(renewed, for: "s")
            #expect(cache.load("s", slot: .active).snapshot?.metadata == renewed)
            #expect(cache.load("s", slot: .active).snapshot?.metadata.signature == signature + "1")

            try await cache.store(signed(2), as: "s", slot: .pending)
            #expect(try cache.promotePending("s"))
            #expect(cache.load("s", slot: .active).snapshot?.metadata.signature == signature + "2")
        }
    }

    @Test("a version-2 file (no signature field) still loads, as an unsigned snapshot, and the next store writes version 3")
    func readsVersionTwo() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let snapshot = sampleSnapshot(3)
            let path = dir.file(cache.fileNames(for: "old").snapshot(.active))
            try overwrite(path, with: Self.file(version: 2, name: "old", snapshot: snapshot, withSignatureField: false))

            #expect(cache.load("old", slot: .active) == .hit(snapshot))
            #expect(cache.load("old", slot: .active).snapshot?.metadata.signature == nil)

            try await cache.store(signed(4), as: "old", slot: .active)
            let written = try bytes(of: path)
            #expect(written[8] == 0 && written[9] == 3, "stores write format version 3")
            #expect(cache.load("old", slot: .active) == .hit(signed(4)))
        }
    }

    @Test(
        "the layout must match the version: a version-3 file without the signature field, or a version-2 file with it, is damaged",
        arguments: [(UInt16(3), false), (UInt16(2), true)])
    func layoutFollowsVersion(version: UInt16, withSignatureField: Bool) async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            let path = dir.file(cache.fileNames(for: "mixed").snapshot(.active))
            try overwrite(
                path,
                with: Self.file(
                    version: version, name: "mixed", snapshot: sampleSnapshot(5), withSignatureField: withSignatureField))
            let result = cache.load("mixed", slot: .active)
            guard case .unreadable(let error) = result else {
                Issue.record("expected unreadable, got \(result)")
                return
            }
            #expect(error.kind == .corrupt(.badMetadata))
            #expect(error.message.contains("metadata does not decode"))
            #expect(cache.load("mixed", slot: .active) == .miss, "the damaged file was quarantined")
        }
    }

    /// A whole snapshot file in format `version`, its metadata with or without the signature field
    /// (a version-3 encoding of unsigned metadata ends in the field's absent byte, 0).
    static func file(version: UInt16, name: String, snapshot: CachedSnapshot, withSignatureField: Bool) -> [UInt8] {
        var unsigned = snapshot.metadata
        unsigned.signature = nil
        var metadata = MetadataCoding.encode(name: name, metadata: unsigned)
        if !withSignatureField { metadata.removeLast() }
        var header = EnvelopeHeader(
            metadataLength: UInt32(metadata.count), generation: 42, payloadLength: UInt64(snapshot.payload.count))
        header.version = version
        return header.sealed(kind: .snapshot, metadata: metadata) + [UInt8](snapshot.payload)
    }
}
