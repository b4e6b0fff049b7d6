import ConfigDomain
import ConfigPorts
import Foundation

/// The one evaluator: resolves a key through every layer for a context, and every registered key into
/// one immutable ``ResolvedState`` at each activation.
///
/// For each key the first candidate that converts and passes the key's rules wins: the overrides in
/// order, then the providers' snapshots in precedence order (each payload's rules evaluated once for
/// the context), then the key's last good value from an earlier payload (only when every payload's
/// value was rejected), then the bundled defaults, then the default. Every refused candidate is kept
/// as a ``Rejection``, and the answer of the snapshot that decided is kept for details. This is the
/// only place values are converted and checked, and the only place rules are evaluated.
///
/// Activation resolves every key for the state's context. A read for a context given with the call,
/// `details`, a hook's evaluation and the bridges resolve one key with the same function
/// (``resolve(_:slot:in:for:explaining:)``).
struct Resolver {
    let registry: KeyRegistry
    /// Whether the client intercepts reads (a context source, hooks or exposures): states then mark
    /// the slots whose reads go through the interception.
    let interceptsReads: Bool
    /// Whether the client reports exposures: each state then has the marks of the slots already checked.
    var marksExposures = false

    /// A new state, with what changed since `previous`.
    struct Output {
        let state: ResolvedState
        /// Rejections `previous` did not have.
        let newRejections: [Rejection]
        /// How many snapshot keys no registered key reads (a key counts once per snapshot that has it).
        let unreadSnapshotKeys: Int

        /// The names of the keys whose value differs from the previous state (every key differs from no state).
        var changedKeys: [String] { state.update?.changedKeys ?? [] }

        /// The same output, its state numbered `generation` and made by `cause`.
        func renumbered(_ generation: UInt64, cause: ConfigUpdate.Cause) -> Output {
            let update = ConfigUpdate(changedKeys: changedKeys, cause: cause, generation: generation)
            return Output(
                state: state.renumbered(generation, update: update), newRejections: newRejections,
                unreadSnapshotKeys: unreadSnapshotKeys)
        }
    }

