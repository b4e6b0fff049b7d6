import ConfigDomain
import ConfigPorts
import Foundation

/// One immutable resolution of every registered key: what every read between two activations sees.
///
/// Made by ``Resolver`` at each activation and never changed after.
@usableFromInline
final class ResolvedState: Sendable {
    /// Each registered key's value, in a ``ValueBox`` of its type, by slot.
    @usableFromInline let values: [any AnyObject & Sendable]
    /// By slot, whether a read of the key goes through the client's ``ReadInterception`` (its value can
    /// differ by context, and the client has a context source, hooks or exposures); empty when none does.
    @usableFromInline let intercepted: [Bool]
    /// Where each slot's value came from.
    let layers: [Layer]

    /// The value in `slot`, whose key's value type the registry says is `Value`; part of the read path.
    @inlinable @inline(__always)
    func value<Value: Sendable>(at slot: Int, as type: Value.Type) -> Value {
        // The registry checked the type: every box in `slot` holds its key's value type.
        unsafeDowncast(values[slot], to: ValueBox<Value>.self).value
    }

    /// Whether a read of `slot` returns the stored value as it is; part of the read path.
    @inlinable @inline(__always)
    func isPlain(_ slot: Int) -> Bool { intercepted.isEmpty || !intercepted[slot] }

    /// The value each key had in a remote snapshot when that is not the winning value (an
    /// override won, or the active snapshot's value was rejected): by slot, only where it applies.
    let hiddenRemote: [Int: SnapshotValue]
    /// What was refused on the way to each value, by slot, only where something was.
    let rejections: [Int: [Rejection]]
    /// The layers this state was resolved from: overrides, snapshots, bundled defaults.
    let sources: ValueSources
    /// The payloads' entries for the keys their rules target, by slot; nil when no payload has rules.
    let targeted: TargetedSlots?
    /// By slot, what the snapshot that supplied the value answered in this state's context (its raw
    /// value, reason and variant); nil where no snapshot supplied it, and empty when no snapshot has
    /// rules (the snapshot's plain value is then the raw value, and the reason `STATIC`).
    let answers: [SlotAnswer?]
    /// Increases by one with every new state of a client.
    let generation: UInt64
    /// What made this state from the one before: the keys that changed and why; nil for the first state.
    let update: ConfigUpdate?
    /// The slots whose exposure a read already checked in this state (an `ExposureMarks`), when the client
    /// reports exposures and the system has the standard library's `Atomic`.
    let exposureMarks: (any AnyObject & Sendable)?

    init(
        values: [any AnyObject & Sendable], layers: [Layer], hiddenRemote: [Int: SnapshotValue],
        rejections: [Int: [Rejection]], sources: ValueSources, targeted: TargetedSlots?, answers: [SlotAnswer?],
        intercepted: [Bool], generation: UInt64, update: ConfigUpdate?, exposureMarks: (any AnyObject & Sendable)?
    ) {
        self.values = values
        self.layers = layers
        self.hiddenRemote = hiddenRemote
        self.rejections = rejections
        self.sources = sources
        self.targeted = targeted
        self.answers = answers
        self.intercepted = intercepted
        self.generation = generation
        self.update = update
        self.exposureMarks = exposureMarks
    }

    /// The override snapshots, in precedence order, this state was resolved with.
    var overrides: [OverrideLayer] { sources.overrides }

    /// The evaluation context the snapshots' targeting rules were evaluated for.
    var context: EvaluationContext { sources.context }

    /// The same state numbered `generation`, made by `update` (a previewed state, activated as it was resolved).
    func renumbered(_ generation: UInt64, update: ConfigUpdate?) -> ResolvedState {
        ResolvedState(
            values: values, layers: layers, hiddenRemote: hiddenRemote, rejections: rejections, sources: sources,
            targeted: targeted, answers: answers, intercepted: intercepted, generation: generation, update: update,
            exposureMarks: exposureMarks.map { _ in makeExposureMarks(slots: values.count) } ?? nil)
    }

