import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// `run()`: the background work a service runner drives, started in `run()` and stopped when it returns.
@Suite("Background work run by a service runner")
struct BackgroundWorkTests {
    @Test("with backgroundWork(.whenRun) nothing refreshes until run(); cancelling run() stops the client")
    func whenRun() async throws {
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(payload(retries: 1), etag: "\"p1\""))
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock)
            .periodicRefresh(every: 600).backgroundWork(.whenRun).observer(observer).build()
        #expect(clock.sleeperCount == 0, "no periodic refresh is waiting before run()")
        let runner = Task { await client.run() }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: 600)
        _ = await observer.waitFor { if case .activated = $0 { true } else { false } }
        #expect(client[Keys.retries] == 1)
        await clock.waitForSleepers(count: 1)
        runner.cancel()
        await runner.value
        #expect(client.status.scheduler.hold == .stopped)
        await #expect(throws: ConfigError.stopped) { try await client.refresh() }
        #expect(fetcher.fetchCount == 1)
    }

    @Test("stop() makes a running run() return; run() after stop() returns at once")
    func stopEndsRun() async throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock())
            .backgroundWork(.whenRun).build()
        let updates = client.activations()
        let runner = Task { await client.run() }
        await client.stop()
        await runner.value
        for await _ in updates { Issue.record("the update stream finishes when the client stops") }
        await client.run()
        #expect(client.status.scheduler.hold == .stopped)
    }

    @Test("a client built with the default starts its work at build; run() then only waits, and a cancelled task's run() returns")
    func atBuild() async throws {
        let clock = ManualClock()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: clock)
            .periodicRefresh(every: 600).build()
        await clock.waitForSleepers(count: 1)
        let runner = Task { await client.run() }
        runner.cancel()
        await runner.value
        #expect(client.status.scheduler.hold == .stopped)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await client.run()
        }
        await cancelledFirst.value
    }

    @Test("the client is the ConfigurationLifecycle a service runs")
    func lifecycle() async throws {
        let lifecycle: any ConfigurationLifecycle = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: payload()), clock: ManualClock()
        ).backgroundWork(.whenRun).build()
        let runner = Task { await lifecycle.run() }
        await lifecycle.stop()
        await runner.value
        #expect((lifecycle as? RemoteConfigClient)?.status.scheduler.hold == .stopped)
    }
}
