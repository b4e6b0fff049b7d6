import ConfigDomain
import Foundation

/// Everything inspectable about a client at one moment: the builder's own fetcher's snapshot and
/// scheduler, and each provider's in ``providers``.
public struct ClientStatus: Sendable, Hashable {
    /// The active snapshot's freshness, or nil when there is none.
    public var freshness: Freshness?
    /// The active snapshot's metadata, or nil when there is none.
    public var snapshot: SnapshotMetadata?
    /// When the fetcher last answered (success, 304 or failure).
    public var lastFetch: Date?
    /// The outcome of the last refresh that reached the fetcher.
    public var lastOutcome: RefreshResult?
    /// The last refresh error, kept until a later refresh succeeds.
    public var lastError: ConfigError?
    /// The scheduler's state.
    public var scheduler: SchedulerState
    /// How many keys are registered.
    public var keyCount: Int
    /// Whether a fetched snapshot waits for activation.
    public var pendingActivation: Bool
    /// What the cache did.
    public var cache: CacheStatus
    /// The generation of the active state.
    public var generation: UInt64
    /// Every remote provider's status, the builder's own fetcher first (the fields above repeat its status).
    public var providers: [ProviderStatus]
}

/// What the client's cache did most recently.
public enum CacheStatus: Sendable, Hashable, CustomStringConvertible {
    /// No cache was configured.
    case notConfigured
    /// The cache had nothing at build time.
    case empty
    /// The active snapshot was loaded from the cache at build time or written to it since.
    case inSync
    /// The cache's data was unusable at build time (corrupt, newer format) and treated as a miss.
    case unreadable(CacheError)
    /// The last write failed; memory is ahead of the cache.
    case writeFailed(CacheError)

    /// The status in words.
    public var description: String {
        switch self {
        case .notConfigured: "no cache"
        case .empty: "empty"
        case .inSync: "in sync"
        case .unreadable(let e): "unreadable: \(e.message)"
        case .writeFailed(let e): "write failed: \(e.message)"
        }
    }
}
