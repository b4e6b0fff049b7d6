import ConfigPorts
import Foundation

/// A clock that moves only when a test moves it, so backoff, TTLs and periodic refreshes run without real waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: 30) }
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: 30)
/// try await task.value
/// ```
public final class ManualClock: ConfigClock {
    private struct State {
        var now: Date
        var sleepers: [(deadline: Date, wake: Promise<Void>)] = []
        var countWaiters = CountWaiters()
    }

    private let state: Locked<State>

    /// Creates a clock showing `now` (by default 2023-11-14 22:13:20 UTC, a fixed instant).
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        state = Locked(State(now: now))
    }

    /// The clock's current time.
    public func now() -> Date { state.withLock { $0.now } }

    /// The number of tasks currently suspended in ``sleep(for:)``.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock by `seconds` (back when negative) and wakes the sleepers whose deadline is reached.
    public func advance(by seconds: TimeInterval) { move { $0.addingTimeInterval(seconds) } }

    /// Sets the clock to `date`, forwards or backwards (to test clock skew), and wakes the sleepers whose deadline is reached.
    public func set(to date: Date) { move { _ in date } }

    /// Changes the time and wakes, in deadline order, every sleeper whose deadline is reached.
    private func move(_ change: (Date) -> Date) {
        let due = state.withLock { state -> [Promise<Void>] in
            state.now = change(state.now)
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due.sorted { $0.deadline < $1.deadline }.map(\.wake)
        }
        for wake in due { wake.fulfill(()) }
    }

    /// Suspends until the clock reaches now + `seconds`; throws `CancellationError` promptly when the task is cancelled.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        guard seconds > 0 else { return }
        let wake = Promise<Void>()
        let ready = state.withLock { state -> [Promise<Void>] in
            state.sleepers.append((state.now.addingTimeInterval(seconds), wake))
            return state.countWaiters.reached(state.sleepers.count)
        }
        for waiter in ready { waiter.fulfill(()) }
        if await wake.wait() == nil {
            state.withLock { $0.sleepers.removeAll { $0.wake === wake } }
            throw CancellationError()
        }
    }

    /// Returns once at least `count` tasks are suspended in ``sleep(for:)``, or when the waiting task is cancelled.
    public func waitForSleepers(count: Int) async {
        let done = state.withLock { $0.countWaiters.waiter(for: count, current: $0.sleepers.count) }
        _ = await done?.wait()
    }
}
