import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Holds the one current ``ResolvedState``; readers load it, the refresh path swaps it whole.
///
/// A read takes the lock only long enough to copy one reference, so a reader never waits for a
/// refresh: the new state is built completely before ``replace(_:)`` is called.
///
/// `@unchecked Sendable`: `state` is read and written only while holding `mutex`
/// (`os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere).
final class StateCell: @unchecked Sendable {
    #if canImport(Darwin)
        private let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    private var state: ResolvedState

    init(_ initial: ResolvedState) {
        state = initial
        #if canImport(Darwin)
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: os_unfair_lock())
        #else
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    private func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
        #else
            pthread_mutex_lock(mutex)
        #endif
    }

    @inline(__always)
    private func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(mutex)
        #else
            pthread_mutex_unlock(mutex)
        #endif
    }

    /// The current state.
    @inline(__always)
    func load() -> ResolvedState {
        lock()
        let s = state
        unlock()
        return s
    }

    /// Reads one slot of the current state without retaining the state itself.
    @inline(__always)
    func withCurrent<R>(_ body: (ResolvedState) -> R) -> R {
        lock()
        defer { unlock() }
        return body(state)
    }

    /// Swaps in a new state; returns the previous one.
    @discardableResult
    func replace(_ new: ResolvedState) -> ResolvedState {
        lock()
        let old = state
        state = new
        unlock()
        return old
    }
}
