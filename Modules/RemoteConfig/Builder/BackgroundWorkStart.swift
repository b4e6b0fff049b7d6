import Foundation

/// When a client starts its background work: the periodic refresh, the push subscriptions and the
/// override observation (see `RemoteConfigBuilder/backgroundWork(_:)`).
public enum BackgroundWorkStart: Sendable, Hashable {
    /// In `build()`: an app's client works as soon as it exists, until it stops or is released.
    case atBuild
    /// In `RemoteConfigClient/run()`, and until that task is cancelled: what a service runner such as
    /// swift-service-lifecycle's `ServiceGroup` drives (`ServiceLifecycleAdapter`'s `RemoteConfigService`).
    case whenRun
}
