import ConfigPorts
import Dispatch
import Foundation

/// A value that arrives once, awaited by any number of tasks, each with or without a time limit.
///
/// Test harnesses use it to wait for an event (a child's exit, a line of output, a request reaching a
/// server) instead of sleeping. A time limit is a safety net of the harness, never a timed assertion.
package final class Eventual<Value: Sendable>: Sendable {
    private struct Waiter {
        var deliver: @Sendable (Value) -> Void
        var expire: @Sendable () -> Void
    }

    private struct State {
        var value: Value?
        var waiters: [UUID: Waiter] = [:]
    }

    private let state = Locked(State())

    /// An eventual value that has not arrived yet.
    package init() {}

    /// The value, if it has arrived.
    package var current: Value? {
        state.withLock { $0.value }
    }

    /// Delivers `newValue` to every waiter, now and later; true only for the first call.
    @discardableResult
    package func set(_ newValue: Value) -> Bool {
        let waiting = state.withLock { state -> [Waiter]? in
            guard state.value == nil else { return nil }
            state.value = newValue
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiting else { return false }
        for waiter in waiting { waiter.deliver(newValue) }
        return true
    }

    /// Waits for the value, however long it takes.
    package func value() async -> Value {
        await withCheckedContinuation { continuation in
            register(Waiter(deliver: { continuation.resume(returning: $0) }, expire: {}), timeout: nil)
        }
    }

    /// Waits for the value, or nil when `seconds` pass first.
    package func value(within seconds: TimeInterval) async -> Value? {
        await withCheckedContinuation { continuation in
            register(
                Waiter(deliver: { continuation.resume(returning: $0) }, expire: { continuation.resume(returning: nil) }),
                timeout: seconds)
        }
    }

    private func register(_ waiter: Waiter, timeout: TimeInterval?) {
        let id = UUID()
        let value = state.withLock { state -> Value? in
            if let value = state.value { return value }
            state.waiters[id] = waiter
            return nil
        }
        if let value {
            waiter.deliver(value)
            return
        }
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { self.expire(id) }
        }
    }

    private func expire(_ id: UUID) {
        state.withLock { $0.waiters.removeValue(forKey: id) }?.expire()
    }
}
