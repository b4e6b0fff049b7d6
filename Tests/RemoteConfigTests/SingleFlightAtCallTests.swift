import ConfigDomain
import ConfigPorts
import Dispatch
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// A caller joins the flight in progress when it calls, whatever the scheduler does with its tasks next.
@Suite("Single flight decided at the call")
struct SingleFlightAtCallTests {
    @Test("a caller whose child tasks run only after the fetch has ended still shares that fetch")
    func joinsWhenItCalls() async throws {
        let fetcher = ScriptedFetcher()
        let hold = fetcher.enqueueHeld(.modifiedJSON(payload(retries: 7), etag: "\"v1\""))
        fetcher.enqueue(.modifiedJSON(payload(retries: 9), etag: "\"v2\""))  // what a second fetch would get
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()

        let first = Task { () throws(ConfigError) -> RefreshResult in try await client.refresh() }
        await hold.waitUntilReached()

        // The second caller runs its call at once; every job after that waits until the gate opens.
        let gate = GatedExecutor()
        let second = Task(executorPreference: gate) { () throws(ConfigError) -> RefreshResult in
            try await client.refresh()
        }
        await gate.firstJobDone()

        hold.release()
        let shared = try await first.value
        #expect(client.engine.currentFlight == nil, "the first fetch has ended before the second caller's tasks run")
        gate.open()
        let joined = try await second.value

        #expect(fetcher.fetchCount == 1)
        #expect(joined == shared)
        #expect(shared == .updated(changedKeys: ["new_checkout", "max_retries", "ratio", "title"]))
        #expect(client[Keys.retries] == 7)
    }
}

/// A task executor that runs the first job it gets at once, on its own queue, and holds every later job
/// until ``open()``: a caller's synchronous start runs, the child tasks it spawns wait.
final class GatedExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs = 0
        var isOpen = false
        var held: [UnownedJob] = []
    }

    private let queue = DispatchQueue(label: "GatedExecutor")
    private let state = Locked(State())
    private let firstDone = AsyncStream<Void>.makeStream()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (runNow, isFirst) = state.withLock { state -> (Bool, Bool) in
            state.jobs += 1
            if state.jobs == 1 || state.isOpen { return (true, state.jobs == 1) }
            state.held.append(job)
            return (false, false)
        }
        guard runNow else { return }
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            if isFirst { self.firstDone.continuation.finish() }
        }
    }

    /// Returns once the first job has run to its first suspension.
    func firstJobDone() async {
        for await _ in firstDone.stream {}
    }

    /// Runs the held jobs, and every later job at once.
    func open() {
        let held = state.withLock { state -> [UnownedJob] in
            state.isOpen = true
            defer { state.held = [] }
            return state.held
        }
        for job in held { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }
}
