import ConfigDomain
import Foundation

/// Resolves every registered key, layer by layer, into one immutable ``ResolvedState``.
///
/// Order per key: overrides (in the order added) > the active snapshot > the last good value of
/// that key from an earlier snapshot (only when the active snapshot's value was rejected) > the
/// default. A candidate that does not convert or fails a rule is rejected alone and the next
/// layer is tried. All conversion and validation happens here, once per activation, in one pass
/// that also finds what changed since the previous state.
struct Resolver: Sendable {
    let registry: KeyRegistry

    struct Output {
        let state: ResolvedState
        /// Rejections the previous state did not already hold for the same key (all of them without one): for events.
        let newRejections: [Rejection]
        /// Keys whose value differs from the previous state's, in registration order (empty without one).
        let changedKeys: [String]
        /// How many of the snapshot's keys no registered key reads (0 without a snapshot).
        let unreadSnapshotKeys: Int
    }

    /// Resolves every key against `snapshot` and `overrides`.
    ///
    /// - Parameter previous: the state this one replaces: it supplies each key's last good value,
    ///   the rejections already reported, and the values to compare for ``Output/changedKeys``.
    func resolve(
        snapshot: ConfigSnapshot?, previous: ResolvedState?, overrides: [OverrideLayer], generation: UInt64
    ) -> Output {
        let entries = registry.entries
        let count = entries.count
        var boxes = ContiguousArray<any AnyObject & Sendable>()
        boxes.reserveCapacity(count)
        var details: [SlotDetail] = []
        details.reserveCapacity(count)
        var lastGood: [LastGood?] = Array(repeating: nil, count: count)
        var newRejections: [Rejection] = []
        var changed: [String] = []
        var matchedSnapshotKeys = 0
        let snapshotValues = snapshot?.values ?? [:]
        let snapshotSource = snapshot?.metadata.source ?? ""
        let snapshotOrigin = snapshot == nil ? "snapshot" : "snapshot \(snapshotSource)"
        let snapshotLayer = ValueLayer.snapshot(source: snapshotSource)

        for slot in 0..<count {
            let entry = entries[slot]
            var rejected: [Rejection] = []
            // The winner so far, as three variables: an optional tuple would be copied whole (and
            // retained field by field) at every step, a measurable cost at a thousand keys.
            var found = false
            var box = entry.defaultBox
            var raw: ConfigValue? = nil
            var layer = ValueLayer.defaultValue

            for position in overrides.indices {
                let source = overrides[position]
                guard let candidate = source.snapshot.values[entry.name] else { continue }
                let outcome: ErasedKey.Outcome
                switch candidate.content {
                case .value(let value): outcome = entry.resolveValue(value, origin: candidate.origin)
                case .text(let text): outcome = entry.resolveText(text, origin: candidate.origin)
                }
                if case .accepted(let accepted, let acceptedRaw) = outcome {
                    (found, box, raw) = (true, accepted, acceptedRaw)
                    layer = .override(source: source.name, position: position, origin: candidate.origin)
                    break
                } else if case .rejected(let rejection) = outcome {
                    rejected.append(rejection)
                }
            }

            if let value = snapshotValues[entry.name] {
                matchedSnapshotKeys &+= 1
                switch entry.resolveValue(value, origin: snapshotOrigin) {
                case .accepted(let accepted, let acceptedRaw):
                    lastGood[slot] = LastGood(box: accepted, raw: acceptedRaw, source: snapshotSource)
                    if !found { (found, box, raw, layer) = (true, accepted, acceptedRaw, snapshotLayer) }
                case .rejected(let rejection):
                    rejected.append(rejection)
                    if let kept = previous?.lastGood[slot] {
                        lastGood[slot] = kept
                        if !found {
                            (found, box, raw, layer) = (true, kept.box, kept.raw, .lastGoodSnapshot(source: kept.source))
                        }
                    }
                }
            }

            // Asked for only when the default wins: a `Decodable` key renders its default on demand.
            if !found { raw = entry.defaultRaw }
            boxes.append(box)
            details.append(SlotDetail(layer: layer, raw: raw, rejected: rejected))

            guard let previous else {
                if !rejected.isEmpty { newRejections.append(contentsOf: rejected) }
                continue
            }
            let before = previous.details[slot]
            for rejection in rejected where !before.rejected.contains(rejection) { newRejections.append(rejection) }
            if before.raw != raw
                || (raw == nil
                    && (before.layer != layer
                        || entry.render(previous.boxes[slot]) != entry.render(box)))
            {
                changed.append(entry.name)
            }
        }

        let state = ResolvedState(
            boxes: boxes, details: details, snapshot: snapshot, lastGood: lastGood, overrides: overrides,
            generation: generation)
        return Output(
            state: state, newRejections: newRejections, changedKeys: changed,
            unreadSnapshotKeys: snapshotValues.count - matchedSnapshotKeys)
    }
}
