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

    /// The snapshot-wide inputs of a resolution, computed once per pass.
    struct SnapshotContext {
        /// The snapshot itself, not its values copied out: the compiler copies a dictionary out of
        /// an optional through a shared helper that needs the dictionary type's metadata, which
        /// costs a conformance lookup at launch (see `NormalisedNameTable`).
        let snapshot: ConfigSnapshot?
        let source: String
        let origin: String
        let layer: ValueLayer

        init(_ snapshot: ConfigSnapshot?) {
            self.snapshot = snapshot
            source = snapshot?.metadata.source ?? ""
            // `if case`, not `== nil`: comparing two optional snapshots goes through a helper that
            // needs the metadata of a tuple of them, made at run time on first use (at launch).
            if case .some = snapshot { origin = "snapshot \(source)" } else { origin = "snapshot" }
            layer = ValueLayer.snapshot(source: source)
        }

        /// The snapshot's value for `name`.
        @inline(__always)
        func value(named name: String) -> ConfigValue? { snapshot?.values[name] }

        /// How many values the snapshot holds.
        var count: Int { snapshot?.values.count ?? 0 }
    }

    /// The boxed value of the key in `slot`, resolved alone (the lazy first state's reads use this).
    func box(slot: Int, snapshot: SnapshotContext, overrides: [OverrideLayer]) -> any AnyObject & Sendable {
        var boxes = ContiguousArray<any AnyObject & Sendable>()
        var details: [SlotDetail] = []
        var lastGood: [LastGood?] = [nil]
        _ = resolve(
            entry: registry.entries[slot], slot: slot, snapshot: snapshot, overrides: overrides, previousLastGood: nil,
            boxes: &boxes, details: &details, lastGood: &lastGood, lastGoodIndex: 0)
        return boxes[0]
    }

    /// Resolves one key: overrides in order, then the snapshot (or, when it is rejected, the last
    /// good value), then the default. Appends the winner to `boxes` and its detail to `details`,
    /// sets `lastGood[lastGoodIndex]`, and returns whether the snapshot had a value for the key.
    ///
    /// It writes into the caller's arrays rather than returning a struct of the results: copying
    /// the fields out of such a struct retained each, and destroying it released them again, a
    /// tenth of a refresh at a thousand keys.
    @inline(__always)
    private func resolve(
        entry: KeyEntry, slot: Int, snapshot: SnapshotContext, overrides: [OverrideLayer], previousLastGood: [LastGood?]?,
        boxes: inout ContiguousArray<any AnyObject & Sendable>, details: inout [SlotDetail], lastGood: inout [LastGood?],
        lastGoodIndex: Int
    ) -> Bool {
        var rejected: [Rejection] = []
        // The winner so far, as three variables: an optional tuple would be copied whole (and
        // retained field by field) at every step, a measurable cost at a thousand keys.
        var found = false
        var box: (any AnyObject & Sendable)? = nil
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

        var inSnapshot = false
        if let value = snapshot.value(named: entry.name) {
            inSnapshot = true
            switch entry.resolveValue(value, origin: snapshot.origin) {
            case .accepted(let accepted, let acceptedRaw):
                lastGood[lastGoodIndex] = LastGood(box: accepted, raw: acceptedRaw, source: snapshot.source)
                if !found { (found, box, raw, layer) = (true, accepted, acceptedRaw, snapshot.layer) }
            case .rejected(let rejection):
                rejected.append(rejection)
                if let kept = previousLastGood?[slot] {
                    lastGood[lastGoodIndex] = kept
                    if !found {
                        (found, box, raw, layer) = (true, kept.box, kept.raw, .lastGoodSnapshot(source: kept.source))
                    }
                }
            }
        }

        // Asked for only when the default wins: the key makes its default's box and raw form on demand.
        if !found { raw = entry.defaultRaw }
        boxes.append(box ?? entry.defaultBox)
        details.append(SlotDetail(layer: layer, raw: raw, rejected: rejected))
        return inSnapshot
    }

    /// Resolves every key against `snapshot` and `overrides`.
    ///
    /// - Parameter previous: the state this one replaces: it supplies each key's last good value,
    ///   the rejections already reported, and the values to compare for ``Output/changedKeys``.
    func resolve(
        snapshot: ConfigSnapshot?, previous: ResolvedState?, overrides: [OverrideLayer], generation: UInt64
    ) -> Output {
        // A first state still resolving on demand is finished first: its details are compared below.
        // Its arrays are taken once: reading them through the state for each key costs a call each.
        let previous = previous?.materialized()
        let previousDetails = previous?.details
        let previousLastGood = previous?.lastGood
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
        let context = SnapshotContext(snapshot)

        for slot in 0..<count {
            let entry = entries[slot]
            if resolve(
                entry: entry, slot: slot, snapshot: context, overrides: overrides, previousLastGood: previousLastGood,
                boxes: &boxes, details: &details, lastGood: &lastGood, lastGoodIndex: slot)
            {
                matchedSnapshotKeys &+= 1
            }
            let rejected = details[slot].rejected
            guard let previous, let previousDetails else {
                if !rejected.isEmpty { newRejections.append(contentsOf: rejected) }
                continue
            }
            let before = previousDetails[slot]
            for rejection in rejected where !before.rejected.contains(rejection) { newRejections.append(rejection) }
            let raw = details[slot].raw
            if before.raw != raw
                || (raw == nil
                    && (before.layer != details[slot].layer
                        || entry.render(previous.boxes[slot]) != entry.render(boxes[slot])))
            {
                changed.append(entry.name)
            }
        }

        let state = ResolvedState(
            boxes: boxes, details: details, snapshot: snapshot, lastGood: lastGood, overrides: overrides,
            generation: generation)
        return Output(
            state: state, newRejections: newRejections, changedKeys: changed,
            unreadSnapshotKeys: context.count - matchedSnapshotKeys)
    }
}
