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
