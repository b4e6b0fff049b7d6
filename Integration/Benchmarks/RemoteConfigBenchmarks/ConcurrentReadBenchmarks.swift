import Benchmark
import ConfigDomain
import RemoteConfig

/// The same total of reads (one million per iteration) done by 1, 2 and 4 tasks at once.
///
/// Throughput is reads per second over all tasks (wall clock); on this 2-core machine 2 tasks
/// should come close to twice the throughput of 1, and 4 tasks cannot do better than 2. CPU time
/// is the whole process's, per read: it stays flat when the tasks do not contend.
func registerConcurrentReadBenchmarks() {
    for tasks in [1, 2, 4] {
        Benchmark(
            "read.Bool.concurrent.\(tasks)\(tasks == 1 ? "task" : "tasks")",
            configuration: Suite.configuration(scaling: .mega)
        ) { benchmark, fixture in
            let client = fixture.client
            let key = fixture.boolKey
            let total = benchmark.scaledIterations.count
            await Suite.measuringCPU(benchmark, .process) {
                await withTaskGroup(of: Void.self) { group in
                    for task in 0..<tasks {
                        let share = total / tasks + (task < total % tasks ? 1 : 0)
                        group.addTask {
                            for _ in 0..<share { blackHole(client[key]) }
                        }
                    }
                }
            }
        } setup: {
            try await ReadFixture.make()
        }
    }
}
