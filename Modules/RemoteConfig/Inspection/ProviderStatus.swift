import ConfigDomain
import Foundation

/// One remote provider's state: its snapshot, its last fetch and its scheduler, apart from the others'.
public struct ProviderStatus: Sendable, Hashable {
    /// The provider's name (its cache name): `default` (or the `cache(_:name:)` name) for the builder's own fetcher.
    public var name: String
    /// The provider's active snapshot's freshness, or nil when it has none.
    public var freshness: Freshness?
    /// The provider's active snapshot's metadata, or nil when it has none.
    public var snapshot: SnapshotMetadata?
    /// When the provider's fetcher last answered (success, 304 or failure).
    public var lastFetch: Date?
    /// The outcome of the provider's last refresh that reached its fetcher.
    public var lastOutcome: RefreshResult?
    /// The provider's last refresh error, kept until a later refresh succeeds.
    public var lastError: ConfigError?
    /// The provider's scheduler.
    public var scheduler: SchedulerState
    /// Whether a snapshot the provider fetched waits for activation.
    public var pendingActivation: Bool
    /// What the provider's cache did.
    public var cache: CacheStatus
    /// The provider's state in OpenFeature's terms.
    public var state: ProviderState
    /// Why the provider is in that state, for a person: `push source sse … is down: connection reset; reconnecting in 2.0 s`.
    public var stateReason: String
    /// The provider's push sources that are down, by name, with what each said.
    public var pushDown: [String: String]
}

extension RefreshEngine {
    /// This provider's active snapshot's freshness now, or nil when it has none.
    func freshness() -> Freshness? {
        activeMetadata.map { settings.freshness(of: $0) }
    }

    /// This provider's status.
    func providerStatus() -> ProviderStatus {
        reportState()
        let status = self.status
        let metadata = status.active
        let freshness = metadata.map { settings.freshness(of: $0) }
        let (state, reason) = providerState(of: status)
        return ProviderStatus(
            name: settings.configurationName, freshness: freshness, snapshot: metadata,
            lastFetch: status.lastFetch, lastOutcome: status.lastOutcome, lastError: status.lastError,
            scheduler: status.scheduler, pendingActivation: status.pendingActivation, cache: status.cache, state: state,
            stateReason: reason, pushDown: status.pushDown)
    }
}