    /// Resolves every key against `sources` (the snapshots' rules evaluated for `sources.context`);
    /// `previous` supplies each key's last good value and is what changes and new rejections are
    /// measured against, and `cause` says why (nil for the first state).
    ///
    /// `stored` holds the last good values the providers' caches kept from an earlier launch: the
    /// builder's first resolution (with no `previous`) reads a key's from there. After a change of the
    /// context alone, a key no payload targets keeps its resolution: its value cannot depend on the context.
    func resolve(
        sources: ValueSources, previous: ResolvedState?, generation: UInt64, cause: ConfigUpdate.Cause?,
        stored: StoredLastGood? = nil
    ) -> Output {
        let keys = registry.keys
        let hasRules = sources.hasRules
        let reused = hasRules ? previous?.targeted.flatMap { $0.matches(sources.payloads) ? $0 : nil } : nil
        let contextOnly = cause == .context && reused != nil
        var entries: [[PayloadEntry?]?] = []
        if hasRules, reused == nil { entries.reserveCapacity(keys.count) }
        var values: [any AnyObject & Sendable] = []
        values.reserveCapacity(keys.count)
        var layers: [ResolvedState.Layer] = []
        layers.reserveCapacity(keys.count)
        var answers: [SlotAnswer?] = []
        if hasRules { answers.reserveCapacity(keys.count) }
        var hiddenRemote: [Int: SnapshotValue] = [:]
        var rejections: [Int: [Rejection]] = [:]
        var newRejections: [Rejection] = []
        var changed: [String] = []
        var matched = 0

        for (slot, key) in keys.enumerated() {
            var slotEntries = reused?.entries[slot]
            if contextOnly, slotEntries == nil, let previous {
                // No payload targets the key: its value is the same for every context.
                values.append(previous.values[slot])
                layers.append(previous.layers[slot])
                answers.append(previous.answers[slot])
                if let hidden = previous.hiddenRemote[slot] { hiddenRemote[slot] = hidden }
                if let refused = previous.rejections[slot] { rejections[slot] = refused }
                continue
            }
            if hasRules, reused == nil {
                let read = sources.payloads.map { $0?.entry(registry.names[slot]) }
                slotEntries = read.contains { $0?.isTargeted == true } ? read : nil
                entries.append(slotEntries)
            }
            let (resolved, isChanged) = Self.resolve(
                key, slot: slot, sources: sources, entries: slotEntries, previous: previous, stored: stored)
            values.append(resolved.box)
            layers.append(resolved.layer)
            if hasRules { answers.append(resolved.slotAnswer) }
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
            if isChanged { changed.append(registry.names[slot]) }
        }

        let targeted = reused ?? (hasRules ? TargetedSlots(payloads: sources.payloads, entries: entries) : nil)
        var intercepted: [Bool] = []
        if interceptsReads, let targeted {
            intercepted = keys.indices.map { slot in
                guard targeted.entries[slot] != nil else { return false }
                if case .override = layers[slot] { return false }
                return true
            }
        }
        let update = cause.map { ConfigUpdate(changedKeys: changed, cause: $0, generation: generation) }
        let state = ResolvedState(
            values: values, layers: layers, hiddenRemote: hiddenRemote, rejections: rejections, sources: sources,
            targeted: targeted, answers: answers, intercepted: intercepted, generation: generation, update: update,
            exposureMarks: marksExposures && !intercepted.isEmpty ? makeExposureMarks(slots: keys.count) : nil)
        return Output(
            state: state, newRejections: newRejections, unreadSnapshotKeys: contextOnly ? 0 : sources.payloadKeyCount - matched)
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
        /// The answer of the snapshot that supplied the value; when none did, that of the first payload
        /// (in precedence order) that has the key.
        let answer: ProviderAnswer?
        /// What a state keeps of the snapshot answer that supplied the value.
        var slotAnswer: SlotAnswer? {
            guard case .snapshot = layer, case .value(let raw)? = candidate, let answer else { return nil }
            return SlotAnswer(
                raw: raw, reason: answer.answer.reason, variant: answer.answer.variant,
                ruleID: answer.answer.ruleID)
        }

        /// The provider whose snapshot supplied the value, now or as its last good value.
        var provider: Int? {
            switch layer {
            case .snapshot(let provider): provider
            case .lastGood: hiddenRemote?.provider
            case .override, .bundled, .defaultValue: nil
            }
        }
    }

    /// One payload's answer for a key, with the provider it came from.
    struct ProviderAnswer {
        let provider: Int
        let answer: PayloadAnswer
    }

    /// One key's value for `context`, given with a read, from `state`'s layers: the snapshots' rules are
    /// evaluated for `context` instead of the state's own context, and nothing is stored. `slot` is the
    /// key's registry slot (nil for a key read without being registered): its last good value is the
    /// state's, its rules are found by slot, and a candidate equal to the state's own keeps the state's
    /// converted value. With `explaining`, the rules record their provenance for details.
    static func resolve<Value>(
        _ key: ConfigKey<Value>, slot: Int?, in state: ResolvedState, for context: EvaluationContext, explaining: Bool
    ) -> KeyResolution {
        evaluate(
            key, slot: slot, sources: state.sources, entries: slot.flatMap { state.targeted?.entries[$0] }, context: context,
            previous: slot == nil ? nil : state, stored: nil, explaining: explaining)
    }

    /// Resolves one registered key at activation, for the sources' context, and whether its value
    /// differs from the one in `previous`.
    @inline(__always) private static func resolve<Key: ConfigKeyRepresentable>(
        _ key: Key, slot: Int, sources: ValueSources, entries: [PayloadEntry?]?, previous: ResolvedState?,
        stored: StoredLastGood?
    ) -> (KeyResolution, changed: Bool) {
        let key = key.configKey
        let resolution = evaluate(
            key, slot: slot, sources: sources, entries: entries, context: sources.context, previous: previous, stored: stored,
            explaining: false)
        return (resolution, previous.map { !same(key, $0, slot, as: resolution) } ?? false)
    }

