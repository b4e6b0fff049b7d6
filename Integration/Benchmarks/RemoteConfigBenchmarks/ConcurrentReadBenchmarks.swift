import Benchmark
import BenchmarkWorkloads
import ConfigDomain
import Foundation
import RemoteConfig

/// The same total of reads (16 million per iteration) done by 1, 2 and 4 threads at once.
///
/// `reads/s (M)` is the throughput over all threads (wall clock); on this 2-core machine 2 threads
/// should come close to twice the throughput of 1, and 4 cannot do better than 2. CPU time is the
/// whole process's for the iteration: it stays flat when the readers do not contend.
///
/// The readers take the work in chunks from a shared ``WorkCounter`` rather than a fixed share
/// each: on a shared 2-core machine another process often takes part of one core for a while, and
/// with fixed shares the iteration would then wait for the slowed thread alone.
///
/// Threads, not tasks: package-benchmark 1.38.1 runs an `async` benchmark body by blocking one
/// thread of Swift's cooperative pool on a semaphore (`Benchmark.runAsync`), so on 2 cores a task
/// group inside the runner gets one pool thread and its tasks never run in parallel (measured:
/// process CPU time equal to wall time with 2 tasks). Outside the runner, tasks scale like threads
/// (`ReadProbe scaling 2 tasks`). An iteration is 16 million reads rather than one million because
/// starting the second reader takes a fraction of a millisecond here.
func registerConcurrentReadBenchmarks() {
    let total = 16_000_000
    let readsPerSecond = BenchmarkMetric.custom("reads/s (M)", polarity: .prefersLarger, useScalingFactor: false)
    let nanosecondsPer1000 = BenchmarkMetric.custom("wall ns per 1000 reads", useScalingFactor: false)
    for threads in [1, 2, 4] {
        Benchmark(
            "read.Bool.parallel.\(threads)\(threads == 1 ? "thread" : "threads")",
            configuration: Suite.configuration(
                scaling: .one, maxDuration: .seconds(2), maxIterations: 100,
                extra: [readsPerSecond: Suite.unchecked, nanosecondsPer1000: Suite.unchecked])
        ) { benchmark, fixture in
            let client = fixture.client
            let key = fixture.boolKey
            let work = WorkCounter(total: total)
            let start = Suite.monotonicNanoseconds()
            Suite.measuringCPU(benchmark, .process) {
                let done = DispatchSemaphore(value: 0)
                for _ in 0..<threads {
                    Thread.detachNewThread {
                        while let count = work.take() {
                            for _ in 0..<count { blackHole(client[key]) }
                        }
                        done.signal()
                    }
                }
                for _ in 0..<threads { done.wait() }
            }
            let elapsed = max(1, Suite.monotonicNanoseconds() - start)
            benchmark.measurement(readsPerSecond, total * 1_000 / elapsed)
            benchmark.measurement(nanosecondsPer1000, elapsed * 1_000 / total)
        } setup: {
            try await ReadFixture.make()
        }
    }
}
