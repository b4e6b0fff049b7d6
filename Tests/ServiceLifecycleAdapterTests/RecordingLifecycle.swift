import ConfigPorts

/// A `ConfigurationLifecycle` that records its calls: `run()` waits until its task is cancelled or
/// `stop()` is called, as the port's contract says, and tests can wait for it to be running.
final class RecordingLifecycle: ConfigurationLifecycle {
    private struct State {
        var runs = 0
        var stops = 0
        var running = false
        var returnedRuns = 0
        /// The suspended `run()`, resumed by cancellation or `stop()`.
        var parked: CheckedContinuation<Void, Never>?
        var stopped = false
        /// Tasks waiting for `run()` to be running.
        var runningWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// How many times `run()` was called.
    var runCount: Int { state.withLock { $0.runs } }
    /// How many times `run()` returned.
    var returnedRunCount: Int { state.withLock { $0.returnedRuns } }
    /// How many times `stop()` was called.
    var stopCount: Int { state.withLock { $0.stops } }
    /// Whether a `run()` is suspended right now.
    var isRunning: Bool { state.withLock { $0.running } }

    func run() async {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.runs += 1
            state.running = true
            defer { state.runningWaiters = [] }
            return state.runningWaiters
        }
        for waiter in waiters { waiter.resume() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Either this sees the cancellation or the stop, or the handler and `stop()` find the continuation.
                let done = state.withLock { state -> Bool in
                    if Task.isCancelled || state.stopped { return true }
                    state.parked = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.parked = nil }
                return state.parked
            }?.resume()
        }
        state.withLock { state in
            state.running = false
            state.returnedRuns += 1
        }
    }

    func stop() async {
        state.withLock { state in
            state.stops += 1
            state.stopped = true
            defer { state.parked = nil }
            return state.parked
        }?.resume()
    }

    /// Returns once `run()` has been called and is running (at once if it already is).
    func waitUntilRunning() async {
        await withCheckedContinuation { continuation in
            let running = state.withLock { state -> Bool in
                if state.running { return true }
                state.runningWaiters.append(continuation)
                return false
            }
            if running { continuation.resume() }
        }
    }
}
