import ConfigDomain
import ConfigPorts
import Foundation

/// An observer that records every event and lets a test await the one it expects.
///
/// ```swift
/// let observer = RecordingObserver()
/// // build a client with `observer`, trigger a refresh …
/// let event = await observer.waitFor { if case .activated = $0 { true } else { false } }
/// ```
public final class RecordingObserver: ConfigObserver {
    private struct State {
        var events: [ConfigEvent] = []
        var waiters: [(predicate: @Sendable (ConfigEvent) -> Bool, continuation: CheckedContinuation<ConfigEvent, Never>)] = []
    }

    private let state = Locked(State())

    /// Creates an observer with no events.
    public init() {}

    /// Every event received, in order.
    public var events: [ConfigEvent] { state.withLock { $0.events } }

    /// Forgets the events received so far (waiters keep waiting).
    public func removeAllEvents() { state.withLock { $0.events.removeAll() } }

    /// Records `event` and resumes every waiter it matches.
    public func receive(_ event: ConfigEvent) {
        let matched = state.withLock { state -> [CheckedContinuation<ConfigEvent, Never>] in
            state.events.append(event)
            let matched = state.waiters.filter { $0.predicate(event) }
            state.waiters.removeAll { $0.predicate(event) }
            return matched.map(\.continuation)
        }
        for continuation in matched { continuation.resume(returning: event) }
    }

    /// The first recorded event matching `predicate`, or else the next one to arrive; it does not return on cancellation.
    ///
    /// `predicate` runs under the observer's lock: it must look only at the event, never at this observer.
    public func waitFor(_ predicate: @escaping @Sendable (ConfigEvent) -> Bool) async -> ConfigEvent {
        await withCheckedContinuation { (continuation: CheckedContinuation<ConfigEvent, Never>) in
            let found = state.withLock { state -> ConfigEvent? in
                if let event = state.events.first(where: predicate) { return event }
                state.waiters.append((predicate, continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }
}
