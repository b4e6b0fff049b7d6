import ConfigDomain
import ConfigPorts
import Foundation

/// Takes the signals of a client's push sources into its refresh, one at a time, the newest first.
///
/// A signal naming the version the client holds does nothing. Otherwise `.changed` waits for the
/// refresh that was in flight when the signal arrived (its fetch may predate the change), then
/// refreshes, ignoring the minimum interval and backoff (a server's `Retry-After` still holds);
/// `.payload` is activated without a fetch. Signals that arrive while one is handled wait, and only
/// the newest of them is handled next: a burst of changes costs at most two fetches.
final class PushReceiver: Sendable {
    /// A signal and the refresh that was in flight when it arrived.
    private struct Arrival {
        let signal: ChangeSignal
        let earlierFlight: Task<Result<RefreshResult, ConfigError>, Never>?
    }

    private struct Queue {
        var waiting: Arrival?
        var working = false
        /// Signals received.
        var received = Tally()
        /// Signals received and then handled, or superseded by a newer one.
        var settled = Tally()
    }

    private let engine: RefreshEngine
    private let queue = Locked(Queue())

    init(engine: RefreshEngine) { self.engine = engine }

    /// Reads the signals of the push source named `source` until the stream ends or the calling task is
    /// cancelled; its connection reports go to the engine's status at once, and a source whose stream ended counts as down.
    func consume(_ signals: AsyncStream<ChangeSignal>, from source: String) async {
        for await signal in signals {
            if case .connection(let connection) = signal {
                engine.notePush(source, connection)
            } else {
                receive(signal)
            }
        }
        engine.notePush(source, nil)
    }

    /// Queues `signal` in place of any signal still waiting, and starts the worker if it is idle.
    func receive(_ signal: ChangeSignal) {
        let arrival = Arrival(signal: signal, earlierFlight: engine.currentFlight)
        let (startWorker, ready) = queue.withLock { queue in
            let superseded = queue.waiting == nil ? 0 : 1
            if let waiting = queue.waiting, Self.announces(signal, waiting.signal) {
                // The waiting payload is the very version this signal announces: keep the payload, spare a fetch.
            } else {
                queue.waiting = arrival
            }
            defer { queue.working = true }
            return (!queue.working, queue.received.add(1) + queue.settled.add(superseded))
        }
        for waiter in ready { waiter.resume() }
        if startWorker { Task { await self.work() } }
    }

    /// Handles waiting signals until none is left.
    private func work() async {
        while let arrival = next() {
            await handle(arrival)
            let ready = queue.withLock { $0.settled.add(1) }
            for waiter in ready { waiter.resume() }
        }
    }

    /// The waiting signal, or `nil` (and the worker marked idle) when there is none.
    private func next() -> Arrival? {
        queue.withLock { queue in
            defer { queue.waiting = nil }
            if queue.waiting == nil { queue.working = false }
            return queue.waiting
        }
    }

    private func handle(_ arrival: Arrival) async {
        let signal = arrival.signal
        if isHeld(signal) { return }
        switch signal {
        case .changed:
            if let earlier = arrival.earlierFlight {
                _ = await earlier.value
                if isHeld(signal) { return }
            }
            _ = await engine.refresh(force: true)
        case .payload(let payload):
            _ = await engine.applyPushed(payload)
        case .connection:
            break  // handled as it arrives (consume)
        }
    }

    /// Whether `signal` only announces the version `payload` delivers whole.
    private static func announces(_ signal: ChangeSignal, _ payload: ChangeSignal) -> Bool {
        guard case .changed(let version?) = signal, case .payload(let whole) = payload else { return false }
        return ChangeSignal.isSameVersion(version, as: whole.validators)
    }

    /// Whether the signal names the version the client already holds.
    private func isHeld(_ signal: ChangeSignal) -> Bool {
        signal.version.map(engine.holds(version:)) ?? false
    }

    // MARK: Waiting, for tests

    /// Returns once `count` signals have been received.
    func waitUntilReceived(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = queue.withLock { $0.received.enqueue(continuation, until: count) }
            if ready { continuation.resume() }
        }
    }

    /// Returns once `count` signals have been received and handled (or superseded by a newer one).
    func waitUntilSettled(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = queue.withLock { $0.settled.enqueue(continuation, until: count) }
            if ready { continuation.resume() }
        }
    }
}

/// A count and the tasks waiting for it to reach their targets.
private struct Tally {
    private(set) var count = 0
    private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Adds `amount`; returns the waiters whose target is now reached, to resume outside the lock.
    mutating func add(_ amount: Int) -> [CheckedContinuation<Void, Never>] {
        count += amount
        let ready = waiters.filter { count >= $0.target }.map(\.continuation)
        waiters.removeAll { count >= $0.target }
        return ready
    }

    /// Keeps `continuation` until the count reaches `target`; `true` (not kept) when it already has.
    mutating func enqueue(_ continuation: CheckedContinuation<Void, Never>, until target: Int) -> Bool {
        if count >= target { return true }
        waiters.append((target, continuation))
        return false
    }
}
