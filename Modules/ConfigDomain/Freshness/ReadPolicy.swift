import Foundation

/// How an asynchronous read treats the freshness of what the client holds.
///
/// | policy | fresh | stale | expired | no data |
/// |---|---|---|---|---|
/// | `immediate` | held value | held value | held value | default |
/// | `refreshBeforeReturning` | held value | refresh, then value | refresh, then value | refresh, then value |
/// | `immediateWithBackgroundRefresh` | held value | held value + background refresh | held value + background refresh | default + background refresh |
/// | `cacheOnly` | held value | held value | default | default |
///
/// "Refresh, then value" returns the value after the refresh, successful or not: a failed
/// refresh keeps the last good state, so the read still returns the best value there is.
/// Synchronous reads always behave as `immediate`.
public enum ReadPolicy: String, Sendable, Hashable, CaseIterable {
    /// Return what is held now, whatever its age.
    case immediate
    /// Refresh first unless the held snapshot is fresh, then return.
    case refreshBeforeReturning
    /// Return what is held now; start a refresh unless it is fresh.
    case immediateWithBackgroundRefresh
    /// Never touch the network; an expired snapshot is not served (the default is).
    case cacheOnly
}
