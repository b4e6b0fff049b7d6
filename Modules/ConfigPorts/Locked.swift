import Foundation

/// A value guarded by a lock: the one way shared mutable state is kept in this package.
///
/// Every module of the package (the client and the adapters) uses this type and no other lock.
/// `withLock` must not `await` (it cannot: the closure is synchronous) and should return quickly;
/// resume continuations and call out to user code after it returns.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, under `lock`.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Creates the lock with its first value.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value, taken under the lock.
    package var current: Value { withLock { $0 } }
}
