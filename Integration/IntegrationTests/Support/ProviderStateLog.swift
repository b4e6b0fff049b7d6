import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestSupport

/// The provider states of a client: its state when the log starts, then each change it reports
/// (`ConfigEvent.stateChanged`), in order, with a wait for the one a test expects.
final class ProviderStateLog: Sendable {
    private struct State {
        var states: [ProviderState] = []
        var reasons: [String] = []
        var waiters: [(predicate: @Sendable ([ProviderState]) -> Bool, met: Eventual<Void>)] = []
    }

    private let state: Locked<State>
    private let reading: Task<Void, Never>

    /// Starts reading `client`'s events; it stops when the client stops.
    init(_ client: RemoteConfigClient) {
        // Subscribe first, then read the state: a change between the two is reported on the
        // subscription (reading the status reports a change not reported yet), never lost.
        let events = client.events()
        let current = client.status.state
        let state = Locked(State(states: [current], reasons: ["\(current) when the log started"]))
        self.state = state
        reading = Task {
            for await event in events {
                guard case .stateChanged(_, _, let to, let reason) = event else { continue }
                let met = state.withLock { state -> [Eventual<Void>] in
                    state.states.append(to)
                    state.reasons.append("\(to): \(reason)")
                    let met = state.waiters.filter { $0.predicate(state.states) }.map(\.met)
                    state.waiters.removeAll { $0.predicate(state.states) }
                    return met
                }
                for waiter in met { waiter.set(()) }
            }
        }
    }

    /// The states reported so far.
    var states: [ProviderState] { state.withLock { $0.states } }

    /// The states reported so far, each with its reason, for messages.
    var history: String { state.withLock { $0.reasons.joined(separator: "; ") } }

    /// Waits until the states reported satisfy `predicate`; false when `seconds` pass first (a safety net).
    func wait(within seconds: TimeInterval = 20, until predicate: @escaping @Sendable ([ProviderState]) -> Bool) async -> Bool {
        let met = Eventual<Void>()
        let already = state.withLock { state in
            if predicate(state.states) { return true }
            state.waiters.append((predicate, met))
            return false
        }
        if already { return true }
        return await met.value(within: seconds) != nil
    }

    /// Waits until `target` is reported at position `from` or later (0 is the state the log started
    /// with); false when `seconds` pass first.
    func waitFor(_ target: ProviderState, from: Int = 0, within seconds: TimeInterval = 20) async -> Bool {
        await wait(within: seconds) { $0.dropFirst(from).contains(target) }
    }

    /// Waits until the latest state is `target`; false when `seconds` pass first. Before a fault, so
    /// that a heartbeat missed on a loaded machine (`STALE`, then `READY` on reconnecting) is over
    /// before the states the fault causes are counted.
    func waitUntilLatest(_ target: ProviderState, within seconds: TimeInterval = 20) async -> Bool {
        await wait(within: seconds) { $0.last == target }
    }

    /// Whether the states from position `from` on went to `STALE` and later back to `READY`.
    func wentStaleAndBack(from: Int) -> Bool {
        let later = states.dropFirst(from)
        guard let stale = later.firstIndex(of: .stale) else { return false }
        return later[stale...].contains(.ready)
    }

    /// Waits until the client stops (its event stream ends).
    func finish() async { await reading.value }
}