    /// The evaluation of `key` for `context` through every layer of `sources`. `entries` are the
    /// payloads' entries for the key by provider when known (else each payload is asked by name);
    /// `slot` and `previous` (the state this one replaces, or the state read) supply its last good
    /// value and default box, and are nil for a key read without being registered.
    ///
    /// Not specialized for the value types this module uses (a raw read by name): one copy serves every type,
    /// which keeps an app's binary small; a key's own conversion is specialized where the key was made.
    @_semantics("optimize.sil.specialize.generic.never")
    static func evaluate<Value>(
        _ key: ConfigKey<Value>, slot: Int?, sources: ValueSources, entries: [PayloadEntry?]?, context: EvaluationContext,
        previous: ResolvedState?, stored: StoredLastGood?, explaining: Bool
    ) -> KeyResolution {
        let name = key.name
        var rejected: [Rejection] = []
        // The first override that passes wins; the snapshots are still evaluated, for the value it hides.
        var override: (box: any AnyObject & Sendable, position: Int, content: OverrideValue.Content)?
        for (position, layer) in sources.overrides.enumerated() {
            guard let candidate = layer.snapshot.values[name] else { continue }
            switch key.converter.accept(candidate.content, for: key, origin: candidate.origin) {
            case .success(let box): override = (box, position, candidate.content)
            case .failure(let rejection): rejected.append(rejection)
            }
            if override != nil { break }
        }
        let remote = Self.remote(
            key, slot: slot, sources: sources, entries: entries, context: context, previous: previous, stored: stored,
            explaining: explaining, rejected: &rejected)
        if let override {
            return KeyResolution(
                box: override.box, layer: .override(override.position), candidate: override.content,
                hiddenRemote: remote.value, rejected: rejected, snapshotsHolding: remote.holding, answer: remote.answer)
        }
        if let value = remote.value {
            return KeyResolution(
                box: value.box, layer: remote.isCurrent ? .snapshot(value.provider) : .lastGood, candidate: .value(value.raw),
                hiddenRemote: remote.isCurrent ? nil : value, rejected: rejected, snapshotsHolding: remote.holding,
                answer: remote.answer)
        }
        for (index, defaults) in sources.bundled.enumerated() {
            guard let raw = defaults.values[name] else { continue }
            switch key.converter.accept(.value(raw), for: key, origin: "bundled defaults \(defaults.source)") {
            case .success(let box):
                return KeyResolution(
                    box: box, layer: .bundled(index), candidate: .value(raw), hiddenRemote: nil, rejected: rejected,
                    snapshotsHolding: remote.holding, answer: remote.answer)
            case .failure(let rejection):
                rejected.append(rejection)
            }
        }
        let reused = slot.flatMap { slot in previous?.layers[slot] == .defaultValue ? previous?.values[slot] : nil }
        return KeyResolution(
            box: reused ?? key.defaultBox(), layer: .defaultValue, candidate: nil, hiddenRemote: nil, rejected: rejected,
            snapshotsHolding: remote.holding, answer: remote.answer)
    }

    /// What the snapshots offer a key: the value that won, whether it is the current one (else a last
    /// good value), how many snapshots hold the key, and the answer that decided.
    private struct Remote {
        let value: SnapshotValue?
        let isCurrent: Bool
        let holding: Int
        let answer: ProviderAnswer?
    }

    /// The `Rejection.rule` of a payload that a server evaluated for another context than the one asked for.
    static let remoteContextRule = "context"

