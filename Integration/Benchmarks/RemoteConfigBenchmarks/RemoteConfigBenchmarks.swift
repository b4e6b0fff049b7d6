import Benchmark

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
    registerPeerBenchmarks()
    registerColdStartBenchmarks()
}

/// Settings shared by every benchmark.
enum Suite {
    /// The metrics each benchmark records.
    static var metrics: [BenchmarkMetric] { [.wallClock, .cpuTotal, .mallocCountTotal, .throughput] }

    /// `make bench-check` fails on a p90 more than 30% slower, or with more than 10% more mallocs,
    /// than the checked-in thresholds. Where the thresholds hold 0 mallocs, any malloc fails
    /// (a relative tolerance cannot see a change from zero).
    static var timeTolerance: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 30.0]) }

    /// A custom metric that must stay at the value recorded (for example 0 bytes written).
    static var exact: BenchmarkThresholds { BenchmarkThresholds(absolute: [.p90: 0]) }

    /// A custom metric that is reported but not checked.
    static var unchecked: BenchmarkThresholds { BenchmarkThresholds() }

    /// - Parameters:
    ///   - zeroMallocs: the benchmark must not allocate at all.
    ///   - extra: custom metrics to record, with their tolerance.
    static func configuration(
        scaling: BenchmarkScalingFactor, maxDuration: Duration = .seconds(1), maxIterations: Int = 1_000,
        zeroMallocs: Bool = false, extra: [BenchmarkMetric: BenchmarkThresholds] = [:]
    ) -> Benchmark.Configuration {
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .wallClock: timeTolerance,
            .cpuTotal: timeTolerance,
            .throughput: timeTolerance,
            .mallocCountTotal: zeroMallocs
                ? BenchmarkThresholds(relative: [.p90: 10.0], absolute: [.p90: 0])
                : BenchmarkThresholds(relative: [.p90: 10.0]),
        ]
        thresholds.merge(extra) { _, new in new }
        return Benchmark.Configuration(
            metrics: metrics + extra.keys.sorted { $0.description < $1.description },
            timeUnits: .automatic,
            // Custom metrics print as recorded (microseconds, MB/s, counts), not scaled to K or M.
            units: Dictionary(uniqueKeysWithValues: extra.keys.map { ($0, BenchmarkUnits.count) }),
            warmupIterations: 2,
            scalingFactor: scaling,
            maxDuration: maxDuration,
            maxIterations: maxIterations,
            thresholds: thresholds
        )
    }
}
