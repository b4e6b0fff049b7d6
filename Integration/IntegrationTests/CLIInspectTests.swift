import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import Testing

/// `remote-config inspect` on a cache directory the test fills with the real `FileSnapshotCache`.
@Suite("remote-config inspect, what a file cache holds")
struct CLIInspectTests {
    private func snapshot(_ text: String, fetchedAt: Date, etag: String?) -> CachedSnapshot {
        let bytes = Data(text.utf8)
        return CachedSnapshot(
            payload: bytes,
            metadata: SnapshotMetadata(
                fetchedAt: fetchedAt, validators: Validators(etag: etag, lastModified: "Sun, 22 Nov 2026 10:00:00 GMT"),
                contentHash: ContentHash(of: bytes), source: "https://cdn.example.com/config.json"))
    }

    /// A cache with a fresh `default` (plus a pending snapshot), a stale `ios`, and one quarantined file.
    private func makeCache(in scratch: CLIScratch) async throws -> URL {
        let directory = scratch.url.appendingPathComponent("cache")
        let cache = FileSnapshotCache(directory: directory)
        let now = Date()
        try await cache.store(
            snapshot(#"{"a": 1}"#, fetchedAt: now.addingTimeInterval(-90), etag: "\"v1\""), as: "default", slot: .active)
        try await cache.store(
            snapshot(#"{"a": 2}"#, fetchedAt: now.addingTimeInterval(-10), etag: "\"v2\""), as: "default", slot: .pending)
        try await cache.store(
            snapshot(#"{"b": true}"#, fetchedAt: now.addingTimeInterval(-9000), etag: nil), as: "ios", slot: .active)
        let broken = directory.appendingPathComponent(cache.fileNames(for: "broken").snapshot(.active))
        try Data("not a cache file".utf8).write(to: broken)
        #expect(cache.load("broken", slot: .active) != .miss, "a damaged file is reported and moved to quarantine")
        return directory
    }

    @Test("inspect lists each configuration with age, freshness, validators, size, integrity and pending, and the quarantine")
    func listsACache() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let directory = try await makeCache(in: scratch)
        let outcome = try await CLIProcess.run(["inspect", directory.path, "--ttl", "3600", "--max-stale", "86400"])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let text = outcome.standardOutput
        #expect(text.contains("Cache \(directory.path): 2 configurations; freshness under ttl 1 h, stale window 1 d"))
        #expect(text.contains("\"default\"  files \(CacheFileNames(name: "default").stem).*"))
        #expect(text.contains("\"ios\"  files \(CacheFileNames(name: "ios").stem).*"))
        // Fetched 90 s and 2.5 h ago. The child process may start minutes later on a loaded machine, so the
        // ages are read back and checked against each other rather than against the wall clock.
        let fresh = try #require(text.firstMatch(of: /\((\d+) min ago\), fresh for (\d+) min/), "\(text)")
        let (age, left) = (Int(fresh.1) ?? -1, Int(fresh.2) ?? -1)
        #expect(age >= 1 && age < 15, "fetched 90 s before the cache was written")
        #expect(age + left == 58 || age + left == 59, "an age of \(age) min and \(left) min left add up to the 1 h ttl")
        let stale = try #require(text.firstMatch(of: /\(2 h (\d+) min ago\), stale, expires in (\d+) h/), "\(text)")
        #expect((30..<45).contains(Int(stale.1) ?? -1))
        #expect(Int(stale.2) == 21 || Int(stale.2) == 22)
        #expect(text.contains("etag \"v1\", last-modified Sun, 22 Nov 2026 10:00:00 GMT"))
        #expect(text.contains("etag none, last-modified"))
        #expect(text.contains("payload 8 B"))
        #expect(text.contains("checksum ok"))
        #expect(text.contains("waits for activation at the next launch"))
        #expect(text.contains("Quarantined (damaged files moved aside): 1"))
        // A quarantined file keeps its original name after its time stamp.
        #expect(text.contains("-" + CacheFileNames(name: "broken").snapshot(.active)))

        let (jsonOutcome, json) = try await CLIProcess.runJSON(["inspect", directory.path, "--ttl", "3600"])
        #expect(jsonOutcome.status == 0)
        let configurations = try #require(json["configurations"]?.arrayValue)
        let main = try #require(configurations.first { $0["name"] == "default" })
        #expect(main["active"]?["integrity"] == "intact")
        #expect(main["active"]?["freshness"] == "fresh")
        #expect(main["active"]?["etag"] == "\"v1\"")
        #expect(main["active"]?["payloadBytes"] == 8)
        #expect(main["pending"]?["etag"] == "\"v2\"")
        #expect(configurations.first { $0["name"] == "ios" }?["pending"] == .null)
        #expect(json["quarantined"]?.arrayValue?.count == 1)
    }

    @Test("the last-good slot is listed once, under its configuration, and not again as a stray file")
    func lastGoodListedOnce() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let directory = scratch.url.appendingPathComponent("cache")
        let cache = FileSnapshotCache(directory: directory)
        try await cache.store(snapshot(#"{"a": 1}"#, fetchedAt: Date(), etag: "\"v1\""), as: "default", slot: .active)
        try await cache.store(snapshot(#"{"a": 0}"#, fetchedAt: Date(), etag: "\"v0\""), as: "default", slot: .lastGood)
        let lastGood = CacheFileNames(name: "default").snapshot(.lastGood)
        #expect(lastGood == "default.last-good.snap")
        let outcome = try await CLIProcess.run(["inspect", directory.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("values served as last good, kept for the next launch"))
        #expect(!outcome.standardOutput.contains("Other files"), "\(outcome.standardOutput)")
        let (_, json) = try await CLIProcess.runJSON(["inspect", directory.path])
        #expect(json["configurations"]?.element(0)?["lastGood"]?["file"] == .string(lastGood))
        #expect(json["otherFiles"] == .array([]))
    }

    @Test("a damaged file in place exits 1 naming it; files the cache already quarantined do not")
    func damagedFileExitsOne() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let directory = try await makeCache(in: scratch)
        let quarantinedOnly = try await CLIProcess.run(["inspect", directory.path])
        #expect(quarantinedOnly.status == 0, "the cache set the damaged file aside: \(quarantinedOnly.standardError)")
        let pending = CacheFileNames(name: "ios").snapshot(.pending)
        try Data("torn write".utf8).write(to: directory.appendingPathComponent(pending))
        let outcome = try await CLIProcess.run(["inspect", directory.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("DAMAGED"))
        #expect(
            outcome.standardError.hasPrefix("error: \(directory.path) holds 1 damaged file (\(pending)); the app refuses"),
            "\(outcome.standardError)")
        let (json, _) = try await CLIProcess.runJSON(["inspect", directory.path])
        #expect(json.status == 1, "--json exits the same way")
    }

    @Test("inspect of a directory that does not exist is one error line with exit status 2")
    func missingDirectory() async throws {
        let outcome = try await CLIProcess.run(["inspect", "/nonexistent/\(UUID().uuidString)"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: no cache directory at /nonexistent/"))
    }
}
