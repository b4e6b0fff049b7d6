import ConfigPorts
import Foundation

/// A clock that moves only when a test moves it, so backoff, TTLs and periodic refreshes run without real waiting.
///
/// ``sleep(for:)`` suspends the caller until ``advance(by:)`` or ``set(to:)`` moves the clock to
/// the sleeper's deadline (the time it was called plus its duration). Use
/// ``waitForSleepers(count:)`` to know that the code under test has reached its sleep before
/// advancing:
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: 30) }
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: 30)
/// try await task.value
/// ```
public final class ManualClock: ConfigClock {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct CountWaiter {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var countWaiters: [CountWaiter] = []

        mutating func takeID() -> UInt64 {
            nextID += 1
            return nextID
        }

        /// Removes and returns the sleepers whose deadline is reached, earliest deadline first.
        mutating func takeDueSleepers() -> [Sleeper] {
            let due = sleepers.filter { $0.deadline <= now }
            sleepers.removeAll { $0.deadline <= now }
            return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }

        /// Removes and returns the waiters satisfied by the current number of sleepers.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let ready = countWaiters.filter { $0.count <= count }
            countWaiters.removeAll { $0.count <= count }
            return ready.map(\.continuation)
        }
    }

    private let state: LockedState<State>

    /// Creates a clock showing `now` (by default 2023-11-14 22:13:20 UTC, a fixed instant).
    public init(now: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        state = LockedState(State(now: now))
    }

    /// The clock's current time.
    public func now() -> Date { state.withLock { $0.now } }

    /// The number of tasks currently suspended in ``sleep(for:)``.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward by `seconds` and resumes, in deadline order, every sleeper whose deadline is reached.
    ///
    /// A negative `seconds` moves the clock back, like ``set(to:)``, and resumes nothing.
    public func advance(by seconds: TimeInterval) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(seconds)
            return state.takeDueSleepers()
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Sets the clock to `date`, forwards or backwards (to test clock skew).
    ///
    /// Moving forward resumes, in deadline order, every sleeper whose deadline is reached. Moving
    /// back resumes nothing; sleepers keep their absolute deadlines.
    public func set(to date: Date) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = date
            return state.takeDueSleepers()
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until the clock reaches now + `seconds`; throws `CancellationError` promptly when the task is cancelled.
    ///
    /// Zero or a negative duration returns at once (throwing `CancellationError` if the task is
    /// already cancelled, like ``SystemClock``). A cancelled sleeper is removed, so it no longer
    /// counts in ``sleeperCount``.
    public func sleep(for seconds: TimeInterval) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        let id = state.withLock { $0.takeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The cancel flag is set before the handler runs, and both take the lock: either this
                // sees the flag, or the handler finds the registered sleeper.
                let ready = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    if Task.isCancelled { return nil }
                    let deadline = state.now.addingTimeInterval(seconds)
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return state.takeSatisfiedWaiters()
                }
                guard let ready else { return continuation.resume(throwing: CancellationError()) }
                for waiter in ready { waiter.resume() }
            }
        } onCancel: {
            let removed = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            removed?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` tasks are suspended in ``sleep(for:)`` (or when the waiting task is cancelled).
    ///
    /// Implemented with a continuation resumed by the sleep that reaches the count: it never
    /// polls and never sleeps for real.
    public func waitForSleepers(count: Int) async {
        let id = state.withLock { $0.takeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let satisfied = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.countWaiters.append(CountWaiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if satisfied { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CountWaiter? in
                guard let index = state.countWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.countWaiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }
}
