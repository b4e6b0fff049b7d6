import ConfigPorts
import Foundation

/// Holds the tasks that wait on it until the test releases them (never a sleep).
///
/// ``open()`` lets every waiter through, now and later; ``releaseWaiting()`` lets through only
/// those waiting now, and later waiters are held again.
package final class Gate: Sendable {
    private struct State {
        var opened = false
        /// What the current waiters wait for; replaced by each ``releaseWaiting()``.
        var round = Eventual<Void>()
    }

    private let state = Locked(State())

    /// A closed gate.
    package init() {}

    /// Suspends until the gate opens or releases its waiters (returns at once if it is open).
    package func wait() async {
        if let current = currentRound() { await current.value() }
    }

    /// What a waiter waits for now, or nil when the gate is open.
    private func currentRound() -> Eventual<Void>? {
        state.withLock { $0.opened ? nil : $0.round }
    }

    /// Opens the gate for good, releasing every waiter.
    package func open() {
        let current = state.withLock { state -> Eventual<Void> in
            state.opened = true
            return state.round
        }
        current.set(())
    }

    /// Releases the tasks waiting now; the gate stays closed to later ones.
    package func releaseWaiting() {
        let current = state.withLock { state -> Eventual<Void> in
            defer { state.round = Eventual() }
            return state.round
        }
        current.set(())
    }
}
