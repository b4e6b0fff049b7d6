import ConfigDomain
import ConfigPorts
import Foundation

/// An override source held in memory, like a debug menu: set and remove values while a client runs and watch it react.
///
/// Each value's origin is `"<name>:<key>"`. Each subscriber of ``changes(for:)`` gets the current
/// state at once, then the newest state each time what it asked for changes (a slow reader skips
/// intermediate states); its stream finishes when the consuming task is cancelled.
public final class InMemoryOverrideSource: OverrideSource {
    private struct Subscriber {
        let keys: [KeyDescriptor]
        let continuation: AsyncStream<OverrideSnapshot>.Continuation
        var last: OverrideSnapshot
    }

    private struct State {
        var values: [String: OverrideValue.Content]
        var problems: [String] = []
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
    }

    /// The source's name, used in origins (`"<name>:<key>"`).
    public let name: String
    private let state: Locked<State>

    /// Creates a source called `name` holding `values`.
    public init(name: String = "memory", values: [String: OverrideValue.Content] = [:]) {
        self.name = name
        state = Locked(State(values: values))
    }

    /// Sets the override for `key` to `content` (a value, or text to coerce).
    public func set(_ key: String, _ content: OverrideValue.Content) { change { $0.values[key] = content } }

    /// Sets the override for `key` to `value`.
    public func set(_ key: String, value: ConfigValue) { set(key, .value(value)) }

    /// Removes the override for `key`.
    public func remove(_ key: String) { change { $0.values[key] = nil } }

    /// Removes every override (reported problems stay; see ``clearProblems()``).
    public func removeAll() { change { $0.values.removeAll() } }

    /// Adds a problem to report with every state, as a real source would for a malformed entry.
    public func report(problem: String) { change { $0.problems.append(problem) } }

    /// Forgets every reported problem.
    public func clearProblems() { change { $0.problems.removeAll() } }

    /// How many streams from ``changes(for:)`` are still open.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The overrides for `keys` (only those keys) and every reported problem.
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        state.withLock { snapshot(of: $0, for: keys) }
    }

    /// The current state for `keys` at once, then each new state; finishes when the consuming task is cancelled.
    public func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        AsyncStream(OverrideSnapshot.self, bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = state.withLock { state -> UInt64 in
                state.nextID += 1
                let current = snapshot(of: state, for: keys)
                state.subscribers[state.nextID] = Subscriber(keys: keys, continuation: continuation, last: current)
                continuation.yield(current)
                return state.nextID
            }
            continuation.onTermination = { [state] _ in
                _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        }
    }

    /// The overrides `state` holds for `keys`, with origins, and its problems.
    private func snapshot(of state: State, for keys: [KeyDescriptor]) -> OverrideSnapshot {
        var found: [String: OverrideValue] = [:]
        for key in keys {
            if let content = state.values[key.name] { found[key.name] = OverrideValue(content, origin: "\(name):\(key.name)") }
        }
        return OverrideSnapshot(values: found, problems: state.problems)
    }

    /// Applies `body`, then yields the new state to every subscriber whose view changed (yielding under the lock keeps the order).
    private func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            body(&state)
            for (id, subscriber) in state.subscribers {
                let current = snapshot(of: state, for: subscriber.keys)
                guard current != subscriber.last else { continue }
                state.subscribers[id]?.last = current
                subscriber.continuation.yield(current)
            }
        }
    }
}
