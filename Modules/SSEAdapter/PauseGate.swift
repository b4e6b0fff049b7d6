import ConfigPorts
import Foundation

/// Pause and resume for every connection of one source: pausing closes the open connections and
/// holds reconnection until ``resume()``.
final class PauseGate: Sendable {
    private struct State {
        var paused = false
        var nextID: UInt64 = 0
        var connections: [UInt64: AsyncStream<StreamEvent>.Continuation] = [:]
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    /// Whether the source is paused.
    var isPaused: Bool { state.withLock { $0.paused } }

    /// Closes every open connection (each is told `.paused`) and holds new ones.
    func pause() {
        let open = state.withLock { state in
            state.paused = true
            return Array(state.connections.values)
        }
        for connection in open { connection.yield(.paused) }
    }

    /// Lets connections open again, at once.
    func resume() {
        let waiting = state.withLock { state in
            state.paused = false
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Tells `connection` `.paused` when the source pauses (at once if it is paused); returns the id to unregister.
    func register(_ connection: AsyncStream<StreamEvent>.Continuation) -> UInt64 {
        let (id, paused) = state.withLock { state in
            state.nextID += 1
            state.connections[state.nextID] = connection
            return (state.nextID, state.paused)
        }
        if paused { connection.yield(.paused) }
        return id
    }

    /// Stops telling the connection registered as `id`.
    func unregister(_ id: UInt64) {
        _ = state.withLock { $0.connections.removeValue(forKey: id) }
    }

    /// Returns at once when not paused, else when resumed or when the calling task is cancelled.
    func waitWhilePaused() async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let proceed = state.withLock { state -> Bool in
                    if !state.paused || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if proceed { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
