import ConfigDomain
import ConfigPorts
import Foundation

/// Resolves every registered key, layer by layer, into one immutable ``ResolvedState``.
///
/// For each key the first candidate that converts and passes the key's rules wins: the overrides
/// in order, then the value the app wrote to it, then the providers' snapshots in precedence
/// order, then the key's last good value from an earlier payload (only when every payload's
/// value was rejected), then the bundled defaults, then the default. Every refused candidate is
/// kept as a ``Rejection``. This is the only place values are converted and checked.
/// A key with targeting rules in a snapshot takes that snapshot's candidate from them, evaluated
/// for the sources' one evaluation context (see ``TargetedCandidate``).
struct Resolver {
    let registry: KeyRegistry

    /// A new state, with what changed since `previous`.
    struct Output {
        let state: ResolvedState
        /// Rejections `previous` did not have.
        let newRejections: [Rejection]
        /// The names of the keys whose value differs from `previous` (every key differs from no state).
        let changedKeys: [String]
        /// How many snapshot keys no registered key reads (a key counts once per snapshot that has it).
        let unreadSnapshotKeys: Int

        /// The same output, its state numbered `generation`.
        func renumbered(_ generation: UInt64) -> Output {
            Output(
                state: state.renumbered(generation), newRejections: newRejections, changedKeys: changedKeys,
                unreadSnapshotKeys: unreadSnapshotKeys)
        }
    }

    /// Resolves every key against `sources` (the snapshots' rules evaluated for `sources.context`);
    /// `previous` supplies each key's last good value and is what changes and new rejections are measured against.
    ///
    /// `stored` holds the last good values the providers' caches kept from an earlier launch: the
    /// builder's first resolution (with no `previous`) reads a key's from there.
    func resolve(sources: ValueSources, previous: ResolvedState?, generation: UInt64, stored: StoredLastGood? = nil) -> Output {
        let keys = registry.keys
        var values: [any AnyObject & Sendable] = []
        values.reserveCapacity(keys.count)
        var layers: [ResolvedState.Layer] = []
        layers.reserveCapacity(keys.count)
        var hiddenRemote: [Int: SnapshotValue] = [:]
        var rejections: [Int: [Rejection]] = [:]
        var targetedRaws: [ConfigValue?] = []
        let hasRules = sources.hasRules
        if hasRules { targetedRaws.reserveCapacity(keys.count) }
        var newRejections: [Rejection] = []
        var changed: [String] = []
        var matched = 0

        for (slot, key) in keys.enumerated() {
            let resolved = Self.resolve(key, slot: slot, sources: sources, previous: previous, stored: stored)
            values.append(resolved.box)
            if hasRules {
                var raw: ConfigValue?
                if case .snapshot = resolved.layer, case .value(let value)? = resolved.candidate { raw = value }
                targetedRaws.append(raw)
            }
            layers.append(resolved.layer)
            if let hidden = resolved.hiddenRemote { hiddenRemote[slot] = hidden }
            matched += resolved.snapshotsHolding
            if !resolved.rejected.isEmpty { rejections[slot] = resolved.rejected }
            guard let previous else {
                newRejections += resolved.rejected
                continue
            }
            if !resolved.rejected.isEmpty {
                let before = previous.rejections[slot] ?? []
                newRejections += resolved.rejected.filter { !before.contains($0) }
            }
            if resolved.changed { changed.append(registry.names[slot]) }
        }

        let state = ResolvedState(
            values: values, layers: layers, hiddenRemote: hiddenRemote, rejections: rejections, sources: sources,
            targetedRaws: targetedRaws, generation: generation)
        return Output(
            state: state, newRejections: newRejections,
            changedKeys: changed,
            unreadSnapshotKeys: sources.payloadKeyCount - matched)
    }

