import Benchmark
import BenchmarkWorkloads
import Configuration

// The reference peer: apple/swift-configuration 1.4.0, a `ConfigReader` over an `InMemoryProvider`
// holding the same 1,000 keys and values as our read fixture, read in the same run.
//
// This file imports swift-configuration only (its `ConfigKey` and `ConfigValue` would clash with ours).

/// The peer's reader over the workload (variant 0).
struct PeerFixture: Sendable {
    let reader: ConfigReader
    /// The Bool key our `Read warm Bool` benchmark reads, as the peer's key type, built once.
    let boolKey: ConfigKey

    static func make(count: Int) throws -> PeerFixture {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for index in 0..<count {
            let key = AbsoluteConfigKey([Workload.name(index)])
            switch index % 5 {
            case 0: values[key] = ConfigValue(.bool(Workload.boolValue(index, 0)), isSecret: false)
            case 1: values[key] = ConfigValue(.int(Workload.intValue(index, 0)), isSecret: false)
            case 2: values[key] = ConfigValue(.double(Workload.doubleValue(index, 0)), isSecret: false)
            case 3: values[key] = ConfigValue(.string(Workload.stringValue(index, 0)), isSecret: false)
            default: values[key] = ConfigValue(.string(Workload.enumValue(index, 0).rawValue), isSecret: false)
            }
        }
        let fixture = PeerFixture(
            reader: ConfigReader(provider: InMemoryProvider(name: "bench", values: values)),
            boolKey: ConfigKey([Workload.name(500)]))
        guard fixture.reader.bool(forKey: "k00500_b", default: !Workload.boolValue(500, 0)) == Workload.boolValue(500, 0)
        else {
            throw FixtureError("the swift-configuration reader does not see the workload's value of k00500_b")
        }
        return fixture
    }
}

func registerPeerBenchmarks() {
    let configuration = Suite.configuration(scaling: .kilo, extra: Suite.referenceOnly)

    // The usual call: a string key, parsed by the reader on every read.
    Benchmark("peer.swiftConfiguration.readBool.stringKey", configuration: configuration) { benchmark, fixture in
        let reader = fixture.reader
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(reader.bool(forKey: "k00500_b", default: false)) }
        }
    } setup: {
        try PeerFixture.make(count: ReadFixture.keyCount)
    }

    // The same read with a `ConfigKey` built once, outside the loop.
    Benchmark("peer.swiftConfiguration.readBool.prebuiltKey", configuration: configuration) { benchmark, fixture in
        let reader = fixture.reader
        let key = fixture.boolKey
        Suite.measuringCPU(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(reader.bool(forKey: key, default: false)) }
        }
    } setup: {
        try PeerFixture.make(count: ReadFixture.keyCount)
    }
}
