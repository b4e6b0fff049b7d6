import ConfigDomain
import ConfigPorts
import Foundation

/// Reports each rule-decided value's first read per key, variant (or value) and targeting key, off
/// the read path.
///
/// A read of the value a state holds checks the state's ``ExposureMarks`` first: once a slot was
/// checked in a state, a repeated read costs one atomic load. Otherwise the exposure is looked up in a
/// set under a lock and, the first time only, rendered and queued; a task of its own hands the queue
/// to the client's observers and event streams. The set forgets everything once it holds ``limit``
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

    /// Records the read of the value `state` holds in `slot`, once per state: a rule-decided value is
    /// reported the first time it is read for the state's targeting key.
    func recordStoredRead(slot: Int, in state: ResolvedState, registry: KeyRegistry) {
        var marks: ExposureMarks?
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            // Made by `ExposureMarks.make` on these systems only.
            marks = state.exposureMarks.map { unsafeDowncast($0, to: ExposureMarks.self) }
            if marks?.isMarked(slot) == true { return }
        }
        defer { marks?.mark(slot) }
        guard slot < state.answers.count, let answer = state.answers[slot] else { return }
        record(
            key: registry.names[slot], raw: answer.raw, reason: answer.reason, variant: answer.variant,
            ruleID: answer.ruleID, targetingKey: state.context.targetingKey
        ) { registry.render(slot, state.values[slot]) }
    }

    /// Records a read whose value `key` took from an evaluation, when a rule or rollout decided it.
    func record<Value>(_ key: ConfigKey<Value>, value: Value, answer: SlotAnswer, for context: EvaluationContext) {
        record(
            key: key.name, raw: answer.raw, reason: answer.reason, variant: answer.variant, ruleID: answer.ruleID,
            targetingKey: context.targetingKey
        ) { key.render(value) }
    }

    /// Records a read whose details were evaluated, when a rule or rollout decided the value.
    func record<Value>(_ key: ConfigKey<Value>, details: EvaluationDetails<Value>) {
        guard case .snapshot = details.layer else { return }
        record(
            key: key.name, raw: details.variant == nil ? key.converter.toValue(details.value) : nil, reason: details.reason,
            variant: details.variant, ruleID: details.decision?.match?.ruleID, targetingKey: details.context?.targetingKey
        ) { key.render(details.value) }
    }

    /// Queues the exposure unless it was reported already; `render` gives the value's text, the first time only.
    private func record(
        key: String, raw: ConfigValue?, reason: EvaluationReason, variant: String?, ruleID: String?, targetingKey: String?,
        render: () -> String
    ) {
        guard reason == .targetingMatch || reason == .split else { return }
        let identity = Seen(key: key, variant: variant, raw: variant == nil ? raw : nil, targetingKey: targetingKey)
        let isNew = seen.withLock { seen in
            if seen.contains(identity) { return false }
            if seen.count >= Self.limit { seen.removeAll(keepingCapacity: true) }
            seen.insert(identity)
            return true
        }
        guard isNew else { return }
        queue.yield(
            Exposure(key: key, variant: variant, value: render(), reason: reason, ruleID: ruleID, targetingKey: targetingKey))
    }

    /// Ends the delivery task once the queue is drained.
    func finish() { queue.finish() }
}
