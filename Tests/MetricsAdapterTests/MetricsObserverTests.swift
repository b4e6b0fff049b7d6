import ConfigDomain
import ConfigPorts
import CoreMetrics
import Foundation
import MetricsAdapter
import MetricsTestKit
import RemoteConfig
import TestDoubles
import Testing

/// ``MetricsObserver``: fetch counts, outcomes and durations, refresh outcomes, activations, rejections.
///
/// Each test has its own `TestMetrics` factory, so tests run in parallel without the global `MetricsSystem`.
@Suite("MetricsObserver")
struct MetricsObserverTests {
    static let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let title = ConfigKey("title", default: "Welcome")

    /// The total of counter `label` with `dimensions`, or nil when it was never made.
    static func total(_ metrics: TestMetrics, _ label: String, _ dimensions: [(String, String)] = []) -> Int64? {
        (try? metrics.expectCounter(label, dimensions))?.totalValue
    }

    @Test("fetches: counted by outcome and timed by the client's clock; failed ones counted by kind")
    func fetches() async throws {
        let metrics = TestMetrics()
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        let client = try RemoteConfigClient.builder(fetcher: fetcher).clock(clock)
            .observer(MetricsObserver(factory: metrics)).register(Self.retries).build()
        let error = FetchError(.timeout, retry: .backoff, message: "timed out")
        for (step, seconds) in [
            (ScriptedFetcher.Step.modifiedJSON(#"{"max_retries": 4}"#, etag: "\"v1\""), 1.5),
            (.notModified(Validators(etag: "\"v1\"")), 0.25), (.failure(error), 30),
        ] {
            let hold = fetcher.enqueueHeld(step)
            let refresh = Task { try? await client.refresh(force: true) }
            await hold.waitUntilReached()
            clock.advance(by: seconds)
            hold.release()
            _ = await refresh.value
        }
        await client.stop()
        for outcome in ["modified", "not_modified", "failed"] {
            #expect(Self.total(metrics, "remote_config_fetches_total", [("outcome", outcome)]) == 1, "\(outcome)")
        }
        #expect(try metrics.expectTimer("remote_config_fetch_duration", [("outcome", "modified")]).values == [1_500_000_000])
        #expect(try metrics.expectTimer("remote_config_fetch_duration", [("outcome", "not_modified")]).values == [250_000_000])
        #expect(try metrics.expectTimer("remote_config_fetch_duration", [("outcome", "failed")]).values == [30_000_000_000])
        #expect(Self.total(metrics, "remote_config_fetch_errors_total", [("kind", "timeout")]) == 1)
    }

    @Test("refreshes: counted by outcome, failures by kind")
    func refreshes() async throws {
        let metrics = TestMetrics()
        let fetcher = ScriptedFetcher()
        let client = try RemoteConfigClient.builder(fetcher: fetcher).clock(ManualClock())
            .minimumFetchInterval(60).observer(MetricsObserver(factory: metrics)).register(Self.retries).build()
        fetcher.enqueue([
            .modifiedJSON(#"{"max_retries": 4}"#, etag: "\"v1\""), .notModified(Validators(etag: "\"v1\"")),
            .modifiedJSON("{not json", etag: nil),
        ])
        _ = try await client.refresh()
        _ = try await client.refresh(force: true)
        _ = try? await client.refresh(force: true)
        _ = try await client.refresh()  // within the minimum interval: skipped
        await client.stop()
        for outcome in ["updated", "unchanged", "failed", "skipped"] {
            #expect(Self.total(metrics, "remote_config_refreshes_total", [("outcome", outcome)]) == 1, "\(outcome)")
        }
        #expect(Self.total(metrics, "remote_config_refresh_failures_total", [("kind", "payload")]) == 1)
    }

    @Test("a refresh held for manual activation counts as pending, its activation as an activation")
    func pending() async throws {
        let metrics = TestMetrics()
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: #"{"max_retries": 4, "title": "x"}"#))
            .clock(ManualClock()).activation(.manual).observer(MetricsObserver(factory: metrics))
            .register(Self.retries, Self.title).build()
        _ = try await client.refresh()
        #expect(Self.total(metrics, "remote_config_refreshes_total", [("outcome", "pending")]) == 1)
        #expect(Self.total(metrics, "remote_config_activations_total") == nil)
        await client.activate()
        await client.stop()
        #expect(Self.total(metrics, "remote_config_activations_total") == 1)
        #expect(try metrics.expectRecorder("remote_config_activation_changed_keys").values == [2])
    }

    @Test("rejections are counted by key; activations by count and changed keys")
    func rejectionsAndActivations() async throws {
        let metrics = TestMetrics()
        let fetcher = InMemoryFetcher(json: #"{"max_retries": 99, "title": "x"}"#)
        let client = try RemoteConfigClient.builder(fetcher: fetcher).clock(ManualClock())
            .observer(MetricsObserver(factory: metrics)).register(Self.retries, Self.title).build()
        _ = try await client.refresh()
        fetcher.serve(json: #"{"max_retries": 5, "title": "x"}"#)
        _ = try await client.refresh()
        await client.stop()
        #expect(Self.total(metrics, "remote_config_rejections_total", [("key", "max_retries")]) == 1)
        #expect(Self.total(metrics, "remote_config_activations_total") == 2)
        #expect(try metrics.expectRecorder("remote_config_activation_changed_keys").values == [1, 1])
    }

    @Test("cache outcomes, override problems and key misuses are counted")
    func otherEvents() {
        let metrics = TestMetrics()
        let observer = MetricsObserver(factory: metrics)
        let cacheError = CacheError(.notFound, message: "gone")
        for event: ConfigEvent in [
            .cacheLoaded(name: "main", fetchedAt: Date(), freshness: .fresh), .cacheMiss(name: "main"),
            .cacheUnreadable(cacheError), .cacheWriteFailed(cacheError),
            .overrideProblem(source: "environment", message: "MYAPP_X overrides no key"),
            .mistypedKey(requested: "maxRetries", registered: "max_retries"), .unregisteredKeyRead(name: "x"),
            .keyTypeMismatch(name: "ratio", registeredType: "Double", readType: "Int"),
            .keyDefinitionMismatch(
                name: "ratio", registered: KeyDescriptor(name: "ratio", typeName: "Double", defaultValue: 0.5),
                read: KeyDescriptor(name: "ratio", typeName: "Double", defaultValue: 1.0)),
            .exposure(
                Exposure(
                    key: "new_checkout", variant: nil, value: "true", reason: .targetingMatch, ruleID: "de", targetingKey: "u1")),
            .tracked(TrackedEvent(name: "purchase", context: .empty)),
            .refreshStarted,
        ] {
            observer.receive(event)
        }
        for event in ["loaded", "miss", "unreadable", "write_failed"] {
            #expect(Self.total(metrics, "remote_config_cache_events_total", [("event", event)]) == 1, "\(event)")
        }
        #expect(Self.total(metrics, "remote_config_override_problems_total", [("source", "environment")]) == 1)
        for kind in ["mistyped", "unregistered", "type_mismatch", "definition_mismatch"] {
            #expect(Self.total(metrics, "remote_config_key_misuses_total", [("kind", kind)]) == 1, "\(kind)")
        }
        #expect(
            Self.total(metrics, "remote_config_exposures_total", [("key", "new_checkout"), ("reason", "TARGETING_MATCH")]) == 1)
        #expect(Self.total(metrics, "remote_config_tracked_events_total", [("event", "purchase")]) == 1)
        #expect(metrics.counters.count == 11, "a refresh start alone records nothing: \(metrics.counters.map(\.label))")
    }

    @Test("the label prefix is the caller's; durations out of range are recorded as zero or the largest")
    func prefixAndDurations() throws {
        let metrics = TestMetrics()
        let observer = MetricsObserver(prefix: "flags", factory: metrics)
        observer.receive(.fetched(.modified, duration: -1))
        observer.receive(.fetched(.modified, duration: .nan))
        observer.receive(.fetched(.modified, duration: .infinity))
        observer.receive(.fetched(.modified, duration: 1e300))
        #expect(Self.total(metrics, "flags_fetches_total", [("outcome", "modified")]) == 4)
        #expect(try metrics.expectTimer("flags_fetch_duration", [("outcome", "modified")]).values == [0, 0, .max, .max])
    }
}
