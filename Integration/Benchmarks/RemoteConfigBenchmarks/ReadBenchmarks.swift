import Benchmark
import BenchmarkWorkloads
import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig

/// Warm synchronous reads: one million reads per iteration, so the table shows one read.
func registerReadBenchmarks() {
    let reads = Suite.configuration(scaling: .mega, zeroMallocs: true)

    Benchmark("read.warm.Bool", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.boolKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    Benchmark("read.warm.Int", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.intKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    Benchmark("read.warm.Double", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.doubleKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    Benchmark("read.warm.String", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.stringKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    Benchmark("read.warm.enum", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.enumKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    Benchmark("read.warm.decodedStruct", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.structKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    Benchmark("read.Bool.3overrideLayers", configuration: reads) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.boolKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make(overrideLayers: 3)
    }

    Benchmark(
        "read.unregisteredKey.slowPath",
        configuration: Suite.configuration(scaling: .kilo)
    ) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.unregisteredKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await ReadFixture.make()
    }

    // Reads on this thread while another task forces a refresh that activates new values every
    // millisecond (a 100-key payload alternating between two variants).
    let activations = BenchmarkMetric.custom("activations", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark(
        "read.Bool.whileActivatingEvery1ms",
        configuration: Suite.configuration(
            scaling: .mega,
            // The refresher's mallocs (process-wide) vary with the number of activations per iteration.
            extra: [activations: Suite.unchecked, .mallocCountTotal: Suite.unchecked])
    ) { benchmark, fixture in
        let client = fixture.client
        let key = fixture.key
        let before = fixture.activations.current
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
        benchmark.measurement(activations, fixture.activations.current - before)
    } setup: {
        try await ChurnFixture.start()
    } teardown: {
        await ChurnFixture.stopAll()
    }
}

/// A client that a background task refreshes every millisecond, each time with new values.
final class ChurnFixture: Sendable {
    let client: RemoteConfigClient
    let key: ConfigKey<Bool>
    let activations = Counter()
    private let refresher = Locked<Task<Void, Never>?>(nil)

    private static let running = Locked<[ChurnFixture]>([])

    private init(client: RemoteConfigClient, key: ConfigKey<Bool>) {
        self.client = client
        self.key = key
    }

    static func start() async throws -> ChurnFixture {
        let payloads = [Workload.json(count: 100, variant: 0), Workload.json(count: 100, variant: 1)]
        let source = AlternatingPayloads(payloads)
        let keys = Workload.keys(count: 100, rules: false)
        guard let key = keys[50] as? ConfigKey<Bool> else { throw FixtureError("workload key 50 is not a Bool") }
        let client = try RemoteConfigClient.builder(fetcher: source.fetcher).register(keys).build()
        try await client.refresh(force: true)
        let fixture = ChurnFixture(client: client, key: key)
        let counter = fixture.activations
        let task = Task.detached {
            while !Task.isCancelled {
                source.serveNext()
                if case .updated = try? await client.refresh(force: true) { _ = counter.next() }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        fixture.refresher.withLock { $0 = task }
        running.withLock { $0.append(fixture) }
        return fixture
    }

    /// Stops every refresher started by ``start()`` and waits for it to finish.
    static func stopAll() async {
        let fixtures = running.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for fixture in fixtures {
            guard let task = fixture.refresher.withLock({ $0 }) else { continue }
            task.cancel()
            await task.value
        }
    }
}
