import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import TestSupport
import Testing

@Suite("File cache: several processes")
struct FileCacheProcessTests {
    @Test("two processes writing the same configuration for 3 s both finish without a lock timeout and leave a valid snapshot")
    func twoConcurrentWriters() async throws {
        let fixture = try #require(
            CacheWriterFixture.executable, "build the CacheWriterFixture product first: swift build --build-tests")
        let directory = try FileCacheTestDirectory()
        defer { directory.remove() }
        let cache = FileSnapshotCache(directory: directory.url)
        let writers = try [1, 2].map {
            try ChildProcess(fixture, arguments: ["hammer", directory.url.path, "shared", String($0), "3"])
        }

        // While they write, this process keeps loading: every load must be a whole snapshot.
        let stop = Eventual<Void>()
        let observer = Task { () -> (loads: Int, problems: [String]) in
            var loads = 0
            var problems: [String] = []
            while stop.current == nil {
                let result = cache.load("shared", slot: .active)
                loads += 1
                if let problem = Self.problem(with: result) { problems.append(problem) }
                await Task.yield()
            }
            return (loads, problems)
        }
        var results: [(line: String?, ending: ChildProcess.Ending)] = []
        for writer in writers {
            let line = await writer.output.line { _ in true }
            results.append((line, await writer.finish(deadline: 30, grace: 1).ending))
        }
        stop.set(())
        let observed = await observer.value

        for (index, result) in results.enumerated() {
            #expect(
                result.ending == .exited(0),
                "writer \(index + 1): \(result.ending), said \(result.line ?? "nothing"); stderr: \(writers[index].errors.text)")
            #expect(result.line?.hasPrefix("done ") == true, "writer \(index + 1) said \(result.line ?? "nothing")")
        }
        let steps = results.compactMap { $0.line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        #expect(steps.count == 2 && steps.allSatisfy { $0 > 0 }, "both writers must have stored: \(steps)")
        #expect(observed.problems.isEmpty, "\(observed.problems.prefix(3))")
        let final = cache.load("shared", slot: .active)
        #expect(final.snapshot != nil)
        #expect(Self.problem(with: final) == nil)
        let report = try await cache.inspect()
        #expect(report.quarantined.isEmpty)
        #expect(report.otherFiles.isEmpty, "leftover files: \(report.otherFiles)")
        print(
            "file cache two writers: steps \(steps), \(observed.loads) concurrent loads, all whole; \(results.map { $0.line ?? "" })"
        )
    }

    /// Why `result` is not a snapshot one of the hammer writers stored, or nil when it is.
    private static func problem(with result: CacheLoadResult) -> String? {
        switch result {
        case .miss:
            return nil
        case .unreadable(let error):
            return "unreadable: \(error)"
        case .hit(let snapshot):
            guard let writer = FileCacheFixturePayloads.leadingInteger("writer", in: snapshot.payload),
                let step = FileCacheFixturePayloads.leadingInteger("step", in: snapshot.payload)
            else { return "unrecognised payload" }
            guard snapshot.payload == FileCacheFixturePayloads.hammerPayload(writer: writer, step: step) else {
                return "payload of writer \(writer) step \(step) differs"
            }
            guard snapshot.metadata.contentHash == ContentHash(of: snapshot.payload),
                snapshot.metadata.source == "hammer-\(writer)"
            else { return "metadata of writer \(writer) step \(step) belongs to another payload" }
            return nil
        }
    }

    @Test("a fresh process loads a 1,000-key cached snapshot, decodes it and reads a value")
    func coldStart() async throws {
        let fixture = try #require(
            CacheWriterFixture.executable, "build the CacheWriterFixture product first: swift build --build-tests")
        let directory = try FileCacheTestDirectory()
        defer { directory.remove() }
        let prepare = try ChildProcess(fixture, arguments: ["prepare-cold", directory.url.path, "cold", "1000"])
        let prepared = await prepare.output.line { $0.hasPrefix("stored") }
        #expect(await prepare.finish(deadline: 30, grace: 1).ending == .exited(0), "stderr: \(prepare.errors.text)")
        #expect(prepared != nil)

        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let spawnedAt = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        let load = try ChildProcess(fixture, arguments: ["cold-load", directory.url.path, "cold", "key500", String(spawnedAt)])
        let line = await load.output.line { $0.hasPrefix("value=") }
        #expect(await load.finish(deadline: 30, grace: 1).ending == .exited(0), "stderr: \(load.errors.text)")
        let output = try #require(line)
        // Timing is printed, not asserted: it is measured in release mode separately.
        #expect(output.hasPrefix("value=500 keys=1000 "))
        print("file cache cold start (debug build): \(output)")
    }
}
