import Foundation

/// Runs an operation with a time limit, so a broken adapter that never answers fails a check instead of hanging the suite.
///
/// For a working adapter nothing waits: the timer is cancelled as soon as the operation finishes.
/// This is the only place the contracts use real time.
enum Watchdog {
    private enum Outcome<T: Sendable>: Sendable {
        case finished(T)
        case timedOut
    }

    /// The first of "the operation finished" and "the time limit passed", resuming one waiter once.
    private final class Gate<T: Sendable>: Sendable {
        private struct State {
            var outcome: Outcome<T>?
            var waiter: CheckedContinuation<Outcome<T>, Never>?
        }

        private let state = LockedState(State())

        func settle(_ outcome: Outcome<T>) {
            let waiter = state.withLock { state -> CheckedContinuation<Outcome<T>, Never>? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: outcome)
        }

        func wait() async -> Outcome<T> {
            await withCheckedContinuation { continuation in
                let settled = state.withLock { state -> Outcome<T>? in
                    if let outcome = state.outcome { return outcome }
                    state.waiter = continuation
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        }
    }

    /// The operation's result, or `nil` when it did not finish within `seconds` (it is then cancelled and abandoned).
    static func run<T: Sendable>(
        limit seconds: TimeInterval, _ operation: @escaping @Sendable () async -> T
    ) async -> T? {
        let gate = Gate<T>()
        let work = Task { gate.settle(.finished(await operation())) }
        let timer = Task {
            do {
                try await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 86_400)) * 1_000_000_000))
                gate.settle(.timedOut)
            } catch {
                // Cancelled: the operation finished first.
            }
        }
        let outcome = await withTaskCancellationHandler {
            await gate.wait()
        } onCancel: {
            work.cancel()
        }
        timer.cancel()
        switch outcome {
        case .finished(let value): return value
        case .timedOut:
            work.cancel()
            return nil
        }
    }
}