    /// The key's remote value: the first snapshot's candidate (its rules evaluated for `context`),
    /// in precedence order, that passes; else, when some snapshot had a candidate or rejected the
    /// key's rules, the last good one: from `previous`, or at build from `stored`.
    private static func remote<Value>(
        _ key: ConfigKey<Value>, slot: Int?, sources: ValueSources, entries: [PayloadEntry?]?, context: EvaluationContext,
        previous: ResolvedState?, stored: StoredLastGood?, explaining: Bool, rejected: inout [Rejection]
    ) -> Remote {
        let name = key.name
        var accepted: SnapshotValue?
        var answer: ProviderAnswer?
        var holding = 0
        for provider in sources.precedence {
            guard let payload = sources.payloads[provider] else { continue }
            // By slot when the key's entries are known (a slot without one has none), else by name; one copy.
            guard let entry = entries.map({ $0[provider] }) ?? payload.entry(name) else { continue }
            guard accepted == nil else {
                if entry.plain != nil { holding += 1 }
                continue
            }
            if sources.evaluatesRemotely[provider], context != sources.context {
                // The server evaluated this payload for the client's context: it says nothing of another.
                rejected.append(
                    Rejection(
                        key: name, value: "the values held for the client's context", rule: remoteContextRule,
                        reason: "the provider \"\(sources.providerNames[provider])\" is evaluated by its server for the "
                            + "client's own context (targeting key \(sources.context.targetingKey ?? "none")); it holds "
                            + "nothing for another context: call updateContext to fetch for it",
                        origin: sources.rejectionOrigin(of: provider)))
                continue
            }
            let result = entry.answer(in: context, explaining: explaining)
            if result.value != nil || result.isBlocked { holding += 1 }
            if !result.problems.isEmpty {
                let origin = result.isBlocked ? sources.rejectionOrigin(of: provider) : "evaluation context"
                rejected += result.problems.map { $0.rejection(origin: origin) }
            }
            // The answer kept is the accepted value's, else the first one met.
            guard let raw = result.value else {
                if answer == nil { answer = ProviderAnswer(provider: provider, answer: result) }
                continue
            }
            if let slot, let previous, previous.layers[slot] == .snapshot(provider),
                previous.snapshotRaw(at: slot, name: name) == raw
            {
                // The same candidate passed before (a context change often keeps it): converting and checking it
                // again would give the same value, so the previous box is kept.
                accepted = SnapshotValue(
                    box: previous.values[slot], raw: raw, source: sources.origins[provider], provider: provider)
                answer = ProviderAnswer(provider: provider, answer: result)
                continue
            }
            switch key.converter.accept(.value(raw), for: key, origin: sources.rejectionOrigin(of: provider)) {
            case .success(let box):
                accepted = SnapshotValue(box: box, raw: raw, source: sources.origins[provider], provider: provider)
                answer = ProviderAnswer(provider: provider, answer: result)
            case .failure(let rejection):
                rejected.append(rejection)
                if answer == nil { answer = ProviderAnswer(provider: provider, answer: result) }
            }
        }
        if let accepted { return Remote(value: accepted, isCurrent: true, holding: holding, answer: answer) }
        return Remote(
            value: lastGood(key, slot: slot, sources: sources, previous: previous, stored: stored, rejected: &rejected, holding: holding),
            isCurrent: false, holding: holding, answer: answer)
    }

    /// The key's last good value, when some snapshot had a candidate or rejected its rules and none
    /// passed: from `previous`, or at build from `stored`. Another user's value is never this user's
    /// last good one: a provider evaluated remotely changes cache slot with the user.
    private static func lastGood<Value>(
        _ key: ConfigKey<Value>, slot: Int?, sources: ValueSources, previous: ResolvedState?, stored: StoredLastGood?,
        rejected: inout [Rejection], holding: Int
    ) -> SnapshotValue? {
        let name = key.name
        guard holding > 0, let slot else { return nil }
        if let previous {
            guard let kept = previous.remoteValue(at: slot, name: name),
                previous.sources.slots[kept.provider] == sources.slots[kept.provider]
            else { return nil }
            return kept.kept
        }
        guard let stored else { return nil }
        for provider in sources.precedence where sources.payloads[provider] != nil {
            guard let entry = stored.entry(name, provider: provider) else { continue }
            switch key.converter.accept(.value(entry.raw), for: key, origin: "last good value from \(entry.source)") {
            case .success(let box):
                return SnapshotValue(box: box, raw: entry.raw, source: entry.source, provider: provider, isKept: true)
            case .failure(let rejection):
                rejected.append(rejection)
            }
        }
        return nil
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
