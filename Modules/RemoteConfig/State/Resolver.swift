import ConfigDomain
import ConfigPorts
import Foundation

extension ConfigSnapshot {
    /// Where a snapshot's values come from, as a rejection names it.
    fileprivate var origin: String { "snapshot \(metadata.source)" }
}

/// Resolves every registered key, layer by layer, into one immutable ``ResolvedState``.
///
/// For each key the first candidate that converts and passes the key's rules wins: the overrides
/// in order, then the active snapshot, then the key's last good value from an earlier snapshot
/// (only when the active snapshot's value was rejected), then the default. Every refused
/// candidate is kept as a ``Rejection``. This is the only place values are converted and checked.
/// A key with targeting rules takes its snapshot candidate from them (see ``TargetedCandidate``).
struct Resolver {
    let registry: KeyRegistry

    /// A new state, with what changed since `previous`.
    struct Output {
        let state: ResolvedState
        /// Rejections `previous` did not have.
        let newRejections: [Rejection]
        /// The names of the keys whose value differs from `previous` (every key differs from no state).
        let changedKeys: [String]
        /// How many snapshot keys no registered key reads.
        let unreadSnapshotKeys: Int
    }

    /// Resolves every key against `snapshot` (its rules evaluated for `context`) and `overrides`;
    /// `previous` supplies each key's last good value and is what changes and new rejections are measured against.
    func resolve(
        snapshot: ConfigSnapshot?, previous: ResolvedState?, overrides: [OverrideLayer], context: EvaluationContext,
        generation: UInt64
    ) -> Output {
        let keys = registry.keys
        var values: [any AnyObject & Sendable] = []
        values.reserveCapacity(keys.count)
        var layers: [ResolvedState.Layer] = []
        layers.reserveCapacity(keys.count)
        var hiddenRemote: [Int: RemoteValue] = [:]
        var rejections: [Int: [Rejection]] = [:]
        var decisions: [TargetingDecision?] = []
        let hasRules = snapshot?.rules.isEmpty == false
        if hasRules { decisions.reserveCapacity(keys.count) }
        var newRejections: [Rejection] = []
        var changed: [String] = []
        var matched = 0

        for (slot, key) in keys.enumerated() {
            let resolved = Self.resolve(
                key, slot: slot, snapshot: snapshot, overrides: overrides, context: context, previous: previous)
            values.append(resolved.box)
            if hasRules { decisions.append(resolved.decision) }
            layers.append(resolved.layer)
            if let hidden = resolved.hiddenRemote { hiddenRemote[slot] = hidden }
            if resolved.inSnapshot { matched += 1 }
            if !resolved.rejected.isEmpty { rejections[slot] = resolved.rejected }
            guard let previous else {
                newRejections += resolved.rejected
                continue
            }
            let before = previous.rejections[slot] ?? []
            newRejections += resolved.rejected.filter { !before.contains($0) }
            if resolved.changed { changed.append(registry.names[slot]) }
        }

        let state = ResolvedState(
            values: values, layers: layers, hiddenRemote: hiddenRemote, rejections: rejections, snapshot: snapshot,
            overrides: overrides, context: context, decisions: decisions, generation: generation)
        return Output(
            state: state, newRejections: newRejections,
            changedKeys: changed,
            unreadSnapshotKeys: (snapshot?.values.count ?? 0) - matched)
    }

    /// One key's value and how it was reached.
    struct KeyResolution {
        let box: any AnyObject & Sendable
        let layer: ResolvedState.Layer
        /// The winning candidate as it arrived (nil for the default).
        let candidate: OverrideValue.Content?
        /// The key's remote value when it is not the winner.
        let hiddenRemote: RemoteValue?
        let rejected: [Rejection]
        /// Whether the snapshot has a value for the key.
        let inSnapshot: Bool
        /// What the key's targeting rules decided, when it has rules.
        var decision: TargetingDecision?
        /// Whether the value differs from the key's value in the previous state (false without one).
        var changed = false
    }

    /// Resolves one key; `slot` and `previous` (the state this one replaces) supply its last good
    /// value and default box, and are nil for a key read without being registered.
    static func resolve<Key: ConfigKeyRepresentable>(
        _ key: Key, slot: Int?, snapshot: ConfigSnapshot?, overrides: [OverrideLayer], context: EvaluationContext,
        previous: ResolvedState?
    ) -> KeyResolution {
        let key = key.configKey
        var resolution = resolve(
            key, slot: slot, snapshot: snapshot, overrides: overrides, context: context, previous: previous)
        if let slot, let previous { resolution.changed = !same(key, previous, slot, as: resolution) }
        return resolution
    }

