import ConfigDomain
import Foundation

/// A change of the values reads see: which keys changed, and what caused it.
public struct ConfigUpdate: Sendable, Hashable {
    /// What caused a new state.
    public enum Cause: Sendable, Hashable {
        /// A fetched payload was activated.
        case refresh
        /// `activate()` applied a pending payload.
        case activation
        /// An override source changed (its name).
        case override(source: String)
        /// The evaluation context changed (`setContext` or `updateContext`).
        case context
    }

    /// The keys whose value changed.
    public var changedKeys: [String]
    /// Why.
    public var cause: Cause
    /// The generation of the new state.
    public var generation: UInt64
}
