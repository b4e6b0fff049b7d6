import ConfigDomain
import Foundation

extension RemoteConfigClient {
    /// The evaluation context that the current values were resolved for.
    public var context: EvaluationContext { cell.load().context }

    /// Replaces the whole evaluation context and re-resolves every key's targeting rules for it.
    ///
    /// Synchronous and atomic: when it returns, reads see the values for the new context, and
    /// no read ever sees half of the change. It fetches nothing, except from a provider whose server
    /// evaluates the flags (`ConfigFetcher.evaluatesContext`, such as OFREP): that provider serves
    /// at once what the cache holds for the new targeting key (or nothing, so its keys fall to the
    /// layers below), and fetches for the new context in the background. An update with cause
    /// `ConfigUpdate/Cause/context` names the keys whose value changed (none: no update).
    /// - Returns: the names of the keys whose value changed.
    @discardableResult
    public func setContext(_ context: EvaluationContext) -> [String] {
        changeContext { $0 = context }
    }

    /// Changes part of the evaluation context, for example at login or logout, then re-resolves as
    /// ``setContext(_:)`` does. `update` runs under the client's lock on the current context, so
    /// two updates never lose each other's changes; keep it short.
    ///
    /// ```swift
    /// client.updateContext { $0.targetingKey = "u1"; $0.attributes["plan"] = "pro" }   // login
    /// client.updateContext { $0.targetingKey = nil; $0.attributes["plan"] = nil }       // logout
    /// ```
    /// - Returns: the names of the keys whose value changed.
    @discardableResult
    public func updateContext(_ update: (inout EvaluationContext) -> Void) -> [String] {
        changeContext(update)
    }

    /// Changes the context; providers whose payloads are evaluated remotely move to the new
    /// targeting key's cache slot under the same lock, then fetch for the new context.
    private func changeContext(_ update: (inout EvaluationContext) -> Void) -> [String] {
        let remote = engines.filter(\.evaluatesContext)
        guard !remote.isEmpty else { return activator.changeContext(update) }
        var moved = false
        let changed = activator.changeContext(update) { sources in
            moved = true
            for engine in remote { engine.move(to: sources.context, in: &sources) }
        }
        if moved {
            for engine in remote { engine.refetchForNewContext() }
        }
        return changed
    }
}
