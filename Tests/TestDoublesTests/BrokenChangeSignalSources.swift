import ConfigDomain
import ConfigPorts
import Foundation

@testable import TestDoubles

// Change-signal sources for the contract tests: the in-memory source driven the way a real
// backend would be, and deliberately broken wrappers, each breaking one rule of the contract.

/// How the contract publishes to an in-memory source: versions (`v<revision>`) or whole payloads.
enum SignalDelivery: Sendable { case versions, payloads }

/// The contract for an InMemoryChangeSignalSource-backed source made by `wrap`.
func signalContract<Source: ChangeSignalSource>(
    _ subject: String, delivery: SignalDelivery = .versions, timeLimit: TimeInterval = 30,
    cancellationBound: TimeInterval = 2,
    wrap: @escaping @Sendable (InMemoryChangeSignalSource) -> Source,
    inner: @escaping @Sendable (Source) -> InMemoryChangeSignalSource
) -> ChangeSignalContract<Source> {
    ChangeSignalContract<Source>(
        subject: subject,
        makeSource: { document in
            let etag = "\"r-\(ContentHash(of: document).value)\""
            let current: ChangeSignal =
                switch delivery {
                case .versions: .changed(version: etag)
                case .payloads: .payload(FetchedPayload(bytes: document, validators: Validators(etag: etag), source: "memory"))
                }
            return wrap(InMemoryChangeSignalSource(current: current))
        },
        publish: { source, document in
            let etag = "\"r-\(ContentHash(of: document).value)\""
            switch delivery {
            case .versions: inner(source).announce(version: etag)
            case .payloads:
                inner(source).deliver(FetchedPayload(bytes: document, validators: Validators(etag: etag), source: "memory"))
            }
            return etag
        },
        timeLimit: timeLimit, cancellationBound: cancellationBound)
}

/// Relays `inner`'s signals through `transform`, which sees each signal and returns what to yield instead.
func relay(
    _ upstream: AsyncStream<ChangeSignal>, _ transform: @escaping @Sendable (ChangeSignal) -> [ChangeSignal]
) -> AsyncStream<ChangeSignal> {
    AsyncStream { continuation in
        let task = Task {
            for await signal in upstream { for out in transform(signal) { continuation.yield(out) } }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}

/// Says nothing until the first change: a subscriber cannot tell when it is listening.
struct SilentUntilChangeSignals: ChangeSignalSource {
    let inner: InMemoryChangeSignalSource
    var name: String { inner.name }
    func signals() -> AsyncStream<ChangeSignal> {
        let first = Locked(true)
        return relay(inner.signals()) { signal in
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? [] : [signal]
            }
        }
    }
}

/// Yields the current state and then nothing, though it stays open.
struct FirstOnlySignals: ChangeSignalSource {
    let inner: InMemoryChangeSignalSource
    var name: String { inner.name }
    func signals() -> AsyncStream<ChangeSignal> {
        let first = Locked(true)
        return relay(inner.signals()) { signal in
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? [signal] : []
            }
        }
    }
}

/// After each change, repeats the signal before it: the subscriber sees versions go backwards.
struct RepeatsThePreviousSignal: ChangeSignalSource {
    let inner: InMemoryChangeSignalSource
    var name: String { inner.name }
    func signals() -> AsyncStream<ChangeSignal> {
        let previous = Locked<ChangeSignal?>(nil)
        return relay(inner.signals()) { signal in
            previous.withLock { last in
                defer { last = signal }
                return [signal] + (last.map { [$0] } ?? [])
            }
        }
    }
}

/// Re-encodes payloads (adds a space): the bytes are not what was published.
struct ReencodingSignals: ChangeSignalSource {
    let inner: InMemoryChangeSignalSource
    var name: String { inner.name }
    func signals() -> AsyncStream<ChangeSignal> {
        relay(inner.signals()) { signal in
            guard case .payload(var payload) = signal else { return [signal] }
            payload.bytes = Data(" ".utf8) + payload.bytes
            return [.payload(payload)]
        }
    }
}

/// Keeps one subscription: a new call to `signals()` finishes the previous subscriber's stream.
final class LastSubscriberOnlySignals: ChangeSignalSource {
    let inner: InMemoryChangeSignalSource
    private let subscriber = Locked<(continuation: AsyncStream<ChangeSignal>.Continuation, task: Task<Void, Never>)?>(nil)
    var name: String { inner.name }

    init(inner: InMemoryChangeSignalSource) { self.inner = inner }

    func signals() -> AsyncStream<ChangeSignal> {
        let (stream, continuation) = AsyncStream<ChangeSignal>.makeStream()
        let upstream = inner.signals()
        let task = Task {
            for await signal in upstream { continuation.yield(signal) }
        }
        let previous = subscriber.withLock { current in
            defer { current = (continuation, task) }
            return current
        }
        previous?.task.cancel()
        previous?.continuation.finish()  // Broken: drops the previous subscriber.
        return stream
    }

    deinit { subscriber.withLock { $0?.task.cancel() } }
}

/// The contract over `NeverFinishingSignals` sources, each kept in `parked` for the test to release after the run.
func neverFinishingSignalContract(
    _ subject: String, parking parked: Locked<[NeverFinishingSignals]>
) -> ChangeSignalContract<NeverFinishingSignals> {
    signalContract(
        subject, timeLimit: 15, cancellationBound: 0.2,
        wrap: { inner in
            let source = NeverFinishingSignals(inner: inner)
            parked.withLock { $0.append(source) }
            return source
        },
        inner: { _ in InMemoryChangeSignalSource() })
}

/// An unfolding stream whose wait for the next signal ignores cancellation, so it never ends.
final class NeverFinishingSignals: ChangeSignalSource {
    private let inner: InMemoryChangeSignalSource
    private let parked = Locked<[CheckedContinuation<ChangeSignal?, Never>]>([])
    var name: String { inner.name }

    init(inner: InMemoryChangeSignalSource) { self.inner = inner }

    func signals() -> AsyncStream<ChangeSignal> {
        let sentFirst = Locked(false)
        return AsyncStream(unfolding: { [inner, parked] in
            if !sentFirst.withLock({ sent in
                defer { sent = true }; return sent
            }) {
                return inner.current
            }
            // Broken: waits with no cancellation handler.
            return await withCheckedContinuation { continuation in parked.withLock { $0.append(continuation) } }
        })
    }

    /// Ends every parked wait, so no task outlives the test.
    func releaseAll() {
        let waiting = parked.withLock { parked in
            defer { parked.removeAll() }
            return parked
        }
        for continuation in waiting { continuation.resume(returning: nil) }
    }
}
