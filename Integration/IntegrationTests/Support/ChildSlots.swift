import ConfigPorts

/// A counting semaphore for child processes: at most `count` hold a slot; the others wait in order.
final class ChildSlots: Sendable {
    private struct State {
        /// Slots nobody holds.
        var free: Int
        /// Tasks waiting for a slot, longest-waiting first.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// A pool of `count` free slots.
    init(count: Int) { state = Locked(State(free: count)) }

    /// Waits for a slot.
    func acquire() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiters.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
