// ReadProbe: a tiny release-mode process for the measurements that need a process of their own.
//
//   ReadProbe read-timer [reads-per-batch]
//       Times warm synchronous reads of each primitive type (median of 31 batches) and prints
//       one line per type: `<type> <median ns per read>`.
//   ReadProbe scaling <threads> [threads|tasks] [total reads]
//       Reads one Bool from <threads> threads (or tasks of a task group) at once, 20 million reads
//       in all by default, taken in chunks from a shared counter, and prints the median wall time
//       per read over 11 rounds.
//   ReadProbe refresh <keys> [rounds] [rules]
//       Forced refreshes that each activate a new 200 payload of <keys> keys (two variants in turn),
//       timed in process; prints the median and the CPU time per refresh. Serves profilers
//       (`perf record`) as well as a quick look; `rules` gives every key one rule.
//   ReadProbe context <keys> [rounds]
//       Context changes on a client holding the benchmarks' targeting payload (<keys> keys with
//       three rules each), alternating between two contexts so that most keys change value; prints
//       the median and the CPU time per change. For profilers, like `refresh`.
//   ReadProbe seed <dir> <keys>
//       Stores a snapshot of the benchmarks' Workload in a FileSnapshotCache at <dir>, as the
//       configuration "default": <keys> keys (Bool, Int, Double, String and enum in turn), a
//       `banner` object and 8 keys no client registers.
//   ReadProbe cold-start <dir> <keys> [<spawn time, CLOCK_MONOTONIC ns>]
//       What an app does at launch, on the main thread and without `await`: creates the same keys
//       (and `banner`), an HTTPFetcher (never called) and the FileSnapshotCache at the path <dir>,
//       registers the keys, calls `build()` and reads the first key, which must come from the
//       cache. Prints `value=true mainToReadNs=… mainToReadCPUNs=… buildNs=…` (and
//       `spawnToReadNs=…` when the spawn time is given) and exits.
//   ReadProbe memory-seed <dir> <keys>
//       Stores, as the configuration "default" of a FileSnapshotCache at <dir>, a payload of
//       <keys> values of mixed types (Bool, Int, Double and String in turn, named `key_0`, …).
//   ReadProbe memory <dir> <keys>
//       Registers <keys> keys matching `memory-seed`'s payload, builds a client whose cache is a
//       FileSnapshotCache at <dir>, reads one key (it must come from the cache) and exits. Prints
//       `keys=… payloadBytes=… value=true maxRSSKiB=…`. Run it under `/usr/bin/time -v` with 10
//       and with 10,000 keys: the difference of the peak RSS is what the keys and values cost.
//
// Build it in release (`swift build -c release --product ReadProbe`): a debug build measures the
// debug build.
import BenchmarkWorkloads
import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig
import TargetingFormat
import TestDoubles

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Monotonic nanoseconds (the same clock in every process of the machine).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// CPU time of the whole process (every thread): unlike wall time, other processes' load does not inflate it.
func processCPUNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

let mainStart = monotonicNanoseconds()
let mainStartCPU = processCPUNanoseconds()

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ReadProbe: \(message)\n".utf8))
    exit(2)
}

// MARK: read-timer

func medianNanoseconds(batches: Int, reads: Int, _ body: (Int) -> Void) -> Double {
    var samples: [Double] = []
    samples.reserveCapacity(batches)
    body(reads)  // warm up
    for _ in 0..<batches {
        let start = monotonicNanoseconds()
        body(reads)
        samples.append(Double(monotonicNanoseconds() - start) / Double(reads))
    }
    samples.sort()
    return samples[samples.count / 2]
}

func readTimer(readsPerBatch: Int) async {
    let flag = ConfigKey("flag", default: false)
    let limit = ConfigKey("limit", default: 0)
    let ratio = ConfigKey("ratio", default: 0.0)
    let title = ConfigKey("title", default: "")
    var keys: [any ConfigKeyRepresentable] = [flag, limit, ratio, title]
    var json = #"{"flag": true, "limit": 42, "ratio": 0.5, "title": "hello""#
    for index in 0..<1_000 {
        keys.append(ConfigKey("filler_\(index)", default: index))
        json += #", "filler_\#(index)": \#(index + 1)"#
    }
    json += "}"
    let client: RemoteConfigClient
    do {
        client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: json)).register(keys).build()
        try await client.refresh(force: true)
    } catch {
        fail("could not build the client: \(error)")
    }
    guard client[flag], client[limit] == 42, client[title] == "hello" else { fail("the client does not see the payload") }

    let batches = 31
    let bool = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var hits = 0
        for _ in 0..<n where client[flag] { hits &+= 1 }
        consume(hits)
    }
    let int = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var sum = 0
        for _ in 0..<n { sum &+= client[limit] }
        consume(sum)
    }
    let double = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var sum = 0.0
        for _ in 0..<n { sum += client[ratio] }
        consume(sum)
    }
    let string = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var count = 0
        for _ in 0..<n { count &+= client[title].utf8.count }
        consume(count)
    }
    let view = client.view()
    let viewBool = medianNanoseconds(batches: batches, reads: readsPerBatch) { n in
        var hits = 0
        for _ in 0..<n where view[flag] { hits &+= 1 }
        consume(hits)
    }
    print("Bool \(String(format: "%.2f", bool))")
    print("Bool(ConfigView) \(String(format: "%.2f", viewBool))")
    print("Int \(String(format: "%.2f", int))")
    print("Double \(String(format: "%.2f", double))")
    print("String \(String(format: "%.2f", string))")
}

