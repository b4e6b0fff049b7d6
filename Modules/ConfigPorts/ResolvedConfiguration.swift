import ConfigDomain
import Foundation

/// A resolved configuration that other code reads raw values from and watches: what a bridge to
/// another configuration API (such as swift-configuration's `ConfigProvider`) needs from a client.
///
/// `RemoteConfigClient` conforms. The contract:
/// - ``resolvedValues()`` answers on the calling thread, without I/O, from one consistent state.
/// - ``resolvedValueUpdates()`` yields the current values first, then the values after each
///   change, and finishes when the source stops or the consuming task is cancelled.
/// - ``freshResolvedValues()`` brings the values up to date where the source can (a client
///   refreshes when its snapshot is not fresh) and never throws: a failure keeps the last good values.
public protocol ResolvedConfiguration: Sendable {
    /// The values reads see now.
    func resolvedValues() -> ResolvedValues
    /// The current values, then the values after each change.
    func resolvedValueUpdates() -> AsyncStream<ResolvedValues>
    /// The values after bringing them up to date where possible; a failure keeps the last good values.
    func freshResolvedValues() async -> ResolvedValues
}
