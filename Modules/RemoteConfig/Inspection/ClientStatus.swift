import ConfigDomain
import Foundation

/// Everything inspectable about a client at one moment: the builder's own fetcher's snapshot and
/// scheduler, each provider's in ``providers``, and the registered keys.
public struct ClientStatus: Sendable, Hashable {
    /// Every registered key: name, type, default and rules.
    public let registeredKeys: [KeyDescriptor]
    /// How many keys are registered.
    public var keyCount: Int { registeredKeys.count }
    /// The generation of the active state.
    public let generation: UInt64
    /// Every remote provider's status, the builder's own fetcher first (the fields below read its status).
    public let providers: [ProviderStatus]
    /// The builder's own fetcher's status: the first of ``providers``, which always has it.
    private var own: ProviderStatus { providers[0] }

    init(registeredKeys: [KeyDescriptor], generation: UInt64, own: ProviderStatus, others: [ProviderStatus]) {
        self.registeredKeys = registeredKeys
        self.generation = generation
        self.providers = [own] + others
    }

    /// The active snapshot's freshness, or nil when there is none.
    public var freshness: Freshness? { own.freshness }
    /// The active snapshot's metadata, or nil when there is none.
    public var snapshot: SnapshotMetadata? { own.snapshot }
    /// When the fetcher last answered (success, 304 or failure).
    public var lastFetch: Date? { own.lastFetch }
    /// The outcome of the last refresh that reached the fetcher.
    public var lastOutcome: RefreshResult? { own.lastOutcome }
    /// The last refresh error, kept until a later refresh succeeds.
    public var lastError: ConfigError? { own.lastError }
    /// The scheduler's state.
    public var scheduler: SchedulerState { own.scheduler }
    /// Whether a fetched snapshot waits for activation.
    public var pendingActivation: Bool { own.pendingActivation }
    /// What the cache did.
    public var cache: CacheStatus { own.cache }
    /// The client's state: its providers' furthest from `READY` (``ProviderState/severity``).
    public var state: ProviderState { providers.map(\.state).max { $0.severity < $1.severity } ?? .notReady }
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
