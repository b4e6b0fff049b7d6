import ConfigDomain
import ConfigPorts
import Foundation

/// An override source held in memory, like a debug menu: set and remove values while a client runs and watch it react.
///
/// ``overrides(for:)`` answers only for the keys it is asked about; each value's origin is
/// `"<name>:<key>"`. ``changes(for:)`` yields the current state at once, then a new state each
/// time what that subscriber sees changes (a change to a key it did not ask for yields nothing).
/// Each subscriber has its own buffer holding only the newest state, so a slow reader skips
/// intermediate states but always gets the latest. A stream finishes when its consuming task is
/// cancelled, and the subscriber is removed.
public final class InMemoryOverrideSource: SynchronousOverrideSource {
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

        func snapshot(for keys: [KeyDescriptor], source: String) -> OverrideSnapshot {
            var found: [String: OverrideValue] = [:]
            for key in keys {
                if let content = values[key.name] {
                    found[key.name] = OverrideValue(content, origin: "\(source):\(key.name)")
                }
            }
            return OverrideSnapshot(values: found, problems: problems)
        }

        /// Yields the new state to every subscriber whose view changed. Yielding never blocks
        /// and never runs `onTermination`, so it is safe under the lock, and it keeps the order.
        mutating func publish(source: String) {
            for (id, subscriber) in subscribers {
                let current = snapshot(for: subscriber.keys, source: source)
                guard current != subscriber.last else { continue }
                subscribers[id]?.last = current
                subscriber.continuation.yield(current)
            }
        }
    }

    /// The source's name, used in origins (`"<name>:<key>"`).
    public let name: String
    private let state: LockedState<State>

    /// Creates a source called `name` holding `values`.
    public init(name: String = "memory", values: [String: OverrideValue.Content] = [:]) {
        self.name = name
        state = LockedState(State(values: values))
    }

    /// Sets the override for `key` to `content` (a value, or text to coerce).
    public func set(_ key: String, _ content: OverrideValue.Content) {
        state.withLock { state in
            state.values[key] = content
            state.publish(source: name)
        }
    }

    /// Sets the override for `key` to `value`.
    public func set(_ key: String, value: ConfigValue) { set(key, .value(value)) }

    /// Removes the override for `key`.
    public func remove(_ key: String) {
        state.withLock { state in
            state.values[key] = nil
            state.publish(source: name)
        }
    }

    /// Removes every override (reported problems stay; see ``clearProblems()``).
    public func removeAll() {
        state.withLock { state in
            state.values.removeAll()
            state.publish(source: name)
        }
    }

    /// Adds a problem to report with every state, as a real source would for a malformed entry.
    public func report(problem: String) {
        state.withLock { state in
            state.problems.append(problem)
            state.publish(source: name)
        }
    }

    /// Forgets every reported problem.
    public func clearProblems() {
        state.withLock { state in
            state.problems.removeAll()
            state.publish(source: name)
        }
    }

    /// How many streams from ``changes(for:)`` are still open.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The overrides for `keys` (only those keys) and every reported problem.
    public func overrides(for keys: [KeyDescriptor]) async -> OverrideSnapshot {
        overridesSynchronously(for: keys)
    }

    /// The current overrides for `keys`, on the calling thread.
    public func overridesSynchronously(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        state.withLock { $0.snapshot(for: keys, source: name) }
    }

    /// The current state for `keys` at once, then each new state; finishes when the consuming task is cancelled.
    public func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> {
        AsyncStream(OverrideSnapshot.self, bufferingPolicy: .bufferingNewest(1)) { continuation in
            let id = state.withLock { state -> UInt64 in
                state.nextID += 1
                let current = state.snapshot(for: keys, source: name)
                state.subscribers[state.nextID] = Subscriber(keys: keys, continuation: continuation, last: current)
                continuation.yield(current)
                return state.nextID
            }
            continuation.onTermination = { [state] _ in
                _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        }
    }
}