    /// One key's value and how it was reached.
    struct KeyResolution {
        let box: any AnyObject & Sendable
        let layer: ResolvedState.Layer
        /// The winning candidate as it arrived (nil for the default).
        let candidate: OverrideValue.Content?
        /// The key's remote value when it is not the winner.
        let hiddenRemote: SnapshotValue?
        let rejected: [Rejection]
        /// How many of the snapshots have a value for the key.
        let snapshotsHolding: Int
        /// Whether the value differs from the key's value in the previous state (false without one).
        var changed = false
    }

    /// Resolves one key; `slot` and `previous` (the state this one replaces) supply its last good
    /// value and default box, and are nil for a key read without being registered.
    static func resolve<Key: ConfigKeyRepresentable>(
        _ key: Key, slot: Int?, sources: ValueSources, previous: ResolvedState?, stored: StoredLastGood? = nil
    ) -> KeyResolution {
        let key = key.configKey
        var resolution = resolve(key, slot: slot, sources: sources, context: sources.context, previous: previous, stored: stored)
        if let slot, let previous { resolution.changed = !same(key, previous, slot, as: resolution) }
        return resolution
    }

    /// One key's value for `context`, given with a read, from `state`'s layers: the snapshots' rules are
    /// evaluated for `context` instead of the state's own context, and nothing is stored. `slot` is the
    /// key's registry slot (nil for a key read without being registered): its last good value is the
    /// state's, and a candidate equal to the state's own keeps the state's converted value.
    static func resolve<Value>(
        _ key: ConfigKey<Value>, slot: Int?, in state: ResolvedState, for context: EvaluationContext
    ) -> KeyResolution {
        resolve(key, slot: slot, sources: state.sources, context: context, previous: slot == nil ? nil : state, stored: nil)
    }

    private static func resolve<Value>(
        _ key: ConfigKey<Value>, slot: Int?, sources: ValueSources, context: EvaluationContext, previous: ResolvedState?,
        stored: StoredLastGood?
    ) -> KeyResolution {
        let name = key.name
        var rejected: [Rejection] = []
        /// An override or written value wins over the remote value when it passes; the remote value is kept as hidden.
        func local(_ layer: OverrideLayer, as position: ResolvedState.Layer) -> KeyResolution? {
            guard let candidate = layer.snapshot.values[name] else { return nil }
            switch key.converter.accept(candidate.content, for: key, origin: candidate.origin) {
            case .success(let box):
                let hidden = remote(
                    key, slot: slot, sources: sources, context: context, previous: previous, stored: stored, rejected: &rejected)
                return KeyResolution(
                    box: box, layer: position, candidate: candidate.content, hiddenRemote: hidden.value,
                    rejected: rejected, snapshotsHolding: hidden.holding)
            case .failure(let rejection):
                rejected.append(rejection)
                return nil
            }
        }
        for (position, layer) in sources.overrides.enumerated() {
            if let won = local(layer, as: .override(position)) { return won }
        }
        let fromSnapshots = remote(
            key, slot: slot, sources: sources, context: context, previous: previous, stored: stored, rejected: &rejected)
        if let value = fromSnapshots.value {
            let isCurrent = fromSnapshots.isCurrent
            return KeyResolution(
                box: value.box, layer: isCurrent ? .snapshot(value.provider) : .lastGood, candidate: .value(value.raw),
                hiddenRemote: isCurrent ? nil : value, rejected: rejected, snapshotsHolding: fromSnapshots.holding)
        }
        for (index, defaults) in sources.bundled.enumerated() {
            guard let raw = defaults.values[name] else { continue }
            switch key.converter.accept(.value(raw), for: key, origin: "bundled defaults \(defaults.source)") {
            case .success(let box):
                return KeyResolution(
                    box: box, layer: .bundled(index), candidate: .value(raw), hiddenRemote: nil, rejected: rejected,
                    snapshotsHolding: fromSnapshots.holding)
            case .failure(let rejection):
                rejected.append(rejection)
            }
        }
        let reused = slot.flatMap { slot in previous?.layers[slot] == .defaultValue ? previous?.values[slot] : nil }
        return KeyResolution(
            box: reused ?? key.defaultBox(), layer: .defaultValue, candidate: nil, hiddenRemote: nil, rejected: rejected,
            snapshotsHolding: fromSnapshots.holding)
    }

