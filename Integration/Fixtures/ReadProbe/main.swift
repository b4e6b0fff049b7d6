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
//   ReadProbe seed <dir> <keys>
//       Stores a snapshot of the benchmarks' Workload in a FileSnapshotCache at <dir>, as the
//       configuration "default": <keys> keys (Bool, Int, Double, String and enum in turn), a
//       `banner` object and 8 keys no client registers.
//   ReadProbe cold-start <dir> <keys> [<spawn time, CLOCK_MONOTONIC ns>]
//       What an app does at launch: creates the same keys (and `banner`), an HTTPFetcher and the
//       FileSnapshotCache at the path <dir> (named by its path, as a server or a tool has it: no
//       `URL` is made for it), registers the keys, builds a client, and reads the first key,
//       which must come from the cache. Prints `value=… mainToReadNs=… mainToReadCPUNs=… faults=…
//       startNs=… hopNs=… keysNs=… adaptersNs=… registerNs=… buildNs=… spawnToReadNs=…` (faults:
//       the process's minor page faults from main to the read, all threads; startNs: main to
//       this work, reading the arguments and the first hop onto a
//       thread of Swift's global executor, which hopNs times alone; keysNs: creating the keys;
//       adaptersNs: the fetcher and the cache; registerNs: the builder and `register`; buildNs:
//       `build()`; spawnToReadNs only when the spawn time is given) and exits.
//   ReadProbe cold-start-sync <dir> <keys> [<spawn time, CLOCK_MONOTONIC ns>]
//       The same with `buildSynchronously()`, called on the main thread: nothing waits for another
//       thread before the first read, so there is no hopNs, and buildNs includes reading the cache file.
//   ReadProbe cold-repeat <dir> <keys> <rounds>
//       The cold-start work <rounds> times in one process (one line each): its steady-state cost,
//       without the process's first-use costs, for profilers.
//   ReadProbe format-decode <firebase|plain|template-parse|workload> <parameters> [rounds]
//       Decodes a Firebase template of <parameters> parameters (types mixed, some grouped, some
//       with conditional values), or the plain JSON object of the same values, <rounds> times
//       (default 2000); prints the median and the CPU time per decode. `template-parse` times
//       only the template's JSON parse, the floor of the Firebase decode; `workload` decodes the
//       payload the cold start reads from its cache (the benchmarks' Workload). For profilers too.
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

/// Minor page faults of the whole process so far: each first touch of a page of new memory (or of
/// code not yet mapped) is one, and on this machine one costs 3–5 µs, a large part of a cold start.
func minorPageFaults() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Int(usage.ru_minflt)
}

let mainStart = monotonicNanoseconds()
let mainStartCPU = processCPUNanoseconds()
let mainStartFaults = minorPageFaults()

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
        client = try await RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: json)).register(keys).build()
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
    let view = client.snapshot()
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
        client = try await RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: #"{"flag": true}"#)).register(flag).build()
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
        client = try await RemoteConfigClient.builder(fetcher: fetcher).cache(InMemoryCache())
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

// MARK: seed and cold-start

func seed(directory: URL, keys: Int) async {
    let payload = Workload.json(count: keys, variant: 0)
    let metadata = SnapshotMetadata(
        fetchedAt: Date(), validators: Validators(etag: "\"cold-\(keys)\""), contentHash: ContentHash(of: payload),
        source: "ReadProbe seed")
    do throws(CacheError) {
        try await FileSnapshotCache(directory: directory).store(
            CachedSnapshot(payload: payload, metadata: metadata), as: "default", slot: .active)
    } catch {
        fail("could not seed \(directory.path): \(error)")
    }
    print("seeded \(keys) keys, \(payload.count) bytes")
}

/// What a cold start makes before it builds: the keys, the two adapters an app hands the builder
/// (its HTTP fetcher, never called here, and its file cache) and the builder with the keys, with
/// the time each part was done.
struct ColdStartSetup {
    let entered: UInt64
    let keys: [any ConfigKeyRepresentable]
    let first: ConfigKey<Bool>
    let builder: RemoteConfigBuilder
    let keysMade: UInt64
    let adaptersMade: UInt64
    let registered: UInt64

    init(directory: String, keys count: Int) {
        entered = monotonicNanoseconds()
        keys = Workload.keys(count: count, rules: false)
        guard let first = keys.first as? ConfigKey<Bool> else { fail("the first cold-start key is not a Bool") }
        self.first = first
        keysMade = monotonicNanoseconds()
        guard let endpoint = URL(string: "https://config.example.com/v1/config.json") else { fail("bad endpoint URL") }
        let fetcher: HTTPFetcher
        do {
            fetcher = try HTTPFetcher(url: endpoint)
        } catch {
            fail("could not make the fetcher: \(error)")
        }
        let cache = FileSnapshotCache(directoryPath: directory)
        adaptersMade = monotonicNanoseconds()
        builder = RemoteConfigClient.builder(fetcher: fetcher).cache(cache).register(keys)
        registered = monotonicNanoseconds()
    }

