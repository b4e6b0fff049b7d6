import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh temporary directory for one integration test.
struct FileCacheTestDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("FileCacheIntegration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("File cache: crash safety")
struct FileCacheCrashTests {
    @Test("a writer SIGKILLed at random moments 220 times always leaves a snapshot it wrote, byte-identical, and never loses one")
    func killedWriterLeavesWholeSnapshots() async throws {
        let fixture = try #require(
            CacheWriterFixture.executable, "build the CacheWriterFixture product first: swift build --build-tests")
        let directory = try FileCacheTestDirectory()
        defer { directory.remove() }
        let cache = FileSnapshotCache(directory: directory.url)
        let kills = 220
        var newest: Int?
        var hits = 0
        var pendingHits = 0
        var roundsWithProgress = 0
        var stepsCompleted = 0
        let started = Date()
        for round in 0..<kills {
            let first = round * 1_000_000
            let child = try ChildProcess(fixture, arguments: ["crash-loop", directory.url.path, "crash", String(first)])
            let ready = await child.output.line { $0.hasPrefix("started") }
            #expect(ready != nil, "round \(round): the writer did not start")
            // The random moment: anywhere in the first few writes (each is one to three fsyncs).
            try await Task.sleep(nanoseconds: UInt64.random(in: 0...30_000_000))
            let ending = await child.kill()
            #expect(ending == .signaled(SIGKILL), "round \(round): the writer ended by itself (\(ending))")

            switch cache.load("crash", slot: .active) {
            case .miss:
                #expect(newest == nil, "round \(round): a miss after snapshot \(newest ?? -1) had been stored")
            case .unreadable(let error):
                Issue.record("round \(round): unreadable after a kill: \(error)")
            case .hit(let snapshot):
                let counter = try #require(
                    FileCacheFixturePayloads.leadingInteger("counter", in: snapshot.payload), "round \(round)")
                #expect(
                    snapshot.payload == FileCacheFixturePayloads.crashPayload(counter),
                    "round \(round): payload \(counter) differs")
                let stored = FileCacheFixturePayloads.crashMetadata(counter, renewed: false)
                let renewed = FileCacheFixturePayloads.crashMetadata(counter, renewed: true)
                #expect(
                    snapshot.metadata == stored || (counter % 2 == 0 && snapshot.metadata == renewed),
                    "round \(round): metadata of \(counter) is neither as stored nor as renewed")
                #expect(counter >= (newest ?? counter), "round \(round): went back from \(newest ?? -1) to \(counter)")
                #expect(counter < first + 1_000_000, "round \(round): \(counter) was never written")
                if counter >= first {
                    roundsWithProgress += 1
                    stepsCompleted += counter - first + 1
                }
                newest = counter
                hits += 1
            }
            switch cache.load("crash", slot: .pending) {
            case .miss:
                break
            case .unreadable(let error):
                Issue.record("round \(round): pending unreadable after a kill: \(error)")
            case .hit(let snapshot):
                let counter = try #require(FileCacheFixturePayloads.leadingInteger("counter", in: snapshot.payload))
                #expect(counter % 3 == 0)
                #expect(snapshot.payload == FileCacheFixturePayloads.crashPayload(counter))
                #expect(snapshot.metadata == FileCacheFixturePayloads.crashMetadata(counter, renewed: false))
                pendingHits += 1
            }
        }
        #expect(hits > kills / 2, "too few kills came after a completed write to test anything")
        let report = try await cache.inspect()
        #expect(report.quarantined.isEmpty)
        print(
            "file cache crash test: \(kills) SIGKILLs in \(String(format: "%.1f", Date().timeIntervalSince(started))) s, "
                + "\(hits) loads of a completed snapshot, \(roundsWithProgress) rounds completed writes before the kill "
                + "(\(stepsCompleted) steps in all), \(pendingHits) pending snapshots caught between store and promotion")
    }
}