    /// The key's remote value: the first snapshot's candidate (its rules evaluated for `context`),
    /// in precedence order, that passes; else, when some snapshot had a candidate or rejected the
    /// key's rules, the last good one: from `previous`, or at build from `stored`. `holding` counts those snapshots.
    private static func remote<Value>(
        _ key: ConfigKey<Value>, slot: Int?, sources: ValueSources, context: EvaluationContext, previous: ResolvedState?,
        stored: StoredLastGood?, rejected: inout [Rejection]
    ) -> (value: SnapshotValue?, isCurrent: Bool, holding: Int) {
        var accepted: SnapshotValue?
        var holding = 0
        for provider in sources.precedence {
            guard let payload = sources.payloads[provider] else { continue }
            guard accepted == nil else {
                if payload.values[key.name] != nil { holding += 1 }
                continue
            }
            let candidate = TargetedCandidate(
                name: key.name, payload: payload, origin: sources.rejectionOrigin(of: provider), context: context)
            if candidate.raw != nil || candidate.isBlocked { holding += 1 }
            if !candidate.rejections.isEmpty { rejected += candidate.rejections }
            guard let raw = candidate.raw else { continue }
            let source = sources.origins[provider]
            if let slot, let previous, previous.layers[slot] == .snapshot(provider),
                previous.snapshotRaw(at: slot, name: key.name) == raw
            {
                // The same candidate passed before (a context change often keeps it): converting and checking it
                // again would give the same value, so the previous box is kept.
                accepted = SnapshotValue(box: previous.values[slot], raw: raw, source: source, provider: provider)
                continue
            }
            switch key.converter.accept(.value(raw), for: key, origin: sources.rejectionOrigin(of: provider)) {
            case .success(let box):
                accepted = SnapshotValue(box: box, raw: raw, source: source, provider: provider)
            case .failure(let rejection):
                rejected.append(rejection)
            }
        }
        if let accepted { return (accepted, true, holding) }
        guard holding > 0, let slot else { return (nil, false, holding) }
        if let previous {
            // Another user's value is never this user's last good one: a provider evaluated remotely changes slot with the user.
            guard let kept = previous.remoteValue(at: slot, name: key.name),
                previous.sources.slots[kept.provider] == sources.slots[kept.provider]
            else { return (nil, false, holding) }
            return (kept.kept, false, holding)
        }
        guard let stored else { return (nil, false, holding) }
        for provider in sources.precedence where sources.payloads[provider] != nil {
            guard let entry = stored.entry(key.name, provider: provider) else { continue }
            switch key.converter.accept(.value(entry.raw), for: key, origin: "last good value from \(entry.source)") {
            case .success(let box):
                return (
                    SnapshotValue(box: box, raw: entry.raw, source: entry.source, provider: provider, isKept: true), false,
                    holding
                )
            case .failure(let rejection):
                rejected.append(rejection)
            }
        }
        return (nil, false, holding)
    }

    /// Whether `slot`'s new value equals its value in `previous`: equal typed values when the key's
    /// type can compare them, else the same layer with the same candidate, or the same value rendered back.
    private static func same<Value>(
        _ key: ConfigKey<Value>, _ previous: ResolvedState, _ slot: Int,
        as new: KeyResolution
    ) -> Bool {
        let oldBox = previous.values[slot]
        if oldBox === new.box { return true }
        if let equal = key.converter.boxesEqual(key.converter, oldBox, new.box) { return equal }
        if previous.layers[slot] == new.layer, previous.winningCandidate(at: slot, name: key.name) == new.candidate {
            return true
        }
        guard let old = key.converter.configValue(of: oldBox), let now = key.converter.configValue(of: new.box) else {
            return false
        }
        return old == now
    }
}
