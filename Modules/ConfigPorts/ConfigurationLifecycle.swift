import ConfigDomain
import Foundation

/// A configuration's background work (periodic refresh, push subscriptions), run for as long as its
/// owner runs it: what a service runner such as swift-service-lifecycle's `ServiceGroup` drives.
///
/// `RemoteConfigClient` conforms. The contract:
/// - ``run()`` starts the work if it is not running, returns when the calling task is cancelled,
///   and then stops it: the refresh loop ends, push subscriptions close, update streams finish.
/// - ``stop()`` stops the work from outside, and makes a running ``run()`` return.
/// - Both are safe to call more than once and from several tasks.
public protocol ConfigurationLifecycle: Sendable {
    /// Runs the background work until the calling task is cancelled or ``stop()`` is called, then stops it.
    func run() async
    /// Stops the background work and finishes every stream.
    func stop() async
}
