import Foundation

/// How fresh a snapshot is, under a ``FreshnessPolicy`` at a given moment.
public enum Freshness: String, Sendable, Hashable, CustomStringConvertible {
    /// Younger than the TTL: serve it, no refresh needed.
    case fresh
    /// Past the TTL but inside the stale window (or its age is unknown): serve it and refresh.
    case stale
    /// Past the TTL and the stale window: a policy that cares should not serve it without trying to refresh.
    case expired

    /// `fresh`, `stale` or `expired`.
    public var description: String { rawValue }
}
