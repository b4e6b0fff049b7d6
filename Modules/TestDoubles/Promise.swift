import ConfigPorts

/// A value set once and awaited by any number of tasks; a waiter whose task is cancelled stops waiting.
final class Promise<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    /// Whether ``fulfill(_:)`` was called.
    var isFulfilled: Bool { state.withLock { $0.value != nil } }

    /// Sets the value and resumes every waiter; later calls do nothing.
    func fulfill(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value?, Never>] in
            guard state.value == nil else { return [] }
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value once it is set, or `nil` if the waiting task is cancelled first.
    func wait() async -> Value? {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Either this sees the cancel flag, or the cancellation handler finds the waiter.
                let (done, value) = state.withLock { state -> (Bool, Value?) in
                    if let value = state.value { return (true, value) }
                    if Task.isCancelled { return (true, nil) }
                    state.waiters[id] = continuation
                    return (false, nil)
                }
                if done { continuation.resume(returning: value) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }
}

/// Tasks waiting for a count (sleepers, fetches) to reach their target.
struct CountWaiters {
    private var waiters: [(target: Int, done: Promise<Void>)] = []

    /// A promise fulfilled when the count reaches `target`, or nil when `current` already has.
    mutating func waiter(for target: Int, current: Int) -> Promise<Void>? {
        guard current < target else { return nil }
        let done = Promise<Void>()
        waiters.append((target, done))
        return done
    }

    /// Removes and returns the waiters whose target `count` reaches; fulfil them outside the lock.
    mutating func reached(_ count: Int) -> [Promise<Void>] {
        defer { waiters.removeAll { $0.target <= count } }
        return waiters.filter { $0.target <= count }.map(\.done)
    }
}
