import Benchmark
import BenchmarkWorkloads
import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import Targeting
import TargetingFormat
import TestDoubles

/// Targeting: a context change that re-resolves 1,000 keys with 3 rules each, bucketing hashes of
/// 36-character ids, and a read of a key whose value a rule decided (the read path is unchanged).
func registerTargetingBenchmarks() {
    // One context change per iteration, alternating between two contexts so that most keys change value.
    Benchmark(
        "targeting.contextChange.1000keys.3rules",
        configuration: Suite.configuration(scaling: .one, maxDuration: .seconds(2), maxIterations: 2_000)
    ) { benchmark, fixture in
        var changed = 0
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations {
                changed = fixture.client.updateContext { $0 = fixture.nextContext() }.count
            }
        }
        if changed < TargetingFixture.keyCount / 2 {
            benchmark.error("a context change should change most keys, changed \(changed)")
        }
    } setup: {
        try await TargetingFixture.make()
    }

    // One million hashes per iteration (GrowthBook hash version 2, the native dialect's), so the table shows one.
    Benchmark(
        "targeting.bucketing.hashV2.36charIds",
        configuration: Suite.configuration(scaling: .mega, maxDuration: .seconds(2), maxIterations: 100)
    ) { benchmark, ids in
        Suite.measuringCPU(benchmark) {
            var sum = 0.0
            var index = 0
            for _ in benchmark.scaledIterations {
                sum += Bucketing.hash(seed: "checkout-rollout", value: ids[index], version: 2) ?? 0
                index = index == ids.count - 1 ? 0 : index + 1
            }
            blackHole(sum)
        }
    } setup: {
        (0..<1_024).map { UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", $0, $0 &* 7_919))?.uuidString ?? "" }
    }

    Benchmark("read.warm.Bool.targetedKey", configuration: Suite.configuration(scaling: .mega, zeroMallocs: true)) {
        benchmark, fixture in
        let client = fixture.client
        let key = fixture.boolKey
        Suite.measuringCPU(benchmark) { for _ in benchmark.scaledIterations { blackHole(client[key]) } }
    } setup: {
        try await TargetingFixture.make()
    }
}

/// A client holding a targeting payload of 1,000 keys with 3 rules each, and two contexts that
/// give most keys different values.
final class TargetingFixture: Sendable {
    static let keyCount = 1_000

    let client: RemoteConfigClient
    /// A Bool key whose value a rule decides.
    let boolKey = ConfigKey("flag_0", default: false)
    private let flip = Locked(0)

    private init(client: RemoteConfigClient) { self.client = client }

    func nextContext() -> EvaluationContext {
        let next = flip.withLock {
            $0 ^= 1
            return $0
        }
        return TargetingWorkload.contexts[next]
    }

    static func make() async throws -> TargetingFixture {
        let keys: [any ConfigKeyRepresentable] = (0..<keyCount).map { index in
            let name = TargetingWorkload.name(index)
            return TargetingWorkload.isFlag(index) ? ConfigKey(name, default: false) : ConfigKey(name, default: "none")
        }
        let json = TargetingWorkload.json(count: keyCount)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: json))
            .payloadFormat(TargetingJSONFormat())
            .context(EvaluationContext(targetingKey: "u0"))
            .register(keys)
            .build()
        _ = try await client.refresh()
        let fixture = TargetingFixture(client: client)
        client.updateContext { $0 = TargetingWorkload.contexts[0] }
        return fixture
    }
}
