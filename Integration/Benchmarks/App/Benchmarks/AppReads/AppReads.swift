import AppFlags
import Benchmark
import Foundation
import RemoteConfig
import TestDoubles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A read as an app pays it: through the public API, of a `static let` key declared in another
// module of another package. One million reads per iteration, so the table shows one read.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, cpuTime, .mallocCountTotal, .throughput], scalingFactor: .mega,
        maxDuration: .seconds(3), maxIterations: 1_000)

    Benchmark("app.read.Bool") { benchmark, client in
        measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[Flags.newCheckout]) } }
    } setup: {
        try await makeClient()
    }

    Benchmark("app.read.Int") { benchmark, client in
        measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[Flags.maxRetries]) } }
    } setup: {
        try await makeClient()
    }

    Benchmark("app.read.String") { benchmark, client in
        measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[Flags.welcome]) } }
    } setup: {
        try await makeClient()
    }

    // Two threads reading at once: the table's throughput against app.read.Bool's shows how reads scale.
    Benchmark("app.read.Bool.2threads") { benchmark, client in
        let reads = benchmark.scaledIterations
        measuringCPU(benchmark) {
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                for _ in reads { blackHole(client[Flags.newCheckout]) }
            }
        }
    } setup: {
        try await makeClient()
    }
}

/// A client with the app's keys, refreshed once from an in-memory payload.
func makeClient() async throws -> RemoteConfigClient {
    let fetcher = InMemoryFetcher(json: #"{"new_checkout": true, "max_retries": 5, "welcome_message": "Hello!"}"#)
    let client = try RemoteConfigClient.builder(fetcher: fetcher).register(Flags.all).build()
    try await client.refresh()
    return client
}

/// CPU time of the measured work in nanoseconds, from `clock_gettime` (per read in the table).
var cpuTime: BenchmarkMetric { .custom("CPU time (ns)", polarity: .prefersSmaller, useScalingFactor: true) }

/// Runs `body` and records its CPU time (the process's, so two threads count twice).
func measuringCPU(_ benchmark: Benchmark, _ body: () -> Void) {
    func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
    let start = now()
    benchmark.startMeasurement()
    body()
    benchmark.stopMeasurement()
    benchmark.measurement(cpuTime, now() - start)
}
