import ConfigDomain
import Foundation

/// What a successful (or deliberately skipped) refresh did. Failures throw `ConfigError`.
public enum RefreshResult: Sendable, Hashable {
    /// A new payload was activated; these keys changed value (maybe none).
    case updated(changedKeys: [String])
    /// The payload is unchanged (a 304, or identical bytes); freshness was renewed.
    case unchanged
    /// A new payload was fetched and is waiting for activation (next launch or manual); these keys would change.
    case pendingActivation(changedKeys: [String])
    /// No fetch was made, and why; this is not a failure.
    case skipped(reason: SchedulerState.Hold, nextAllowed: Date?)

    /// The changed keys, for `updated` and `pendingActivation`; empty otherwise.
    public var changedKeys: [String] {
        switch self {
        case .updated(let keys), .pendingActivation(let keys): keys
        default: []
        }
    }
}