    /// Whether `slot`'s value may differ for another context: some payload's rules target the key,
    /// and no override decided the value (an override holds for every context).
    func dependsOnContext(_ slot: Int) -> Bool {
        guard let targeted, targeted.entries[slot] != nil else { return false }
        if case .override = layers[slot] { return false }
        return true
    }

    /// The value `slot`'s key takes from the remote snapshots, with its raw form and source.
    func remoteValue(at slot: Int, name: String) -> SnapshotValue? {
        switch layers[slot] {
        case .snapshot(let provider):
            guard let raw = snapshotRaw(at: slot, name: name) else { return nil }
            return SnapshotValue(box: values[slot], raw: raw, source: sources.origins[provider], provider: provider)
        case .lastGood, .override, .bundled, .defaultValue:
            return hiddenRemote[slot]
        }
    }

    /// The candidate that won `slot`, as it arrived (nil for the default).
    func winningCandidate(at slot: Int, name: String) -> OverrideValue.Content? {
        switch layers[slot] {
        case .override(let position): overrides[position].snapshot.values[name]?.content
        case .snapshot: snapshotRaw(at: slot, name: name).map { .value($0) }
        case .lastGood: hiddenRemote[slot].map { .value($0.raw) }
        case .bundled(let index): sources.bundled[index].values[name].map { .value($0) }
        case .defaultValue: nil
        }
    }

    /// The raw value the snapshot that supplied `slot`'s value gives it in this state's context: what
    /// its rules decided, else its plain value (nil when no snapshot supplied the value).
    func snapshotRaw(at slot: Int, name: String) -> ConfigValue? {
        guard case .snapshot(let provider) = layers[slot] else { return nil }
        if slot < answers.count { return answers[slot]?.raw }
        return sources.payloads[provider]?.values[name]
    }

    /// The provider whose snapshot supplied `slot`'s value (now or as its last good value), if one did.
    func provider(at slot: Int) -> Int? {
        switch layers[slot] {
        case .snapshot(let provider): provider
        case .lastGood: hiddenRemote[slot]?.provider
        case .override, .bundled, .defaultValue: nil
        }
    }

    /// The public description of `layer` for the key `name` in this state; `lastGood` is the key's last good value.
    func valueLayer(_ layer: Layer, name: String, lastGood: SnapshotValue?) -> ValueLayer {
        switch layer {
        case .override(let position):
            let layer = overrides[position]
            return .override(
                source: layer.name, position: position, origin: layer.snapshot.values[name]?.origin ?? layer.name)
        case .snapshot(let provider): return .snapshot(source: sources.origins[provider])
        case .lastGood: return .lastGoodSnapshot(source: lastGood?.source ?? "")
        case .bundled(let index): return .bundledDefaults(source: sources.bundled[index].source)
        case .defaultValue: return .defaultValue
        }
    }

    /// Where a slot's value came from.
    enum Layer: Sendable, Equatable {
        /// The override source at this position.
        case override(Int)
        /// The active snapshot of this provider.
        case snapshot(Int)
        /// The key's last good value from an earlier snapshot.
        case lastGood
        /// The bundled defaults at this position.
        case bundled(Int)
        /// The key's default.
        case defaultValue
    }
}

/// What the snapshot that supplied a slot's value answered: the raw value, the reason, the variant,
/// and the rule or rollout that decided.
struct SlotAnswer: Sendable {
    let raw: ConfigValue
    let reason: EvaluationReason
    let variant: String?
    let ruleID: String?
}

/// A key's value from a remote snapshot: typed, raw, the snapshot's source and its provider.
struct SnapshotValue: Sendable {
    let box: any AnyObject & Sendable
    let raw: ConfigValue
    let source: String
    let provider: Int
    /// Whether it is a last good value kept from an earlier snapshot, not the active snapshot's value.
    var isKept = false

    /// The same value, kept as a last good value.
    var kept: SnapshotValue {
        var copy = self
        copy.isKept = true
        return copy
    }
}

/// One override source's values at one moment, under its name.
struct OverrideLayer: Sendable, Equatable {
    let name: String
    let snapshot: OverrideSnapshot
}
