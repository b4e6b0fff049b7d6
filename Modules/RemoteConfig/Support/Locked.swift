import Foundation

/// A value guarded by a lock, for the client's small pieces of mutable bookkeeping.
///
/// Not for state a client makes while it is built: there, each `Locked<Value>` is a generic
/// type whose metadata the runtime makes from its mangled name before the first read, so that
/// state has a non-generic class of its own with the same shape (`EngineStatusCell`,
/// `ClientBookkeeping`, `NormalisedNameTable`).
///
/// `@unchecked Sendable`: every access to `value` happens inside `withLock`, under `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}
