import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Keys shared by the client tests. Created once, as an app would.
enum Keys {
    static let flag = ConfigKey("new_checkout", default: false)
    static let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let ratio = ConfigKey("ratio", default: 0.5)
    static let title = ConfigKey("title", default: "Welcome", rules: [.nonEmpty])
    static let a = ConfigKey("a", default: 0)
    static let b = ConfigKey("b", default: 0)

    static var all: [any ConfigKeyRepresentable] { [flag, retries, ratio, title] }
}

/// A fixed epoch so every test starts at the same time.
let epoch = Date(timeIntervalSince1970: 1_700_000_000)

/// A deterministic jitter source: always the given fraction.
func fixedJitter(_ value: Double) -> @Sendable () -> Double { { value } }

extension RemoteConfigBuilder {
    /// The builder every client test starts from: manual clock, one-hour TTL, one-day stale window.
    static func testing(
        fetcher: any ConfigFetcher, clock: ManualClock, cache: (any SnapshotCache)? = nil,
        keys: [any ConfigKeyRepresentable] = Keys.all
    ) -> RemoteConfigBuilder {
        var builder = RemoteConfigClient.builder(fetcher: fetcher)
            .clock(clock)
            .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)))
            .register(keys)
            .jitter(fixedJitter(1.0))
        if let cache { builder = builder.cache(cache) }
        return builder
    }
}

/// A JSON payload for the test keys.
func payload(flag: Bool = true, retries: Int = 5, ratio: Double = 0.25, title: String = "Hello") -> String {
    #"{"new_checkout": \#(flag), "max_retries": \#(retries), "ratio": \#(ratio), "title": "\#(title)"}"#
}

/// A cached snapshot made from JSON text at `fetchedAt`.
func cached(_ json: String, fetchedAt: Date, etag: String? = "\"v1\"") -> CachedSnapshot {
    let bytes = Data(json.utf8)
    return CachedSnapshot(
        payload: bytes,
        metadata: SnapshotMetadata(
            fetchedAt: fetchedAt, validators: Validators(etag: etag), contentHash: ContentHash(of: bytes),
            source: "test-cache"))
}

extension RemoteConfigClient {
    /// Refreshes with a payload whose every value a registered key reads is refused: such a refresh
    /// fails with `ConfigError.rejected`, and the keys keep their last good values.
    func refreshRejectingEveryValue(force: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            let result = try await refresh(force: force)
            Issue.record("expected the refresh to fail with .rejected, got \(result)", sourceLocation: sourceLocation)
        } catch {
            guard case .rejected = error else {
                Issue.record("expected .rejected, got \(error)", sourceLocation: sourceLocation)
                return
            }
        }
    }
}

extension RemoteConfigClient {
    /// Every activation from now on, as the event channel reports it (`ConfigEvent.activated`), in order.
    func activations() -> AsyncCompactMapSequence<AsyncStream<ConfigEvent>, ConfigUpdate> {
        events().compactMap { if case .activated(let update) = $0 { update } else { nil } }
    }
}

extension AsyncStream where Element == ConfigEvent {
    /// How many activations the stream reported until it finished (call it after the client stopped).
    func activationCount() async -> Int {
        var count = 0
        for await event in self { if case .activated = event { count += 1 } }
        return count
    }
}
