import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A child process for the file cache's integration tests and measurements.
//
//   CacheWriterFixture crash-loop <dir> <name> <first counter>
//       prints "started", then stores snapshots derived from a counter forever (every third
//       one through the pending slot and a promotion, every second one renewed), until killed.
//   CacheWriterFixture hammer <dir> <name> <writer id> <seconds>
//       stores (and every fifth step renews) as fast as it can for <seconds>, then prints
//       "done <count> renewalsRefused=<n>"; any error is printed as "error: …" with exit status 1.
//   CacheWriterFixture prepare-cold <dir> <name> <keys>
//       stores a JSON snapshot of <keys> keys.
//   CacheWriterFixture cold-load <dir> <name> <key> [<spawn time, CLOCK_MONOTONIC ns>]
//       loads the snapshot, decodes it with PlainJSONFormat, reads <key>, and prints the value
//       and the elapsed times (from main and, when given, from the parent's spawn call).
//   CacheWriterFixture measure-writes <dir> <keys>
//       stores a snapshot of <keys> keys, renews it, and prints the bytes each wrote.

/// CLOCK_MONOTONIC in nanoseconds (shared by every process on the machine).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// CPU time of the whole process (every thread) in nanoseconds: unlike wall time, it does not
/// grow when other processes compete for the cores.
func processCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

let mainStart = monotonicNanoseconds()
let mainStartCPU = processCPUNanoseconds()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CacheWriterFixture: \(message)\n".utf8))
    exit(2)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: CacheWriterFixture <mode> <dir> …") }
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)

switch arguments[1] {
case "crash-loop":
    guard arguments.count == 5, let first = Int(arguments[4]) else { fail("crash-loop <dir> <name> <first counter>") }
    let name = arguments[3]
    let cache = FileSnapshotCache(directory: directory)
    say("started")
    var counter = first
    while true {
        let snapshot = CachedSnapshot(payload: crashPayload(counter), metadata: crashMetadata(counter, renewed: false))
        do throws(CacheError) {
            if counter % 3 == 0 {
                try await cache.store(snapshot, as: name, slot: .pending)
                _ = try cache.promotePending(name)
            } else {
                try await cache.store(snapshot, as: name, slot: .active)
            }
            if counter % 2 == 0 {
                try await cache.renew(crashMetadata(counter, renewed: true), for: name)
            }
        } catch {
            fail("step \(counter): \(error)")
        }
        counter += 1
    }

case "hammer":
    guard arguments.count == 6, let writer = Int(arguments[4]), let seconds = Double(arguments[5]) else {
        fail("hammer <dir> <name> <writer id> <seconds>")
    }
    let name = arguments[3]
    let cache = FileSnapshotCache(directory: directory, options: .init(lockTimeout: 10))
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    var step = 0
    var renewalsRefused = 0
    while monotonicNanoseconds() < deadline {
        let payload = hammerPayload(writer: writer, step: step)
        let metadata = SnapshotMetadata(
            fetchedAt: Date(timeIntervalSinceReferenceDate: Double(step)), validators: Validators(etag: "\"w\(writer)-\(step)\""),
            contentHash: ContentHash(of: payload), source: "hammer-\(writer)")
        do throws(CacheError) {
            try await cache.store(CachedSnapshot(payload: payload, metadata: metadata), as: name, slot: .active)
        } catch {
            say("error: store \(step): \(error)")
            exit(1)
        }
        if step % 5 == 4 {
            do throws(CacheError) {
                try await cache.renew(metadata.renewed(at: metadata.fetchedAt + 0.25, validators: .none), for: name)
            } catch {
                // The other writer replaced the payload since this store: the cache refuses to
                // pair this renewal with it. Anything else is a failure.
                guard error.kind == .notFound else {
                    say("error: renew \(step): \(error)")
                    exit(1)
                }
                renewalsRefused += 1
            }
        }
        step += 1
    }
    say("done \(step) renewalsRefused=\(renewalsRefused)")

case "prepare-cold":
    guard arguments.count == 5, let keys = Int(arguments[4]) else { fail("prepare-cold <dir> <name> <keys>") }
    let payload = coldStartPayload(keys: keys)
    let metadata = SnapshotMetadata(
        fetchedAt: Date(), validators: Validators(etag: "\"cold\""), contentHash: ContentHash(of: payload), source: "prepare-cold"
    )
    do throws(CacheError) {
        try await FileSnapshotCache(directory: directory).store(
            CachedSnapshot(payload: payload, metadata: metadata), as: arguments[3], slot: .active)
    } catch {
        fail("\(error)")
    }
    say("stored \(payload.count) bytes")

case "cold-load":
    guard arguments.count >= 5 else { fail("cold-load <dir> <name> <key> [<spawn ns>]") }
    let spawnedAt = arguments.count >= 6 ? UInt64(arguments[5]) : nil
    let cache = FileSnapshotCache(directory: directory)
    let result = cache.load(arguments[3], slot: .active)
    let loaded = monotonicNanoseconds()
    guard case .hit(let snapshot) = result else { fail("expected a cached snapshot, got \(result)") }
    let values: [String: ConfigValue]
    do throws(PayloadError) {
        values = try PlainJSONFormat().decode(snapshot.payload).values
    } catch {
        fail("\(error)")
    }
    guard let value = values[arguments[4]] else { fail("no key \(arguments[4]) among \(values.count)") }
    let end = monotonicNanoseconds()
    let endCPU = processCPUNanoseconds()
    var line =
        "value=\(value) keys=\(values.count) loadMicros=\((loaded - mainStart) / 1_000) mainToReadMicros=\((end - mainStart) / 1_000)"
        + " mainToReadCPUMicros=\((endCPU - mainStartCPU) / 1_000) processCPUMicros=\(endCPU / 1_000)"
    if let spawnedAt { line += " spawnToReadMicros=\((end - spawnedAt) / 1_000)" }
    say(line)

case "measure-writes":
    guard arguments.count == 4, let keys = Int(arguments[3]) else { fail("measure-writes <dir> <keys>") }
    let cache = FileSnapshotCache(directory: directory)
    let payload = coldStartPayload(keys: keys)
    let metadata = SnapshotMetadata(
        fetchedAt: Date(), validators: Validators(etag: "\"W/abc123\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"),
        contentHash: ContentHash(of: payload), source: "https://config.example.com/v1/mobile.json", ttlHint: 300)
    do throws(CacheError) {
        try await cache.store(CachedSnapshot(payload: payload, metadata: metadata), as: "measure", slot: .active)
        let stored = try await cache.inspect()
        try await cache.renew(metadata.renewed(at: Date(), validators: Validators(etag: "\"W/abc124\"")), for: "measure")
        let renewed = try await cache.inspect()
        let storeBytes = stored.configurations.first?.active?.fileSize ?? -1
        let renewBytes = renewed.configurations.first?.renewal?.fileSize ?? -1
        let untouched = renewed.configurations.first?.active?.fileSize == storeBytes
        say("payload=\(payload.count) storeWrote=\(storeBytes) renewWrote=\(renewBytes) payloadFileUnchanged=\(untouched)")
    } catch {
        fail("\(error)")
    }

default:
    fail("unknown mode \(arguments[1])")
}
