import ConfigDomain
import Foundation

extension RemoteConfigClient {
    /// The evaluation context that the current values were resolved for.
    public var context: EvaluationContext { cell.load().context }

    /// Replaces the whole evaluation context and re-resolves every key's targeting rules for it.
    ///
    /// Synchronous and atomic: when it returns, reads see the values for the new context, and
    /// no read ever sees half of the change. It fetches nothing. An update with cause
    /// `ConfigUpdate/Cause/context` names the keys whose value changed (none: no update).
    /// - Returns: the names of the keys whose value changed.
    @discardableResult
    public func setContext(_ context: EvaluationContext) -> [String] {
        activator.changeContext { $0 = context }
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
        activator.changeContext(update)
    }
}
