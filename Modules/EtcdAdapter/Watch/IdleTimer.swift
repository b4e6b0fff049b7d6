import ConfigPorts
import Foundation

/// Calls `expire` once a watch stream has been silent for a whole period, measured on the
/// connection's clock; every ``touch()`` counts as a sign of life.
///
/// The period is the request timeout until the watch is ``confirmLive()``d (a member that does
/// not even answer is left quickly), then the idle timeout (`nil`: no limit once live).
final class IdleTimer: Sendable {
    /// Which period ran out.
    enum Expiry: Sendable, Equatable {
        /// The watch was never confirmed within the request timeout: the member did not answer.
        case unconfirmed
        /// A confirmed watch stayed silent past the idle timeout: it may be fine and only quiet.
        case silent
    }

    private struct State: Sendable {
        var lastActivity: Date
        var live = false
        var expiry: Expiry?
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
                        state.withLock { $0.expiry = current.live ? .silent : .unconfirmed }
                        return expire()
                    }
                    do { try await clock.sleep(for: period - silence) } catch { return }
                }
            }
        }
    }

    /// Which period ran out and made it call `expire`, or nil while none has.
    var expiry: Expiry? { state.withLock { $0.expiry } }

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
