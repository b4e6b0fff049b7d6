import ConfigDomain
import Foundation

/// A resolved configuration that other code reads raw values from and watches: what a bridge to
/// another configuration API (such as swift-configuration's `ConfigProvider`) needs from a client.
///
/// `RemoteConfigClient` conforms. The contract:
/// - ``resolvedValues()`` answers on the calling thread, without I/O, from one consistent state.
/// - ``resolvedValueUpdates()`` yields the current values first, then the values after each
///   change, and finishes when the source stops or the consuming task is cancelled.
/// - ``resolvedValues(for:)`` answers as ``resolvedValues()`` with the targeting rules evaluated for
///   the context given (a server's request), changing nothing.
/// - ``freshResolvedValues()`` brings the values up to date where the source can (a client
///   refreshes when its snapshot is not fresh) and never throws: a failure keeps the last good values.
public protocol ResolvedConfiguration: Sendable {
    /// The values reads see now.
    func resolvedValues() -> ResolvedValues
    /// The current values, then the values after each change.
    func resolvedValueUpdates() -> AsyncStream<ResolvedValues>
    /// The values after bringing them up to date where possible; a failure keeps the last good values.
    func freshResolvedValues() async -> ResolvedValues
    /// The values reads see for `context`, given with the call: targeting rules evaluated for it, no state changed.
    func resolvedValues(for context: EvaluationContext) -> ResolvedValues
}

extension ResolvedConfiguration {
    /// The values reads see now: a configuration without targeting answers the same for every context.
    public func resolvedValues(for context: EvaluationContext) -> ResolvedValues { resolvedValues() }
}
