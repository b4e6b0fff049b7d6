import ConfigDomain
import ConfigPorts
import CoreMetrics
import Foundation

/// Counts and times what a client does, through swift-metrics.
///
/// ```swift
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .observer(MetricsObserver())  // uses MetricsSystem.factory, bootstrapped by the app
///     .build()
/// ```
///
/// The metrics, each label starting with `prefix` (`remote_config` by default); every dimension
/// value is a fixed word, a key name or a source name, never a value:
///
/// | label | kind | dimensions | from |
/// |---|---|---|---|
/// | `_fetches_total` | counter | `outcome`: `modified`, `not_modified`, `failed` | each fetch |
/// | `_fetch_duration` | timer | `outcome` | each fetch, by the client's clock |
/// | `_fetch_errors_total` | counter | `kind`: `transport`, `timeout`, `http_status`, … | each failed fetch |
/// | `_refreshes_total` | counter | `outcome`: `updated`, `unchanged`, `pending`, `failed`, `skipped` | each refresh |
/// | `_refresh_failures_total` | counter | `kind`: `fetch.timeout`, `payload`, … | each failed refresh |
/// | `_activations_total` | counter | none | each new state (refresh, activation, override change) |
/// | `_activation_changed_keys` | recorder | none | how many keys each activation changed |
/// | `_rejections_total` | counter | `key` | each value a key's type or rules refused |
/// | `_cache_events_total` | counter | `event`: `loaded`, `miss`, `unreadable`, `write_failed` | cache outcomes |
/// | `_override_problems_total` | counter | `source` | each problem an override source reports |
/// | `_state_changes_total` | counter | `provider`, `to`: `READY`, `STALE`, `ERROR`, `RECONCILING`, `NOT_READY` | each change of a provider's state |
/// | `_key_misuses_total` | counter | `kind`: `mistyped`, `unregistered`, `type_mismatch`, `definition_mismatch` | reads that miss a registered key |
public struct MetricsObserver: ConfigObserver {
    private let prefix: String
    private let factory: any MetricsFactory

    /// Creates an observer whose labels start with `prefix`, made by `factory` (the bootstrapped one by default).
    public init(prefix: String = "remote_config", factory: any MetricsFactory = MetricsSystem.factory) {
        self.prefix = prefix
        self.factory = factory
    }

    /// Records `event`.
    public func receive(_ event: ConfigEvent) {
        switch event {
        case .fetched(let outcome, let duration):
            let name = Self.name(of: outcome)
            count("fetches_total", [("outcome", name)])
            Timer(label: label("fetch_duration"), dimensions: [("outcome", name)], factory: factory)
                .recordNanoseconds(Self.nanoseconds(duration))
            if case .failed(let error) = outcome { count("fetch_errors_total", [("kind", error.kind.name)]) }
        case .notModified: count("refreshes_total", [("outcome", "unchanged")])
        case .pendingStored: count("refreshes_total", [("outcome", "pending")])
        case .refreshSkipped: count("refreshes_total", [("outcome", "skipped")])
        case .refreshFailed(let error):
            count("refreshes_total", [("outcome", "failed")])
            count("refresh_failures_total", [("kind", error.kindName)])
        case .activated(let update):
            if update.cause == .refresh { count("refreshes_total", [("outcome", "updated")]) }
            count("activations_total", [])
            Recorder(label: label("activation_changed_keys"), factory: factory).record(update.changedKeys.count)
        case .valueRejected(let rejection): count("rejections_total", [("key", rejection.key)])
        case .cacheLoaded: count("cache_events_total", [("event", "loaded")])
        case .cacheMiss: count("cache_events_total", [("event", "miss")])
        case .cacheUnreadable: count("cache_events_total", [("event", "unreadable")])
        case .cacheWriteFailed: count("cache_events_total", [("event", "write_failed")])
        case .overrideProblem(let source, _): count("override_problems_total", [("source", source)])
        case .mistypedKey: count("key_misuses_total", [("kind", "mistyped")])
        case .unregisteredKeyRead: count("key_misuses_total", [("kind", "unregistered")])
        case .keyTypeMismatch: count("key_misuses_total", [("kind", "type_mismatch")])
        case .keyDefinitionMismatch: count("key_misuses_total", [("kind", "definition_mismatch")])
        case .exposure(let exposure): count("exposures_total", [("key", exposure.key), ("reason", exposure.reason.rawValue)])
        case .tracked(let event): count("tracked_events_total", [("event", event.name)])
        case .stateChanged(let provider, _, let to, _):
            count("state_changes_total", [("provider", provider), ("to", to.rawValue)])
        case .refreshStarted: break  // every refresh ends in one of the outcomes counted above
        }
    }

    /// `prefix_name`.
    private func label(_ name: String) -> String { "\(prefix)_\(name)" }

    /// Adds one to the counter `name` with `dimensions`.
    private func count(_ name: String, _ dimensions: [(String, String)]) {
        Counter(label: label(name), dimensions: dimensions, factory: factory).increment()
    }

    /// The `outcome` dimension of a fetch.
    private static func name(of outcome: FetchOutcome) -> String {
        switch outcome {
        case .modified: "modified"
        case .notModified: "not_modified"
        case .failed: "failed"
        }
    }

    /// `seconds` in whole nanoseconds (zero for a negative or unknown duration, the largest for one too long to hold).
    static func nanoseconds(_ seconds: TimeInterval) -> Int64 {
        guard seconds > 0 else { return 0 }
        return Int64(exactly: (seconds * 1e9).rounded()) ?? .max
    }
}
