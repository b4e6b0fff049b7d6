import ConfigPorts
import Foundation

/// Calls `expire` once a watch stream has been silent for a whole period, checking on the
/// connection's clock; every ``touch()`` counts as a sign of life.
///
/// The period is the request timeout until the watch is ``confirmLive()``d (a member that does
/// not even answer is left quickly), then the idle timeout (`nil`: no limit once live). A silence
/// is noticed between one and two periods after it began.
final class IdleTimer: Sendable {
    private struct State: Sendable {
        var activity = 0
        var live = false
        var expired = false
    }

    private let state = Locked(State())
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts watching for silence.
    init(
        clock: any ConfigClock, connecting: TimeInterval, idle: TimeInterval?,
        expire: @escaping @Sendable () -> Void
    ) {
        let state = self.state
        task.withLock { task in
            task = Task {
                var seen = -1
                while true {
                    let current = state.withLock { $0 }
                    guard let period = current.live ? idle : connecting else { return }
                    if current.activity == seen {
                        state.withLock { $0.expired = true }
                        return expire()
                    }
                    seen = current.activity
                    do { try await clock.sleep(for: period) } catch { return }
                }
            }
        }
    }

    /// Whether the stream was found silent and `expire` was called.
    var hasExpired: Bool { state.withLock { $0.expired } }

    /// Something arrived.
    func touch() { state.withLock { $0.activity += 1 } }

    /// The watch was created: from now on, the idle timeout applies.
    func confirmLive() {
        state.withLock { state in
            state.live = true
            state.activity += 1
        }
    }

    /// Stops the timer.
    func stop() { task.withLock { $0?.cancel() } }
}
