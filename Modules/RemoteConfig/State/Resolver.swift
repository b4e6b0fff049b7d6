import ConfigDomain
import Foundation

/// Resolves every registered key, layer by layer, into one immutable ``ResolvedState``.
///
/// Order per key: overrides (in the order added) > the active snapshot > the last good value of
/// that key from an earlier snapshot (only when the active snapshot's value was rejected) > the
/// default. A candidate that does not convert or fails a rule is rejected alone and the next
/// layer is tried. All conversion and validation happens here, once per activation.
struct Resolver: Sendable {
    let registry: KeyRegistry

    struct Output {
        let state: ResolvedState
        /// Rejections newly produced by this resolution (for events).
        let rejections: [Rejection]
    }

    func resolve(
        snapshot: ConfigSnapshot?, previousLastGood: [LastGood?]?, overrides: [OverrideLayer], generation: UInt64
    ) -> Output {
        let entries = registry.entries
        var boxes = ContiguousArray<any AnyObject & Sendable>()
        boxes.reserveCapacity(entries.count)
        var details: [SlotDetail] = []
        details.reserveCapacity(entries.count)
        var lastGood: [LastGood?] = Array(repeating: nil, count: entries.count)
        var allRejections: [Rejection] = []
        let snapshotOrigin = snapshot.map { "snapshot \($0.metadata.source)" } ?? "snapshot"

        for (slot, entry) in entries.enumerated() {
            var rejected: [Rejection] = []
            var winner: (box: any AnyObject & Sendable, layer: ValueLayer)?

            for (position, layer) in overrides.enumerated() {
                guard winner == nil, let candidate = layer.snapshot.values[entry.name] else { continue }
                let result: Result<any AnyObject & Sendable, Rejection>
                switch candidate.content {
                case .value(let value): result = entry.resolveValue(value, candidate.origin)
                case .text(let text): result = entry.resolveText(text, candidate.origin)
                }
                switch result {
                case .success(let box):
                    winner = (box, .override(source: layer.name, position: position, origin: candidate.origin))
                case .failure(let rejection):
                    rejected.append(rejection)
                }
            }

            if let snapshot, let raw = snapshot.values[entry.name] {
                switch entry.resolveValue(raw, snapshotOrigin) {
                case .success(let box):
                    lastGood[slot] = LastGood(box: box, raw: raw, source: snapshot.metadata.source)
                    if winner == nil { winner = (box, .snapshot(source: snapshot.metadata.source)) }
                case .failure(let rejection):
                    rejected.append(rejection)
                    if let previous = previousLastGood?[safe: slot] ?? nil {
                        lastGood[slot] = previous
                        if winner == nil { winner = (previous.box, .lastGoodSnapshot(source: previous.source)) }
                    }
                }
            }

            let (box, layer) = winner ?? (entry.defaultBox, .defaultValue)
            let raw: ConfigValue? = layer == .defaultValue ? entry.defaultRaw : entry.rawOfBox(box)
            boxes.append(box)
            details.append(SlotDetail(layer: layer, raw: raw, rendered: entry.renderBox(box), rejected: rejected))
            allRejections.append(contentsOf: rejected)
        }

        let state = ResolvedState(
            boxes: boxes, details: details, snapshot: snapshot, lastGood: lastGood, overrides: overrides,
            generation: generation)
        return Output(state: state, rejections: allRejections)
    }

    /// The names of keys whose value differs between two states.
    func changedKeys(from old: ResolvedState, to new: ResolvedState) -> [String] {
        var changed: [String] = []
        for (slot, entry) in registry.entries.enumerated() {
            let a = old.details[slot]
            let b = new.details[slot]
            if a.raw != b.raw || (a.raw == nil && (a.layer != b.layer || a.rendered != b.rendered)) {
                changed.append(entry.name)
            }
        }
        return changed
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
