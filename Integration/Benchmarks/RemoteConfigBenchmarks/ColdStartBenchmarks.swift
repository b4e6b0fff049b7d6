import Benchmark
import ConfigPorts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// Cold start from the file cache: each iteration spawns a fresh release `ReadProbe` that, on its
/// main thread and without `await`, creates the 1,000 keys of the workload, an `HTTPFetcher`
/// (never called) and a `FileSnapshotCache` (made from its path) seeded with those keys, registers
/// the keys, calls `build()`, reads the first key (it must see the cached value) and exits.
///
/// Wall clock is spawn to exit; CPU time is the child's, from its `main` to the first read.
/// Custom metrics, in microseconds: `spawn to first read` (the parent's clock before
/// `posix_spawn` to the child's clock at the first read), the child's own `main to first read` in
/// wall and in CPU time (CPU time does not grow with other processes' load), and the part of it
/// spent in `build()` (which reads and decodes the cache file).
func registerColdStartBenchmarks() {
    let keys = 1_000
    let spawnToRead = BenchmarkMetric.custom("spawn to first read (us)", useScalingFactor: false)
    let mainToRead = BenchmarkMetric.custom("main to first read (us)", useScalingFactor: false)
    let mainToReadCPU = BenchmarkMetric.custom("main to first read CPU (us)", useScalingFactor: false)
    let buildPart = BenchmarkMetric.custom("of which: build() (us)", useScalingFactor: false)
    Benchmark(
        "coldStart.fileCache.\(keys)keys",
        configuration: Suite.configuration(
            scaling: .one, maxDuration: .seconds(4), maxIterations: 200,
            // The child's CPU time is checked; its wall times move with the machine's load.
            extra: [
                spawnToRead: Suite.unchecked, mainToRead: Suite.unchecked, mainToReadCPU: Suite.timeTolerance,
                buildPart: Suite.unchecked,
            ])
    ) { (benchmark: Benchmark, probe: Probe) in
        let started = Suite.monotonicNanoseconds()
        let result: ProbeRun
        do {
            result = try probe.run(["cold-start", probe.directory, String(keys), String(started)])
        } catch {
            benchmark.error("\(error)")
            return
        }
        benchmark.stopMeasurement()
        guard let spawn = result.field("spawnToReadNs"), let main = result.field("mainToReadNs"),
            let cpu = result.field("mainToReadCPUNs"), let build = result.field("buildNs"),
            result.output.hasPrefix("value=true")
        else {
            benchmark.error("ReadProbe cold-start printed an unexpected line: \(result.output)")
            return
        }
        benchmark.measurement(spawnToRead, spawn / 1_000)
        benchmark.measurement(mainToRead, main / 1_000)
        benchmark.measurement(mainToReadCPU, cpu / 1_000)
        benchmark.measurement(buildPart, build / 1_000)
        benchmark.measurement(Suite.cpuTime, cpu)
    } setup: {
        let probe = try Probe.locate()
        _ = try probe.run(["seed", probe.directory, String(keys)])
        return probe
    } teardown: {
        Probe.removeDirectories()
    }
}

/// What a `ReadProbe` run printed.
struct ProbeRun {
    let output: String

    /// The integer after `name=` in the output.
    func field(_ name: String) -> Int? {
        for part in output.split(whereSeparator: { $0 == " " || $0 == "\n" }) where part.hasPrefix(name + "=") {
            return Int(part.dropFirst(name.count + 1))
        }
        return nil
    }
}

/// The release `ReadProbe` next to this benchmark executable, and a fresh cache directory for it.
struct Probe: Sendable {
    let executable: String
    let directory: String

    private static let directories = Locked<[String]>([])

    static func locate() throws -> Probe {
        let here = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let executable = here.deletingLastPathComponent().appendingPathComponent("ReadProbe").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw FixtureError("no ReadProbe at \(executable); `make bench` builds it first (make bench-probe)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("rc-bench-cold-\(UUID().uuidString)", isDirectory: true).path
        directories.withLock { $0.append(directory) }
        return Probe(executable: executable, directory: directory)
    }

    static func removeDirectories() {
        for directory in directories.withLock({ list in
            defer { list.removeAll() }; return list
        }) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Spawns the probe with `arguments`, waits for it and returns what it printed; throws unless it exits 0.
    ///
    /// The child gets this process's environment without `LD_PRELOAD` / `DYLD_INSERT_LIBRARIES`:
    /// the benchmark runner preloads malloc and Swift-runtime interposers that would slow the child.
    func run(_ arguments: [String]) throws -> ProbeRun {
        var fds: [Int32] = [0, 0]
        guard fds.withUnsafeMutableBufferPointer({ pipe($0.baseAddress) }) == 0 else {
            throw FixtureError("pipe() failed: errno \(errno)")
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
        #else
            var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = Self.childEnvironment.map { strdup($0) }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv + [nil], envp + [nil])
        close(fds[1])
        guard spawned == 0 else {
            close(fds[0])
            throw FixtureError("posix_spawn \(executable) failed: \(spawned)")
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(fds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0 else {
            throw FixtureError("ReadProbe \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
        return ProbeRun(output: text)
    }

    private static let childEnvironment: [String] = ProcessInfo.processInfo.environment
        .filter { $0.key != "LD_PRELOAD" && $0.key != "DYLD_INSERT_LIBRARIES" }
        .map { "\($0.key)=\($0.value)" }
}