// MARK: scaling

/// Reads from `threads` threads (or tasks) at once, `reads` reads in all, and prints the wall time per read.
///
/// The readers take chunks of 65,536 reads from a shared counter instead of a fixed share each,
/// so when another process takes part of a core for a while the other reader does more of the
/// work, and the wall time measures the readers' combined throughput rather than the slowest one.
func scaling(threads: Int, reads: Int, useTasks: Bool) async {
    let flag = ConfigKey("flag", default: false)
    let client: RemoteConfigClient
    do {
        client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: #"{"flag": true}"#)).register(flag).build()
        try await client.refresh(force: true)
    } catch {
        fail("could not build the client: \(error)")
    }
    @Sendable func read(_ work: WorkCounter) {
        var hits = 0
        while let count = work.take() {
            for _ in 0..<count where client[flag] { hits &+= 1 }
        }
        consume(hits)
    }
    var samples: [Double] = []
    for _ in 0..<11 {
        let work = WorkCounter(total: reads)
        let start = monotonicNanoseconds()
        if useTasks {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<threads { group.addTask { read(work) } }
            }
        } else {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in read(work) }
        }
        samples.append(Double(monotonicNanoseconds() - start) / Double(reads))
    }
    samples.sort()
    let median = samples[samples.count / 2]
    print(
        "\(useTasks ? "tasks" : "threads")=\(threads) nsPerRead=\(String(format: "%.2f", median))"
            + " readsPerSecond=\(String(format: "%.0f", 1e9 / median))")
}

// MARK: refresh

func refreshTimer(keys count: Int, rounds: Int, rules: Bool) async {
    let payloads = [0, 1].map { variant in Workload.json(count: count, variant: variant) }
    let fetcher = InMemoryFetcher(payload: payloads[0])
    let client: RemoteConfigClient
    do {
        client = try RemoteConfigClient.builder(fetcher: fetcher).cache(InMemoryCache())
            .register(Workload.keys(count: count, rules: rules)).build()
        try await client.refresh(force: true)
    } catch {
        fail("could not build the client: \(error)")
    }
    var samples: [Double] = []
    let startCPU = processCPUNanoseconds()
    for round in 0..<rounds {
        fetcher.serve(payload: payloads[(round + 1) % 2])
        let start = monotonicNanoseconds()
        let result = try? await client.refresh(force: true)
        samples.append(Double(monotonicNanoseconds() - start) / 1_000)
        guard case .updated(let changed) = result, changed.count >= count else {
            fail("refresh \(round) did not change every key: \(String(describing: result))")
        }
    }
    let cpu = Double(processCPUNanoseconds() - startCPU) / 1_000 / Double(max(rounds, 1))
    samples.sort()
    print(
        "keys=\(count) rules=\(rules) rounds=\(rounds) medianUs=\(String(format: "%.1f", samples[samples.count / 2]))"
            + " cpuUsPerRefresh=\(String(format: "%.1f", cpu))")
}

/// Times `rounds` context changes over `count` targeted keys (see `TargetingWorkload`).
func contextTimer(keys count: Int, rounds: Int) async {
    let keys: [any ConfigKeyRepresentable] = (0..<count).map { index in
        let name = TargetingWorkload.name(index)
        return TargetingWorkload.isFlag(index) ? ConfigKey(name, default: false) : ConfigKey(name, default: "none")
    }
    let client: RemoteConfigClient
    do {
        client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: TargetingWorkload.json(count: count)))
            .payloadFormat(TargetingJSONFormat()).register(keys).build()
        try await client.refresh(force: true)
    } catch {
        fail("could not build the client: \(error)")
    }
    client.updateContext { $0 = TargetingWorkload.contexts[0] }
    var samples: [Double] = []
    let startCPU = processCPUNanoseconds()
    for round in 0..<rounds {
        let start = monotonicNanoseconds()
        let changed = client.updateContext { $0 = TargetingWorkload.contexts[(round + 1) % 2] }.count
        samples.append(Double(monotonicNanoseconds() - start) / 1_000)
        guard changed >= count / 2 else { fail("context change \(round) changed only \(changed) keys") }
    }
    let cpu = Double(processCPUNanoseconds() - startCPU) / 1_000 / Double(max(rounds, 1))
    samples.sort()
    print(
        "keys=\(count) rounds=\(rounds) medianUs=\(String(format: "%.1f", samples[samples.count / 2]))"
            + " cpuUsPerChange=\(String(format: "%.1f", cpu))")
}

// MARK: seed and cold-start

