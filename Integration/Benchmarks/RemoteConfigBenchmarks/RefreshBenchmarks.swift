import Benchmark
import ConfigDomain
import RemoteConfig

/// Forced refreshes: a 200 that is parsed, validated and activated, and a 304 that only renews.
func registerRefreshBenchmarks() {
    for keyCount in [1_000, 10_000] {
        for rules in [false, true] {
            let name = "refresh.200.parseAndActivate.\(keyCount)keys.\(rules ? "withRules" : "noRules")"
            Benchmark(
                name, configuration: Suite.configuration(scaling: .one, maxDuration: .seconds(2), maxIterations: 500)
            ) { benchmark, fixture in
                fixture.source.serveNext()
                benchmark.startMeasurement()
                var result: RefreshResult?
                await Suite.measuringCPU(benchmark) { result = try? await fixture.client.refresh(force: true) }
                benchmark.stopMeasurement()
                guard case .updated(let changed) = result, changed.count >= fixture.keyCount else {
                    benchmark.error("\(name): expected every key to change, got \(String(describing: result))")
                    return
                }
            } setup: {
                try await RefreshFixture.make(keyCount: keyCount, rules: rules)
            }
        }
    }

    // A 304: InMemoryFetcher answers "not modified" because the client sends the ETag it holds.
    // The cache's metadata is renewed; no payload byte may be written.
    let payloadBytes = BenchmarkMetric.custom("payload bytes written", useScalingFactor: false)
    Benchmark(
        "refresh.304.notModified.1000keys",
        configuration: Suite.configuration(
            scaling: .one, maxDuration: .seconds(1), maxIterations: 2_000, extra: [payloadBytes: Suite.exact])
    ) { benchmark, fixture in
        let before = fixture.cache.payloadBytesWritten
        let renewals = fixture.cache.renewCount
        benchmark.startMeasurement()
        var result: RefreshResult?
        await Suite.measuringCPU(benchmark) { result = try? await fixture.client.refresh(force: true) }
        benchmark.stopMeasurement()
        let written = fixture.cache.payloadBytesWritten - before
        benchmark.measurement(payloadBytes, written)
        guard result == .unchanged, written == 0, fixture.cache.renewCount == renewals + 1 else {
            benchmark.error(
                "a 304 refresh must renew the cache without writing the payload; got \(String(describing: result)), \(written) payload bytes written"
            )
            return
        }
    } setup: {
        try await RefreshFixture.make(keyCount: 1_000, rules: false)
    }
}
