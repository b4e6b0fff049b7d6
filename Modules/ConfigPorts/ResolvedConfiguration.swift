import ConfigDomain
import Foundation

/// A resolved configuration that other code reads raw values from and watches: what a bridge to
/// another configuration API (such as swift-configuration's `ConfigProvider`) needs from a client.
///
/// `RemoteConfigClient` conforms with its own reads: `view(for:)`, `fetch(_:for:)` and `watch()`.
/// The contract:
/// - ``view(for:)`` answers on the calling thread, without I/O, from one consistent state: for the
///   context given (a server's request: targeting rules evaluated for it, no state changed), or the
///   configuration's own when nil.
/// - ``fetch(_:for:)`` brings the values up to date first where the policy asks and the source can
///   (a client refreshes every provider whose snapshot is not fresh), and never throws: a failure
///   keeps the last good values.
/// - ``watch()`` yields the current state first, then each new state, and finishes when the source
///   stops or the consuming task is cancelled.
public protocol ResolvedConfiguration: Sendable {
    /// One state's values.
    associatedtype View: ResolvedValues
    /// The values reads see now, for `context` (nil: the configuration's own).
    func view(for context: EvaluationContext?) -> View
    /// The values after bringing them up to date as `policy` says; a failure keeps the last good values.
    func fetch(_ policy: ReadPolicy, for context: EvaluationContext?) async -> View
    /// The current state, then each new state.
    func watch() -> AsyncStream<View>
}
