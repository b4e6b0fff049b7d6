import Dispatch
import Foundation

/// A value that arrives once, awaited by any number of tasks, each with or without a time limit.
///
/// Test harnesses use it to wait for an event (a child's exit, a line of output, a request reaching a
/// server) instead of sleeping. A time limit is a safety net of the harness, never a timed assertion.
package final class Eventual<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` and `waiters` are only touched while holding `lock`.
    private struct Waiter {
        var deliver: @Sendable (Value) -> Void
        var expire: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var value: Value?
    private var waiters: [UUID: Waiter] = [:]

    /// An eventual value that has not arrived yet.
    package init() {}

    /// The value, if it has arrived.
    package var current: Value? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    /// Delivers `newValue` to every waiter, now and later; true only for the first call.
    @discardableResult
    package func set(_ newValue: Value) -> Bool {
        lock.lock()
        guard value == nil else {
            lock.unlock()
            return false
        }
        value = newValue
        let waiting = waiters.values
        waiters = [:]
        lock.unlock()
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
        lock.lock()
        if let value {
            lock.unlock()
            waiter.deliver(value)
            return
        }
        let id = UUID()
        waiters[id] = waiter
        lock.unlock()
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { self.expire(id) }
        }
    }

    private func expire(_ id: UUID) {
        lock.lock()
        let waiter = waiters.removeValue(forKey: id)
        lock.unlock()
        waiter?.expire()
    }
}
