import Foundation

/// How long after its TTL a snapshot may still be served while a refresh is due.
///
/// An explicit choice: there is no `nil` that silently means "forever".
public enum StaleWindow: Sendable, Hashable {
    /// No stale window: past its TTL a snapshot is expired.
    case none
    /// A stale window of this many seconds after the TTL.
    case seconds(TimeInterval)
    /// Never expires: past its TTL a snapshot stays stale, and is served, forever.
    case unlimited
}