/// Stores `payload` in a FileSnapshotCache at `directory` as the active snapshot of "default".
func store(_ payload: Data, in directory: String, etag: String) async {
    let metadata = SnapshotMetadata(
        fetchedAt: Date(), validators: Validators(etag: etag), contentHash: ContentHash(of: payload),
        source: "ReadProbe seed")
    do throws(CacheError) {
        try await FileSnapshotCache(directoryPath: directory).store(
            CachedSnapshot(payload: payload, metadata: metadata), as: "default", slot: .active)
    } catch {
        fail("could not seed \(directory): \(error)")
    }
}

func seed(directory: String, keys: Int) async {
    let payload = Workload.json(count: keys, variant: 0)
    await store(payload, in: directory, etag: "\"cold-\(keys)\"")
    print("seeded \(keys) keys, \(payload.count) bytes")
}

/// The cold start: what an app does at launch, on the main thread, with no `await` before the first read.
///
/// The `HTTPFetcher` is never called; the cache is named by its path, as a server or a tool has it
/// (no `URL` is parsed for it).
func coldStart(directory: String, keys count: Int, spawnedAt: UInt64?) {
    let keys = Workload.keys(count: count, rules: false)
    guard let first = keys.first as? ConfigKey<Bool> else { fail("the first cold-start key is not a Bool") }
    guard let endpoint = URL(string: "https://config.example.com/v1/config.json") else { fail("bad endpoint URL") }
    let fetcher: HTTPFetcher
    do {
        fetcher = try HTTPFetcher(url: endpoint)
    } catch {
        fail("could not make the fetcher: \(error)")
    }
    let builder = RemoteConfigClient.builder(fetcher: fetcher)
        .cache(FileSnapshotCache(directoryPath: directory))
        .register(keys)
    let buildStart = monotonicNanoseconds()
    let client: RemoteConfigClient
    do {
        client = try builder.build()
    } catch {
        fail("could not build the client: \(error)")
    }
    let built = monotonicNanoseconds()
    let value = client[first]
    let end = monotonicNanoseconds()
    let endCPU = processCPUNanoseconds()
    // The cached value of k00000_b is true, its default false: false means the cache was not used.
    guard value, client.status.registeredKeys.count == keys.count else {
        fail("the first read did not see the cached value (cache: \(client.status.cache))")
    }
    var line = "value=\(value) mainToReadNs=\(end - mainStart) mainToReadCPUNs=\(endCPU - mainStartCPU)"
    line += " buildNs=\(built - buildStart)"
    if let spawnedAt { line += " spawnToReadNs=\(end &- spawnedAt)" }
    print(line)
}

// MARK: main

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "read-timer":
    let reads = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
    await readTimer(readsPerBatch: reads)
case "scaling":
    let threads = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
    let useTasks = arguments.count > 3 && arguments[3] == "tasks"
    let reads = arguments.count > 4 ? Int(arguments[4]) ?? 20_000_000 : 20_000_000
    await scaling(threads: threads, reads: reads, useTasks: useTasks)
case "refresh":
    guard arguments.count >= 3, let keys = Int(arguments[2]), keys > 0 else {
        fail("usage: ReadProbe refresh <keys> [rounds] [rules]")
    }
    let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 200 : 200
    await refreshTimer(keys: keys, rounds: rounds, rules: arguments.count > 4 && arguments[4] == "rules")
case "context":
    guard arguments.count >= 3, let keys = Int(arguments[2]), keys > 0 else { fail("usage: ReadProbe context <keys> [rounds]") }
    await contextTimer(keys: keys, rounds: arguments.count > 3 ? Int(arguments[3]) ?? 500 : 500)
case "seed":
    guard arguments.count == 4, let keys = Int(arguments[3]), keys > 0 else { fail("usage: ReadProbe seed <dir> <keys>") }
    await seed(directory: arguments[2], keys: keys)
case "cold-start":
    guard arguments.count >= 4, let keys = Int(arguments[3]), keys > 0 else {
        fail("usage: ReadProbe cold-start <dir> <keys> [<spawn ns>]")
    }
    coldStart(directory: arguments[2], keys: keys, spawnedAt: arguments.count > 4 ? UInt64(arguments[4]) : nil)
case "memory-seed":
    guard arguments.count == 4, let keys = Int(arguments[3]), keys > 0 else {
        fail("usage: ReadProbe memory-seed <dir> <keys>")
    }
    let payload = MemoryWorkload.json(count: keys)
    await store(payload, in: arguments[2], etag: MemoryWorkload.etag(count: keys))
    print("seeded \(keys) keys, \(payload.count) bytes")
case "memory":
    guard arguments.count == 4, let keys = Int(arguments[3]), keys > 0 else { fail("usage: ReadProbe memory <dir> <keys>") }
    memory(directory: arguments[2], keys: keys)
default:
    fail(
        "usage: ReadProbe read-timer [reads] | scaling <threads> [threads|tasks] [reads] | refresh <keys> [rounds] [rules]"
            + " | context <keys> [rounds] | seed <dir> <keys> | cold-start <dir> <keys> [<spawn ns>] | memory-seed <dir> <keys> | memory <dir> <keys>"
    )
}