    private static func resolve<Value>(
        _ key: ConfigKey<Value>, slot: Int?, snapshot: ConfigSnapshot?, overrides: [OverrideLayer],
        context: EvaluationContext, previous: ResolvedState?
    ) -> KeyResolution {
        let name = key.name
        var rejected: [Rejection] = []
        var candidate: TargetedCandidate?
        if let snapshot { candidate = TargetedCandidate(name: name, snapshot: snapshot, context: context) }
        for (position, layer) in overrides.enumerated() {
            guard let override = layer.snapshot.values[name] else { continue }
            switch key.accept(override.content, origin: override.origin) {
            case .success(let box):
                let hidden = remote(
                    key, slot: slot, snapshot: snapshot, candidate: candidate, previous: previous, rejected: &rejected)
                return KeyResolution(
                    box: box, layer: .override(position), candidate: override.content, hiddenRemote: hidden.value,
                    rejected: rejected, inSnapshot: hidden.inSnapshot, decision: candidate?.decision)
            case .failure(let rejection):
                rejected.append(rejection)
            }
        }
        let remote = remote(
            key, slot: slot, snapshot: snapshot, candidate: candidate, previous: previous, rejected: &rejected)
        if let value = remote.value {
            let isCurrent = remote.isCurrent
            return KeyResolution(
                box: value.box, layer: isCurrent ? .snapshot : .lastGood, candidate: .value(value.raw),
                hiddenRemote: isCurrent ? nil : value, rejected: rejected, inSnapshot: remote.inSnapshot,
                decision: candidate?.decision)
        }
        let reused = slot.flatMap { slot in previous?.layers[slot] == .defaultValue ? previous?.values[slot] : nil }
        return KeyResolution(
            box: reused ?? key.defaultBox(), layer: .defaultValue, candidate: nil, hiddenRemote: nil, rejected: rejected,
            inSnapshot: remote.inSnapshot, decision: candidate?.decision)
    }

    /// The key's remote value: the active snapshot's `candidate` (its rules evaluated for the context) if
    /// it passes, else the last good one from `previous`.
    private static func remote<Value>(
        _ key: ConfigKey<Value>, slot: Int?, snapshot: ConfigSnapshot?, candidate: TargetedCandidate?,
        previous: ResolvedState?, rejected: inout [Rejection]
    ) -> (value: RemoteValue?, isCurrent: Bool, inSnapshot: Bool) {
        guard let snapshot, let candidate else { return (nil, false, false) }
        if !candidate.rejections.isEmpty { rejected += candidate.rejections }
        guard let raw = candidate.raw else {
            return candidate.isBlocked ? (lastGood(key, slot, previous), false, true) : (nil, false, false)
        }
        let source = snapshot.metadata.source
        if let slot, let previous, previous.layers[slot] == .snapshot, previous.snapshotRaw(at: slot, name: key.name) == raw {
            // The same candidate passed before (a context change often keeps it): converting and checking it again
            // would give the same value, so the previous box is kept.
            return (RemoteValue(box: previous.values[slot], raw: raw, source: source), true, true)
        }
        switch key.accept(.value(raw), origin: snapshot.origin) {
        case .success(let box):
            return (RemoteValue(box: box, raw: raw, source: source), true, true)
        case .failure(let rejection):
            rejected.append(rejection)
            return (lastGood(key, slot, previous), false, true)
        }
    }

    /// The key's last good remote value in `previous`.
    private static func lastGood<Value>(_ key: ConfigKey<Value>, _ slot: Int?, _ previous: ResolvedState?) -> RemoteValue? {
        guard let slot else { return nil }
        return previous?.remoteValue(at: slot, name: key.name)
    }

    /// Whether `slot`'s new value equals its value in `previous`: the same layer with the same
    /// candidate, or the same value rendered back from another layer.
    private static func same<Value>(
        _ key: ConfigKey<Value>, _ previous: ResolvedState, _ slot: Int,
        as new: KeyResolution
    ) -> Bool {
        let oldBox = previous.values[slot]
        if oldBox === new.box { return true }
        if previous.layers[slot] == new.layer, previous.winningCandidate(at: slot, name: key.name) == new.candidate {
            return true
        }
        guard let old = key.configValue(of: oldBox), let now = key.configValue(of: new.box) else { return false }
        return old == now
    }
}
