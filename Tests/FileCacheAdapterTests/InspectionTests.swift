import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("Inspection")
struct InspectionTests {
    @Test("inspect lists names, metadata, sizes, integrity, pending presence, renewals, quarantine and stray files")
    func report() async throws {
        try await withTemporaryDirectory { dir in
            let cache = FileSnapshotCache(directory: dir.url)
            try await cache.store(sampleSnapshot(1, size: 300), as: "alpha", slot: .active)
            try await cache.renew(fullMetadata(11, payload: sampleSnapshot(1, size: 300).payload), for: "alpha")
            try await cache.store(sampleSnapshot(2), as: "beta", slot: .active)
            try await cache.store(sampleSnapshot(3), as: "beta", slot: .pending)
            try await cache.store(sampleSnapshot(4), as: "gamma", slot: .active)
            try await cache.store(sampleSnapshot(5), as: "delta", slot: .active)
            try overwrite(dir.file(cache.fileNames(for: "gamma").snapshot(.active)), with: [9, 9, 9])
            try overwrite(dir.file(cache.fileNames(for: "delta").snapshot(.active)), with: [])
            _ = cache.load("delta", slot: .active)
            try overwrite(dir.file("notes.txt"), with: [1])

            let report = try await cache.inspect()
            #expect(report.directory.standardizedFileURL.path == dir.url.standardizedFileURL.path)
            let byName = Dictionary(
                report.configurations.compactMap { c in c.name.map { ($0, c) } }, uniquingKeysWith: { a, _ in a })
            let alpha = try #require(byName["alpha"])
            #expect(alpha.active?.integrity == .intact)
            #expect(alpha.active?.payloadSize == 300)
            #expect(alpha.active?.metadata == fullMetadata(11, payload: sampleSnapshot(1, size: 300).payload))
            #expect(alpha.active?.isRenewed == true)
            #expect(alpha.renewal?.state == .current)
            #expect(alpha.hasPending == false)
            let alphaFile = try fileIdentity(dir.file(cache.fileNames(for: "alpha").snapshot(.active)))
            #expect(alpha.active?.fileSize == Int(alphaFile.size))

            let beta = try #require(byName["beta"])
            #expect(beta.hasPending)
            #expect(beta.pending?.metadata == sampleSnapshot(3).metadata)
            #expect(beta.active?.metadata == sampleSnapshot(2).metadata)
            #expect(beta.renewal == nil)

            let gamma = try #require(report.configurations.first { $0.stem == cache.fileNames(for: "gamma").stem })
            #expect(gamma.name == nil)
            guard case .damaged(let error)? = gamma.active?.integrity else {
                Issue.record("gamma must be reported damaged")
                return
            }
            #expect(error.kind == .corrupt(.badMagic))
            #expect(gamma.active?.fileSize == 3)

            // delta was quarantined by its load: no configuration entry, one quarantined file.
            #expect(!report.configurations.contains { $0.stem == cache.fileNames(for: "delta").stem })
            #expect(report.quarantined.count == 1)
            #expect(report.quarantined.first?.fileName.hasSuffix(cache.fileNames(for: "delta").snapshot(.active)) == true)
            #expect(report.quarantined.first?.quarantinedAt != nil)
            #expect(report.otherFiles == ["notes.txt"])

            // Inspecting changed nothing: the damaged gamma file is still in place.
            #expect(FileManager.default.fileExists(atPath: dir.file(cache.fileNames(for: "gamma").snapshot(.active))))
            #expect(try await cache.inspect() == report)
        }
    }

    @Test("inspecting a missing directory gives an empty report; an unreadable path throws io")
    func emptyAndUnreadable() async throws {
        try await withTemporaryDirectory { dir in
            let report = try await FileSnapshotCache(directory: dir.url.appendingPathComponent("none")).inspect()
            #expect(report.configurations.isEmpty && report.quarantined.isEmpty && report.otherFiles.isEmpty)
            try overwrite(dir.file("plain"), with: [1])
            do throws(CacheError) {
                _ = try await FileSnapshotCache(directory: dir.url.appendingPathComponent("plain")).inspect()
                Issue.record("inspecting a regular file as a directory must throw")
            } catch {
                guard case .io = error.kind else {
                    Issue.record("expected io, got \(error)")
                    return
                }
            }
        }
    }
}
