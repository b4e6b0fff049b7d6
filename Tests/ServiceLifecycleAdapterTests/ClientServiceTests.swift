import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import ServiceLifecycle
import ServiceLifecycleAdapter
import TestDoubles
import Testing

/// A real `RemoteConfigClient` run by a `ServiceGroup` through `RemoteConfigService`: its periodic
/// refresh runs while the group runs and ends with the group's graceful shutdown (manual clock,
/// scripted fetcher: nothing sleeps).
@Suite("RemoteConfigService with a client")
struct ClientServiceTests {
    static let retries = ConfigKey("max_retries", default: 3)

    /// A client whose background work waits for `run()`, refreshing every 600 seconds of `clock`.
    static func client(fetcher: ScriptedFetcher, clock: ManualClock, observer: RecordingObserver) throws -> RemoteConfigClient {
        try RemoteConfigClient.builder(fetcher: fetcher)
            .clock(clock)
            .jitter { 1.0 }
            .register(retries)
            .observer(observer)
            .periodicRefresh(every: 600)
            .backgroundWork(.whenRun)
            .build()
    }

    @Test("the group runs the client's periodic refresh; graceful shutdown stops it, and no refresh follows")
    func refreshRunsUntilShutdown() async throws {
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(#"{"max_retries": 5}"#, etag: "\"a\""))
        let observer = RecordingObserver()
        let client = try Self.client(fetcher: fetcher, clock: clock, observer: observer)
        #expect(clock.sleeperCount == 0, "no refresh waits before the group runs the client")

        let group = ServiceGroup(
            services: [RemoteConfigService(client)], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: RemoteConfigServiceTests.quiet)
        let running = Task { try await group.run() }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: 600)
        _ = await observer.waitFor { if case .activated = $0 { true } else { false } }
        #expect(client[Self.retries] == 5)
        #expect(fetcher.fetchCount == 1)
        await clock.waitForSleepers(count: 1)  // the loop waits for the next refresh

        await group.triggerGracefulShutdown()
        try await running.value
        #expect(clock.sleeperCount == 0, "the refresh loop ended")
        #expect(client.status.scheduler.hold == .stopped)
        clock.advance(by: 6_000)
        #expect(fetcher.fetchCount == 1, "no refresh after the shutdown")
        await #expect(throws: ConfigError.stopped) { try await client.refresh() }
        #expect(client[Self.retries] == 5, "reads keep the last values after the client stopped")
    }

    @Test("cancelling the group stops the client as graceful shutdown does")
    func cancellationStopsTheClient() async throws {
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        let client = try Self.client(fetcher: fetcher, clock: clock, observer: RecordingObserver())
        let group = ServiceGroup(
            services: [RemoteConfigService(client)], gracefulShutdownSignals: [], cancellationSignals: [],
            logger: RemoteConfigServiceTests.quiet)
        let running = Task { try await group.run() }
        await clock.waitForSleepers(count: 1)
        running.cancel()
        _ = await running.result
        #expect(clock.sleeperCount == 0)
        #expect(client.status.scheduler.hold == .stopped)
        #expect(fetcher.fetchCount == 0)
    }
}
