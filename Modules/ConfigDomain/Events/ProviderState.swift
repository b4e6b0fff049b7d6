import Foundation

/// How a provider stands, in OpenFeature's provider states: whether what it serves is current.
///
/// | state | when |
/// |---|---|
/// | `NOT_READY` | nothing is held yet: neither fetched nor cached |
/// | `READY` | a fresh snapshot is held and every push source is connected |
/// | `STALE` | a snapshot is held that may be out of date: past its TTL, or a push source is down |
/// | `ERROR` | the last refresh failed and nothing current is held (no snapshot, or an expired one) |
/// | `RECONCILING` | the provider is fetching for a new evaluation context (a server evaluates its flags) |
///
/// A client reports each change of a provider's state once, as `ConfigEvent.stateChanged`.
public enum ProviderState: String, Sendable, Hashable, CustomStringConvertible {
    /// Nothing is held yet: neither fetched nor cached.
    case notReady = "NOT_READY"
    /// A fresh snapshot is held and every push source is connected.
    case ready = "READY"
    /// A snapshot is held that may be out of date: past its TTL, or a push source is down.
    case stale = "STALE"
    /// The last refresh failed and nothing current is held.
    case error = "ERROR"
    /// Fetching for a new evaluation context.
    case reconciling = "RECONCILING"

    /// OpenFeature's word for the state: `READY`.
    public var description: String { rawValue }

    /// How far from `READY`: the state a client with several providers reports is its providers' highest.
    public var severity: Int {
        switch self {
        case .ready: 0
        case .stale: 1
        case .reconciling: 2
        case .notReady: 3
        case .error: 4
        }
    }
}
