import ConfigDomain
import ConfigPorts
import Foundation

/// A push source held in memory: send signals to every subscribed client and watch it react.
///
/// It remembers the last signal sent as the current state: each new subscriber of ``signals()``
/// gets it first (`.changed(version: nil)` until something is sent), then every later signal in
/// order. A stream finishes when its consuming task is cancelled.
///
/// ```swift
/// let fetcher = InMemoryFetcher(json: #"{"a":1}"#)
/// let push = InMemoryChangeSignalSource()
/// let client = try RemoteConfigClient.builder(fetcher: fetcher).push(push).build()
/// await push.waitForSubscribers(count: 1)
/// fetcher.serve(json: #"{"a":2}"#)
/// push.send(.changed(version: fetcher.currentETag))
/// ```
public final class InMemoryChangeSignalSource: ChangeSignalSource {
    private struct State {
        var current: ChangeSignal
        var subscribers: [UInt64: AsyncStream<ChangeSignal>.Continuation] = [:]
        var nextID: UInt64 = 0
        var opened = 0
        var countWaiters = CountWaiters()
        var emptyWaiters: [Promise<Void>] = []
    }

    /// The source's name.
    public let name: String
    private let state: Locked<State>

    /// Creates a source called `name` whose current state is `current`.
    public init(name: String = "memory-push", current: ChangeSignal = .changed(version: nil)) {
        self.name = name
        state = Locked(State(current: current))
    }

    /// Yields `signal` to every subscriber; a change (not a connection report) becomes the current state.
    public func send(_ signal: ChangeSignal) {
        state.withLock { state in
            if signal.isChange { state.current = signal }
            // Yielding under the lock keeps every subscriber's order the order of `send` calls.
            for continuation in state.subscribers.values { continuation.yield(signal) }
        }
    }

    /// Announces a new version: `send(.changed(version: version))`.
    public func announce(version: String?) { send(.changed(version: version)) }

    /// Delivers a whole payload: `send(.payload(payload))`.
    public func deliver(_ payload: FetchedPayload) { send(.payload(payload)) }

    /// Reports the connection to every subscriber: `send(.connection(connection))`.
    public func report(_ connection: PushConnection) { send(.connection(connection)) }

    /// The signal new subscribers get first.
    public var current: ChangeSignal { state.withLock { $0.current } }

    /// How many streams from ``signals()`` are open now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// How many times ``signals()`` was called.
    public var subscriptionCount: Int { state.withLock { $0.opened } }

    /// Returns once at least `count` streams are open, or when the waiting task is cancelled.
    public func waitForSubscribers(count: Int) async {
        let done = state.withLock { $0.countWaiters.waiter(for: count, current: $0.subscribers.count) }
        _ = await done?.wait()
    }

    /// Returns once no stream is open (every consumer cancelled), or when the waiting task is cancelled.
    public func waitUntilNoSubscribers() async {
        let done = state.withLock { state -> Promise<Void>? in
            guard !state.subscribers.isEmpty else { return nil }
            let done = Promise<Void>()
            state.emptyWaiters.append(done)
            return done
        }
        _ = await done?.wait()
    }

    /// The current state at once, then every signal sent; finishes when the consuming task is cancelled.
    public func signals() -> AsyncStream<ChangeSignal> {
        let (stream, continuation) = AsyncStream<ChangeSignal>.makeStream()
        let (id, ready) = state.withLock { state -> (UInt64, [Promise<Void>]) in
            state.nextID += 1
            state.opened += 1
            state.subscribers[state.nextID] = continuation
            continuation.yield(state.current)
            return (state.nextID, state.countWaiters.reached(state.subscribers.count))
        }
        continuation.onTermination = { [state] _ in
            let emptied = state.withLock { state -> [Promise<Void>] in
                state.subscribers.removeValue(forKey: id)
                guard state.subscribers.isEmpty else { return [] }
                defer { state.emptyWaiters = [] }
                return state.emptyWaiters
            }
            for waiter in emptied { waiter.fulfill(()) }
        }
        for waiter in ready { waiter.fulfill(()) }
        return stream
    }
}
