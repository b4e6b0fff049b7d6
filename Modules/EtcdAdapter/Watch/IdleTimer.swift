import ConfigPorts
import Foundation

/// Calls `expire` once a watch stream has been silent for a whole period, measured on the
/// connection's clock; every ``touch()`` counts as a sign of life.
///
/// The period is the request timeout until the watch is ``confirmLive()``d (a member that does
/// not even answer is left quickly), then the idle timeout (`nil`: no limit once live).
final class IdleTimer: Sendable {
    private struct State: Sendable {
        var lastActivity: Date
        var live = false
        var expired = false
    }

    private let clock: any ConfigClock
    private let state: Locked<State>
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts watching for silence.
    init(clock: any ConfigClock, connecting: TimeInterval, idle: TimeInterval?, expire: @escaping @Sendable () -> Void) {
        self.clock = clock
        let state = Locked(State(lastActivity: clock.now()))
        self.state = state
        task.withLock { task in
            task = Task {
                while true {
                    let current = state.withLock { $0 }
                    guard let period = current.live ? idle : connecting else { return }
                    let silence = clock.now().timeIntervalSince(current.lastActivity)
                    if silence >= period {
                        state.withLock { $0.expired = true }
                        return expire()
                    }
                    do { try await clock.sleep(for: period - silence) } catch { return }
                }
            }
        }
    }

    /// Whether the stream was found silent and `expire` was called.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Something arrived.
    func touch() {
        let now = clock.now()
        state.withLock { $0.lastActivity = now }
    }

    /// The watch was created: from now on, the idle timeout applies.
    func confirmLive() {
        let now = clock.now()
        state.withLock { state in
            state.live = true
            state.lastActivity = now
        }
    }

    /// Stops the timer.
    func stop() { task.withLock { $0?.cancel() } }
}
