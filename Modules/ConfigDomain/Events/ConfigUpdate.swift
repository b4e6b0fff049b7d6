import Foundation

/// A change of the values reads see: which keys changed, what caused it, and the new state's generation.
///
/// A client reports each activation once: as `ConfigEvent.activated(_:)` on its event channel, and as
/// the `update` of the state that `watch()` yields.
public struct ConfigUpdate: Sendable, Hashable, CustomStringConvertible {
    /// What caused a new state.
    public enum Cause: Sendable, Hashable, CustomStringConvertible {
        /// A fetched or pushed payload was activated.
        case refresh
        /// `activate()` applied a pending payload.
        case activation
        /// An override source changed (its name).
        case override(source: String)
        /// The evaluation context changed (`updateContext`).
        case context

        /// `refresh`, `activation`, `override environment`, `context`.
        public var description: String {
            switch self {
            case .refresh: "refresh"
            case .activation: "activation"
            case .override(let source): "override \(source)"
            case .context: "context"
            }
        }
    }

    /// The keys whose value changed.
    public var changedKeys: [String]
    /// Why.
    public var cause: Cause
    /// The generation of the new state.
    public var generation: UInt64

    /// Creates an update.
    public init(changedKeys: [String], cause: Cause, generation: UInt64) {
        self.changedKeys = changedKeys
        self.cause = cause
        self.generation = generation
    }

    /// `refresh (generation 4): changed max_retries, new_checkout`.
    public var description: String {
        "\(cause) (generation \(generation)): changed \(changedKeys.isEmpty ? "nothing" : changedKeys.joined(separator: ", "))"
    }
}
