import ConfigPorts

/// Keeps tests that time a loopback server apart from a test that fills the task pool.
///
/// The fleet simulation keeps 10,000 clients busy on the shared task pool for tens of seconds; on a
/// 2-core machine a loopback server of another test then answers only after its client's timeout.
/// The simulation holds the gate alone (``exclusively(_:)``); every `TestHTTPServer.with` holds it
/// shared (``shared(_:)``), so servers run together, but never while the simulation does.
package final class HeavyWorkGate: Sendable {
    private struct State {
        var sharedHolders = 0
        var exclusiveHeld = false
        var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// The one gate of the test process.
    package static let process = HeavyWorkGate()

    /// A free gate (tests of the gate make their own).
    package init() {}

    /// Runs `body` while no exclusive holder runs.
    @discardableResult
    package func shared<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire(exclusive: false)
        defer { release(exclusive: false) }
        return try await body()
    }

    /// Runs `body` while no one else holds the gate.
    @discardableResult
    package func exclusively<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire(exclusive: true)
        defer { release(exclusive: true) }
        return try await body()
    }

    private func acquire(exclusive: Bool) async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                guard Self.isFree(for: exclusive, state) else {
                    state.waiting.append((exclusive, continuation))
                    return false
                }
                Self.take(exclusive: exclusive, &state)
                return true
            }
            if granted { continuation.resume() }
        }
    }

    private func release(exclusive: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if exclusive { state.exclusiveHeld = false } else { state.sharedHolders -= 1 }
            // Let in, in order, every waiter the gate admits now. A shared holder never waits behind a waiting
            // exclusive one, so a server started inside another's test cannot deadlock the two.
            var admitted: [CheckedContinuation<Void, Never>] = []
            var still: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []
            for next in state.waiting {
                if Self.isFree(for: next.exclusive, state) {
                    Self.take(exclusive: next.exclusive, &state)
                    admitted.append(next.continuation)
                } else {
                    still.append(next)
                }
            }
            state.waiting = still
            return admitted
        }
        for continuation in ready { continuation.resume() }
    }

    private static func isFree(for exclusive: Bool, _ state: State) -> Bool {
        exclusive ? !state.exclusiveHeld && state.sharedHolders == 0 : !state.exclusiveHeld
    }

    private static func take(exclusive: Bool, _ state: inout State) {
        if exclusive { state.exclusiveHeld = true } else { state.sharedHolders += 1 }
    }
}
