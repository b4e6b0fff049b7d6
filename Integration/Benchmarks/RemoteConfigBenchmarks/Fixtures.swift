import BenchmarkWorkloads
import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles

/// Why a fixture could not be set up; the benchmark run stops with this message.
struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A client holding the 1,000-key workload (variant 0) plus the typed keys the read benchmarks use.
final class ReadFixture: Sendable {
    static let keyCount = 1_000

    let client: RemoteConfigClient
    let fetcher: InMemoryFetcher
    let boolKey: ConfigKey<Bool>
    let intKey: ConfigKey<Int>
    let doubleKey: ConfigKey<Double>
    let stringKey: ConfigKey<String>
    let enumKey: ConfigKey<Mode>
    let structKey: ConfigKey<Banner>
    /// A key that is in the payload but registered with no client (the slow path).
    let unregisteredKey: ConfigKey<Bool>

    private init(client: RemoteConfigClient, fetcher: InMemoryFetcher, keys: [any ConfigKeyRepresentable]) throws {
        self.client = client
        self.fetcher = fetcher
        func key<V>(_ index: Int, as _: V.Type) throws -> ConfigKey<V> {
            guard let key = keys[index] as? ConfigKey<V> else { throw FixtureError("workload key \(index) is not a \(V.self)") }
            return key
        }
        boolKey = try key(500, as: Bool.self)
        intKey = try key(501, as: Int.self)
        doubleKey = try key(502, as: Double.self)
        stringKey = try key(503, as: String.self)
        enumKey = try key(504, as: Mode.self)
        structKey = try key(keys.count - 1, as: Banner.self)
        unregisteredKey = ConfigKey("extra_0", default: false)
    }

    /// Builds the client, activates variant 0 and checks that reads see the payload, not the defaults.
    ///
    /// - Parameter overrideLayers: how many `InMemoryOverrideSource`s to add; each overrides the
    ///   read keys (the first one wins), plus 100 other keys.
    static func make(overrideLayers: Int = 0) async throws -> ReadFixture {
        let fetcher = InMemoryFetcher(payload: Workload.json(count: keyCount, variant: 0))
        let keys = Workload.keys(count: keyCount, rules: false)
        var builder = RemoteConfigClient.builder(fetcher: fetcher).register(keys)
        for layer in 0..<overrideLayers {
            var values: [String: OverrideValue.Content] = [:]
            for index in 400..<505 { values[Workload.name(index)] = .text(overrideText(index, layer: layer)) }
            builder = builder.override(InMemoryOverrideSource(name: "layer\(layer)", values: values))
        }
        let client = try builder.build()
        try await client.refresh(force: true)
        let fixture = try ReadFixture(client: client, fetcher: fetcher, keys: keys)
        try fixture.check(overridden: overrideLayers > 0)
        return fixture
    }

    private static func overrideText(_ index: Int, layer: Int) -> String {
        switch index % 5 {
        case 0: return "true"
        case 1: return String(1_000_000 + layer)
        case 2: return "\(layer).5"
        case 3: return "override-\(layer)"
        default: return Mode.fast.rawValue
        }
    }

    private func check(overridden: Bool) throws {
        let expectedBool = overridden ? true : Workload.boolValue(500, 0)
        let expectedInt = overridden ? 1_000_000 : Workload.intValue(501, 0)
        guard client[boolKey] == expectedBool, client[intKey] == expectedInt,
            client[stringKey] == (overridden ? "override-0" : Workload.stringValue(503, 0)),
            client[structKey] == Workload.banner(0)
        else {
            throw FixtureError("the read fixture does not see the values it should (overridden: \(overridden))")
        }
    }
}

/// An `InMemoryFetcher` that serves a list of payloads in turn, one more with each ``serveNext()``.
final class AlternatingPayloads: Sendable {
    let fetcher: InMemoryFetcher
    let payloads: [Data]
    private let turn = Counter()

    init(_ payloads: [Data]) {
        self.payloads = payloads
        fetcher = InMemoryFetcher(payload: payloads[0])
    }

    /// Serves the next payload (not measured: the fetcher hashes the bytes for its ETag).
    func serveNext() {
        fetcher.serve(payload: payloads[turn.next() % payloads.count])
    }
}

/// A client (with an `InMemoryCache`) whose fetcher serves two variants of the workload in turn,
/// so each forced refresh after ``AlternatingPayloads/serveNext()`` activates new values in every key.
final class RefreshFixture: Sendable {
    let client: RemoteConfigClient
    let source: AlternatingPayloads
    let cache: InMemoryCache
    let keyCount: Int

    private init(client: RemoteConfigClient, source: AlternatingPayloads, cache: InMemoryCache, keyCount: Int) {
        self.client = client
        self.source = source
        self.cache = cache
        self.keyCount = keyCount
    }

    static func make(keyCount: Int, rules: Bool) async throws -> RefreshFixture {
        let source = AlternatingPayloads([
            Workload.json(count: keyCount, variant: 0), Workload.json(count: keyCount, variant: 1),
        ])
        let cache = InMemoryCache()
        let client = try RemoteConfigClient.builder(fetcher: source.fetcher)
            .cache(cache)
            .register(Workload.keys(count: keyCount, rules: rules))
            .build()
        try await client.refresh(force: true)
        return RefreshFixture(client: client, source: source, cache: cache, keyCount: keyCount)
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let value = Locked(0)

    /// Adds one and returns the new value.
    func next() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }

    var current: Int { value.withLock { $0 } }
}
