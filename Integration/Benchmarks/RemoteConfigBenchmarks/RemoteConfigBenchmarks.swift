import Benchmark

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

// The RemoteConfig benchmark suite: `make bench` runs it, `make bench-check` checks it against the
// thresholds in Integration/Benchmarks/Thresholds (`make bench-baseline` rewrites them).
//
// Every benchmark records wall clock, CPU time, malloc count and throughput. Fast operations run
// an inner loop (`scalingFactor`), so the table shows the cost of one operation.
//
// Names contain no space and no `/`: each names a thresholds file, and package-benchmark 1.38.1
// writes those with spaces turned into `_` but looks them up with the spaces, so a name with a
// space would silently go unchecked.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Suite.configuration(scaling: .one)

    registerReadBenchmarks()
    registerConcurrentReadBenchmarks()
    registerRefreshBenchmarks()
    registerParserBenchmarks()
    registerFormatBenchmarks()
    registerPeerBenchmarks()
    registerColdStartBenchmarks()
    registerTargetingBenchmarks()
    registerServerBenchmarks()
}

/// Settings shared by every benchmark.
enum Suite {
    /// CPU time of the measured work in nanoseconds, from `clock_gettime` (the table shows it per
    /// operation). Unlike wall clock it hardly moves when other processes load the machine, and
    /// unlike package-benchmark's `cpuTotal` (10 ms clock ticks on Linux) it resolves a single read.
    static var cpuTime: BenchmarkMetric { .custom("CPU time (ns)", polarity: .prefersSmaller, useScalingFactor: true) }

    /// The metrics each benchmark records.
    static var metrics: [BenchmarkMetric] { [.wallClock, cpuTime, .mallocCountTotal, .throughput] }

    /// `make bench-check` fails when the p90 CPU time (or a timed custom metric) is more than 30%
    /// above the checked-in threshold, or the p90 malloc count more than 10% above it.
    static var timeTolerance: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 30.0]) }

    /// A custom metric that must stay at the value recorded (for example 0 bytes written).
    static var exact: BenchmarkThresholds { BenchmarkThresholds(absolute: [.p90: 0]) }

    /// A metric that is reported but not checked.
    static var unchecked: BenchmarkThresholds { BenchmarkThresholds() }

    /// For reference benchmarks of other code (the peer, Foundation's parsers): reported, never
    /// checked, since no change of ours can move them and their microsecond-scale, allocation-heavy
    /// work swings by 2x in CPU time with other processes' cache pressure on this shared machine.
    static var referenceOnly: [BenchmarkMetric: BenchmarkThresholds] { [cpuTime: unchecked, .mallocCountTotal: unchecked] }

    /// - Parameters:
    ///   - zeroMallocs: the measured work must not allocate: any malloc above the threshold fails
    ///     (a relative tolerance cannot see a change from zero; the threshold holds the runner's
    ///     own constant 16 mallocs per iteration).
    ///   - extra: custom metrics to record, with their tolerance, or a different tolerance for a standard one.
    static func configuration(
        scaling: BenchmarkScalingFactor, maxDuration: Duration = .seconds(1), maxIterations: Int = 1_000,
        zeroMallocs: Bool = false, extra: [BenchmarkMetric: BenchmarkThresholds] = [:]
    ) -> Benchmark.Configuration {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            cpuTime: timeTolerance,
            // Wall clock and throughput are reported, not checked: on a shared machine their p90
            // moves by 100-200% with other processes' load (measured while other builds ran),
            // which would make every check fail.
            .wallClock: unchecked,
            .throughput: unchecked,
            .mallocCountTotal: zeroMallocs
                ? BenchmarkThresholds(relative: [.p90: 10.0], absolute: [.p90: 0])
                : BenchmarkThresholds(relative: [.p90: 10.0]),
        ]
        thresholds.merge(extra) { _, new in new }
        let added = extra.keys.filter { !metrics.contains($0) }.sorted { $0.description < $1.description }
        return Benchmark.Configuration(
            metrics: metrics + added,
            timeUnits: .automatic,
            // Custom metrics other than CPU time print as recorded (microseconds, MB/s, counts).
            units: Dictionary(uniqueKeysWithValues: added.map { ($0, BenchmarkUnits.count) }),
            warmupIterations: 2,
            scalingFactor: scaling,
            maxDuration: maxDuration,
            maxIterations: maxIterations,
            thresholds: thresholds
        )
    }

    /// Payload bytes over the CPU time of one parse or decode, in MB/s (reported, not checked: its
    /// p90 is the fast tail; the CPU time of the same work is checked).
    static var megabytesPerSecond: BenchmarkMetric {
        .custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)
    }

    /// Records the thread's CPU time since `start` (a ``CPUClock/thread`` reading) for work on
    /// `byteCount` bytes, and the MB/s it makes.
    static func recordThroughput(_ benchmark: Benchmark, byteCount: Int, since start: Int) {
        let elapsed = max(1, CPUClock.thread.nanoseconds - start)
        benchmark.measurement(cpuTime, elapsed)
        benchmark.measurement(megabytesPerSecond, Int(Double(byteCount) * 1_000 / Double(elapsed)))
    }

    /// Which CPU clock a benchmark reads: its own thread's, or the whole process's (work spread
    /// over tasks, or done on other threads, such as a refresh).
    enum CPUClock {
        case thread, process

        var id: clockid_t { self == .thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID }

        var nanoseconds: Int {
            var now = timespec()
            clock_gettime(id, &now)
            return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
        }
    }

    /// CLOCK_MONOTONIC in nanoseconds (the same clock in every process of the machine).
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1_000_000_000 + Int(now.tv_nsec)
    }

    /// Runs `body` and records its CPU time as ``cpuTime``.
    static func measuringCPU(_ benchmark: Benchmark, _ clock: CPUClock = .thread, _ body: () -> Void) {
        let start = clock.nanoseconds
        body()
        benchmark.measurement(cpuTime, clock.nanoseconds - start)
    }

    /// Runs `body` and records its CPU time as ``cpuTime``.
    static func measuringCPU(_ benchmark: Benchmark, _ clock: CPUClock = .process, _ body: () async -> Void) async {
        let start = clock.nanoseconds
        await body()
        benchmark.measurement(cpuTime, clock.nanoseconds - start)
    }
}
