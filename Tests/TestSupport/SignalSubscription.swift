import ConfigPorts
import Foundation

/// A push source's subscription read by a task of its own, so a test can end it (``stop()``) when
/// it is done: a `ChangeSignalSource` ends a subscription only when its consuming task is cancelled,
/// and dropping an iterator does not cancel anything.
///
/// ```swift
/// let subscription = SignalSubscription(watcher)
/// defer { subscription.stop() }
/// var signals = subscription.signals.makeAsyncIterator()
/// ```
package final class SignalSubscription: Sendable {
    /// The source's signals, as they arrive.
    package let signals: AsyncStream<ChangeSignal>
    private let task: Task<Void, Never>

    /// Subscribes to `source`.
    package init(_ source: some ChangeSignalSource) {
        let (signals, continuation) = AsyncStream.makeStream(of: ChangeSignal.self)
        self.signals = signals
        task = Task {
            for await signal in source.signals() { continuation.yield(signal) }
            continuation.finish()
        }
    }

    /// Ends the subscription (its connection closes) and the stream of ``signals``.
    package func stop() { task.cancel() }
}
