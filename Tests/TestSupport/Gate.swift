import Foundation

/// Holds the tasks that wait on it until the test releases them (never a sleep).
///
/// ``open()`` lets every waiter through, now and later; ``releaseWaiting()`` lets through only
/// those waiting now, and later waiters are held again.
package final class Gate: @unchecked Sendable {
    // @unchecked Sendable: `opened` and `round` are only touched while holding `lock`.
    private let lock = NSLock()
    private var opened = false
    /// What the current waiters wait for; replaced by each ``releaseWaiting()``.
    private var round = Eventual<Void>()

    /// A closed gate.
    package init() {}

    /// Suspends until the gate opens or releases its waiters (returns at once if it is open).
    package func wait() async {
        if let current = currentRound() { await current.value() }
    }

    /// What a waiter waits for now, or nil when the gate is open.
    private func currentRound() -> Eventual<Void>? {
        lock.lock()
        defer { lock.unlock() }
        return opened ? nil : round
    }

    /// Opens the gate for good, releasing every waiter.
    package func open() {
        lock.lock()
        opened = true
        let current = round
        lock.unlock()
        current.set(())
    }

    /// Releases the tasks waiting now; the gate stays closed to later ones.
    package func releaseWaiting() {
        lock.lock()
        let current = round
        round = Eventual()
        lock.unlock()
        current.set(())
    }
}
