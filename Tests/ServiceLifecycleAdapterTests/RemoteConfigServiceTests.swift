import ConfigPorts
import Logging
import ServiceLifecycle
import ServiceLifecycleAdapter
import Testing

/// `RemoteConfigService` runs a configuration's background work inside a `ServiceGroup`: until graceful
/// shutdown or cancellation, then it stops the work and returns.
@Suite("RemoteConfigService")
struct RemoteConfigServiceTests {
    /// A logger that drops everything (the group logs its own steps).
    static let quiet = Logger(label: "remote-config-service-tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// A group running `services`, with no signal handling.
    static func group(_ services: [any Service]) -> ServiceGroup {
        ServiceGroup(services: services, gracefulShutdownSignals: [], cancellationSignals: [], logger: quiet)
    }

    @Test("graceful shutdown of the group ends run(), and the work is stopped")
    func gracefulShutdown() async throws {
        let lifecycle = RecordingLifecycle()
        let group = Self.group([RemoteConfigService(lifecycle)])
        let running = Task { try await group.run() }
        await lifecycle.waitUntilRunning()
        #expect(lifecycle.runCount == 1)
        #expect(lifecycle.stopCount == 0, "nothing stops the work while the group runs")
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(lifecycle.returnedRunCount == 1)
        #expect(lifecycle.stopCount == 1)
        #expect(!lifecycle.isRunning)
    }

    @Test("cancelling the group's task ends run(), and the work is stopped")
    func cancellation() async throws {
        let lifecycle = RecordingLifecycle()
        let group = Self.group([RemoteConfigService(lifecycle)])
        let running = Task { try await group.run() }
        await lifecycle.waitUntilRunning()
        running.cancel()
        _ = await running.result
        #expect(lifecycle.returnedRunCount == 1)
        #expect(lifecycle.stopCount == 1)
    }

    @Test("run() on its own returns when its task is cancelled, and stops the work")
    func withoutAGroup() async throws {
        let lifecycle = RecordingLifecycle()
        let service = RemoteConfigService(lifecycle)
        let running = Task { try await service.run() }
        await lifecycle.waitUntilRunning()
        running.cancel()
        try await running.value
        #expect(lifecycle.returnedRunCount == 1)
        #expect(lifecycle.stopCount == 1)
    }

    @Test("work stopped from outside makes run() return, and the group with it")
    func stoppedFromOutside() async throws {
        let lifecycle = RecordingLifecycle()
        let other = RecordingLifecycle()
        let group = Self.group([RemoteConfigService(lifecycle), RemoteConfigService(other)])
        let running = Task { try await group.run() }
        await lifecycle.waitUntilRunning()
        await other.waitUntilRunning()
        await lifecycle.stop()
        // A service that returns ends the group (its default for a service that finishes); the other is stopped too.
        _ = await running.result
        #expect(lifecycle.returnedRunCount == 1)
        #expect(other.returnedRunCount == 1)
        #expect(other.stopCount == 1)
    }

    @Test("the service keeps the lifecycle it was given")
    func keepsItsLifecycle() {
        let lifecycle = RecordingLifecycle()
        let service = RemoteConfigService(lifecycle)
        #expect((service.lifecycle as? RecordingLifecycle) === lifecycle)
    }
}
