import Foundation

/// A value guarded by an `NSLock`: the one place in `TestDoubles` that makes mutable state shareable.
///
/// Every double keeps its mutable state in one of these and resumes continuations only after the
/// lock is released, so a resumed task never runs while the lock is held.
// @unchecked Sendable: `state` is only read or written inside `withLock`, which holds `lock`.
final class LockedState<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Creates the box with its first value.
    init(_ initial: State) { state = initial }

    /// Runs `body` with exclusive access to the state.
    func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
