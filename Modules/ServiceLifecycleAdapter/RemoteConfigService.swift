import ConfigDomain
import ConfigPorts
import ServiceLifecycle

/// A configuration's background work (a `RemoteConfigClient`'s periodic refresh and push) as a
/// swift-service-lifecycle `Service`, run by a `ServiceGroup` beside the server.
///
/// ```swift
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .periodicRefresh(every: 60)
///     .build()
/// let group = ServiceGroup(
///     services: [app, RemoteConfigService(client)], gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// ``run()`` runs the work until the group shuts down gracefully or cancels the service, then
/// stops it (the refresh loop ends, push subscriptions close, update streams finish) before it
/// returns. When the work stops on its own (someone called `stop()`), ``run()`` returns too, and
/// the group treats it as any service that finished.
public struct RemoteConfigService: Service {
    /// The background work this service runs.
    public let lifecycle: any ConfigurationLifecycle

    /// A service that runs `lifecycle` (a `RemoteConfigClient`, say).
    public init(_ lifecycle: any ConfigurationLifecycle) {
        self.lifecycle = lifecycle
    }

    /// Runs the background work until graceful shutdown or cancellation, then stops it and returns.
    public func run() async throws {
        let lifecycle = self.lifecycle
        // Graceful shutdown cancels the inner task, which is how `ConfigurationLifecycle.run()` is told to end.
        await cancelWhenGracefulShutdown { await lifecycle.run() }
        // `run()` stops the work when it returns; stopping again is harmless and covers a lifecycle that
        // returned for another reason.
        await lifecycle.stop()
    }
}
