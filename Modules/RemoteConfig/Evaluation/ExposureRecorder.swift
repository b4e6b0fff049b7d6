import ConfigDomain
import ConfigPorts
import Foundation

/// Reports each rule-decided value's first read per key, variant (or value) and targeting key, off
/// the read path.
///
/// A read looks its exposure up in a set under a lock and, the first time only, renders it and queues
/// it; a task of its own hands the queue to the client's observers and event streams. A repeated read
/// costs the lookup: no allocation, no rendering. The set forgets everything once it holds ``limit``
/// entries, so a long-running server's memory stays bounded (an exposure may then be reported again,
/// which analytics pipelines deduplicate anyway).
final class ExposureRecorder: Sendable {
    /// How many key, variant and targeting-key triples are remembered before the set starts over.
    static let limit = 100_000

    /// One exposure's identity: the key, what was served (its variant, else its raw value) and to whom.
    private struct Seen: Hashable {
        let key: String
        let variant: String?
        let raw: ConfigValue?
        let targetingKey: String?
    }

    private let seen = Locked(Set<Seen>())
    private let queue: AsyncStream<Exposure>.Continuation

    init(sink: EventSink) {
        let (stream, queue) = AsyncStream<Exposure>.makeStream()
        self.queue = queue
        Task {
            for await exposure in stream { sink.emit(.exposure(exposure)) }
        }
    }

    /// Records the read of `value`, decided by `answer` for `context`, when a rule or rollout decided it.
    func record<Value>(_ key: ConfigKey<Value>, value: Value, answer: SlotAnswer, for context: EvaluationContext) {
        record(
            key, value: value, raw: answer.raw, reason: answer.reason, variant: answer.variant, ruleID: answer.ruleID,
            targetingKey: context.targetingKey)
    }

    /// Records a read whose details were evaluated, when a rule or rollout decided the value.
    func record<Value>(_ key: ConfigKey<Value>, details: EvaluationDetails<Value>) {
        guard case .snapshot = details.layer else { return }
        record(
            key, value: details.value, raw: nil, reason: details.reason, variant: details.variant,
            ruleID: details.decision?.match?.ruleID, targetingKey: details.context?.targetingKey)
    }

    private func record<Value>(
        _ key: ConfigKey<Value>, value: Value, raw: ConfigValue?, reason: EvaluationReason, variant: String?, ruleID: String?,
        targetingKey: String?
    ) {
        guard reason == .targetingMatch || reason == .split else { return }
        let identity = Seen(
            key: key.name, variant: variant, raw: variant == nil ? raw ?? key.converter.toValue(value) : nil,
            targetingKey: targetingKey)
        let isNew = seen.withLock { seen in
            if seen.count >= Self.limit { seen.removeAll(keepingCapacity: true) }
            return seen.insert(identity).inserted
        }
        guard isNew else { return }
        queue.yield(
            Exposure(
                key: key.name, variant: variant, value: key.render(value), reason: reason, ruleID: ruleID,
                targetingKey: targetingKey))
    }

    /// Ends the delivery task once the queue is drained.
    func finish() { queue.finish() }
}
