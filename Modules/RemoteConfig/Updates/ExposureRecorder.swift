import ConfigDomain
import ConfigPorts
import Foundation

/// Reports each rule-decided value's first read per key, variant and targeting key, off the read path.
///
/// A read records into a set under a lock and, the first time only, queues the exposure; a task of
/// its own hands the queue to the client's observers and event streams. The set forgets everything
/// once it holds ``limit`` entries, so a long-running server's memory stays bounded (an exposure may
/// then be reported again, which analytics pipelines deduplicate anyway).
final class ExposureRecorder: Sendable {
    /// How many key, variant and targeting-key triples are remembered before the set starts over.
    static let limit = 100_000

    private let seen = Locked(Set<String>())
    private let queue: AsyncStream<Exposure>.Continuation

    init(sink: EventSink) {
        let (stream, queue) = AsyncStream<Exposure>.makeStream()
        self.queue = queue
        Task {
            for await exposure in stream { sink.emit(.exposure(exposure)) }
        }
    }

    /// Queues `details` as an exposure when a rule or rollout decided it and it was not reported yet for `context`'s targeting key.
    func record<Value>(_ details: EvaluationDetails<Value>, of key: ConfigKey<Value>, for context: EvaluationContext) {
        guard details.reason == .targetingMatch || details.reason == .split else { return }
        let rendered = key.render(details.value)
        let id = [key.name, details.variant ?? "=" + rendered, context.targetingKey ?? ""].joined(separator: "\u{1F}")
        let isNew = seen.withLock { seen in
            if seen.count >= Self.limit { seen.removeAll(keepingCapacity: true) }
            return seen.insert(id).inserted
        }
        guard isNew else { return }
        queue.yield(
            Exposure(
                key: key.name, variant: details.variant, value: rendered, reason: details.reason,
                ruleID: details.decision?.match?.ruleID, targetingKey: context.targetingKey))
    }

    /// Ends the delivery task once the queue is drained.
    func finish() { queue.finish() }
}