    /// Reads the first key of `client`, built at `built`, and prints the line the benchmark parses.
    func finish(_ client: RemoteConfigClient, built: UInt64, spawnedAt: UInt64?, calledAt: UInt64?) {
        let value = client[first]
        let end = monotonicNanoseconds()
        let endCPU = processCPUNanoseconds()
        let endFaults = minorPageFaults()
        // The cached value of k00000_b is true, its default false: false means the cache was not used.
        guard value, client.registeredKeys.count == keys.count else {
            fail("the first read did not see the cached value (cache: \(client.status.cache))")
        }
        var line = "value=\(value) mainToReadNs=\(end - mainStart) mainToReadCPUNs=\(endCPU - mainStartCPU)"
        line += " faults=\(endFaults - mainStartFaults) startNs=\(entered - mainStart)"
        if let calledAt { line += " hopNs=\(entered - calledAt)" }
        line += " keysNs=\(keysMade - entered) adaptersNs=\(adaptersMade - keysMade)"
        line += " registerNs=\(registered - adaptersMade) buildNs=\(built - registered)"
        if let spawnedAt { line += " spawnToReadNs=\(end &- spawnedAt)" }
        print(line)
    }
}

/// The cold start with `build()`.
///
/// - Parameter calledAt: when the caller, on the main actor, called this (nonisolated) function:
///   the hop onto the global executor in between is the process's first, which starts its threads.
func coldStart(directory: String, keys count: Int, spawnedAt: UInt64?, calledAt: UInt64? = nil) async {
    let setup = ColdStartSetup(directory: directory, keys: count)
    let client: RemoteConfigClient
    do {
        client = try await setup.builder.build()
    } catch {
        fail("could not build the client: \(error)")
    }
    setup.finish(client, built: monotonicNanoseconds(), spawnedAt: spawnedAt, calledAt: calledAt)
}

/// The cold start with `buildSynchronously()`, on the main thread: nothing waits for another thread before the first read.
func coldStartSynchronously(directory: String, keys count: Int, spawnedAt: UInt64?) {
    let setup = ColdStartSetup(directory: directory, keys: count)
    let client: RemoteConfigClient
    do {
        client = try setup.builder.buildSynchronously()
    } catch {
        fail("could not build the client: \(error)")
    }
    setup.finish(client, built: monotonicNanoseconds(), spawnedAt: spawnedAt, calledAt: nil)
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
case "cold-repeat":
    guard arguments.count == 5, let keys = Int(arguments[3]), keys > 0, let rounds = Int(arguments[4]) else {
        fail("usage: ReadProbe cold-repeat <dir> <keys> <rounds>")
    }
    for _ in 0..<rounds {
        await coldStart(directory: arguments[2], keys: keys, spawnedAt: nil)
    }
case "format-decode":
    guard arguments.count >= 4, let parameters = Int(arguments[3]), parameters > 0 else {
        fail("usage: ReadProbe format-decode <firebase|plain|template-parse|workload> <parameters> [rounds]")
    }
    let rounds = arguments.count > 4 ? Int(arguments[4]) ?? 2_000 : 2_000
    formatDecodeTimer(format: arguments[2], parameters: parameters, rounds: max(rounds, 1))
case "seed":
    guard arguments.count == 4, let keys = Int(arguments[3]), keys > 0 else { fail("usage: ReadProbe seed <dir> <keys>") }
    await seed(directory: URL(fileURLWithPath: arguments[2], isDirectory: true), keys: keys)
case "cold-start-sync":
    guard arguments.count >= 4, let keys = Int(arguments[3]), keys > 0 else {
        fail("usage: ReadProbe cold-start-sync <dir> <keys> [<spawn ns>]")
    }
    let spawnedAt = arguments.count > 4 ? UInt64(arguments[4]) : nil
    coldStartSynchronously(
        directory: arguments[2], keys: keys, spawnedAt: spawnedAt)
case "cold-start":
    guard arguments.count >= 4, let keys = Int(arguments[3]), keys > 0 else {
        fail("usage: ReadProbe cold-start <dir> <keys> [<spawn ns>]")
    }
    let spawnedAt = arguments.count > 4 ? UInt64(arguments[4]) : nil
    let directory = arguments[2]
    await coldStart(directory: directory, keys: keys, spawnedAt: spawnedAt, calledAt: monotonicNanoseconds())
default:
    fail(
        "usage: ReadProbe read-timer [reads] | scaling <threads> [threads|tasks] [reads] | seed <dir> <keys>"
            + " | refresh <keys> [rounds] [rules] | cold-start <dir> <keys> [<spawn ns>]"
            + " | cold-start-sync <dir> <keys> [<spawn ns>] | cold-repeat <dir> <keys> <rounds> | format-decode <firebase|plain|template-parse|workload> <parameters> [rounds]"
    )
}
