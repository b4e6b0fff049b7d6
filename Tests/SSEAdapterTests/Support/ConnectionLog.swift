import ConfigPorts
import Foundation
import SSEAdapter

/// Records a source's connection events and lets a test await the one it expects (never a sleep).
final class ConnectionLog: Sendable {
    private struct State {
        var events: [SSEConnectionEvent] = []
        var waiters:
            [(
                predicate: @Sendable (SSEConnectionEvent) -> Bool, after: Int,
                continuation: CheckedContinuation<SSEConnectionEvent, Never>
            )] = []
    }

    private let state = Locked(State())

    /// Every event so far.
    var events: [SSEConnectionEvent] { state.withLock { $0.events } }

    /// Records an event; pass this as `onEvent`.
    func record(_ event: SSEConnectionEvent) {
        let matched = state.withLock { state in
            state.events.append(event)
            let index = state.events.count - 1
            let matched = state.waiters.filter { index >= $0.after && $0.predicate(event) }
            state.waiters.removeAll { index >= $0.after && $0.predicate(event) }
            return matched.map(\.continuation)
        }
        for continuation in matched { continuation.resume(returning: event) }
    }

    /// The `occurrence`th disconnection's error.
    func disconnection(_ occurrence: Int = 1) async -> SSEError? {
        let event = await waitCounting(occurrence) { if case .disconnected = $0 { true } else { false } }
        if case .disconnected(let error) = event { return error }
        return nil
    }

    /// The `occurrence`th event (1-based) matching `predicate`, once it has happened.
    @discardableResult
    func waitCounting(_ occurrence: Int, _ predicate: @escaping @Sendable (SSEConnectionEvent) -> Bool) async
        -> SSEConnectionEvent
    {
        var last: SSEConnectionEvent?
        for index in 1...max(1, occurrence) { last = await waitIndexed(index, predicate) }
        return last ?? .paused
    }

    /// The `index`th matching event (1-based).
    private func waitIndexed(_ index: Int, _ predicate: @escaping @Sendable (SSEConnectionEvent) -> Bool) async
        -> SSEConnectionEvent
    {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> SSEConnectionEvent? in
                let matching = state.events.enumerated().filter { predicate($0.element) }
                if matching.count >= index { return matching[index - 1].element }
                state.waiters.append((predicate, (matching.last?.offset ?? -1) + 1, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }

    /// The waits announced so far, in seconds.
    var waits: [TimeInterval] { events.compactMap { if case .waiting(let seconds) = $0 { seconds } else { nil } } }
}
