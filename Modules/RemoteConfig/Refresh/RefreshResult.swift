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

extension RefreshResult {
    /// One result for the refreshes of several providers: a failure only when every one failed
    /// (the first failure); otherwise `updated` when any updated (their changed keys), else
    /// `pendingActivation` when any fetched for later, else `unchanged` when any fetched, else the
    /// first skip. One result is returned as it is.
    static func combining(_ results: [Result<RefreshResult, ConfigError>]) -> Result<RefreshResult, ConfigError> {
        if results.count == 1, let only = results.first { return only }
        let outcomes = results.compactMap { try? $0.get() }
        guard let first = outcomes.first else { return results.first ?? .failure(.stopped) }
        func keys(_ matching: (RefreshResult) -> Bool) -> [String] {
            var seen = Set<String>()
            return outcomes.filter(matching).flatMap(\.changedKeys).filter { seen.insert($0).inserted }
        }
        if outcomes.contains(where: { if case .updated = $0 { true } else { false } }) {
            return .success(.updated(changedKeys: keys { if case .updated = $0 { true } else { false } }))
        }
        if outcomes.contains(where: { if case .pendingActivation = $0 { true } else { false } }) {
            return .success(.pendingActivation(changedKeys: keys { if case .pendingActivation = $0 { true } else { false } }))
        }
        if outcomes.contains(.unchanged) { return .success(.unchanged) }
        return .success(first)
    }
}
