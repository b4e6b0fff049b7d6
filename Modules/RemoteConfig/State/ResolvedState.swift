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
    /// Where each slot's value came from.
    let layers: [Layer]

    /// The value in `slot` if it is of type `Value` (nil when the slot's key has another type).
    ///
    /// Part of the read path: the class check and `unsafeDowncast` read the box without retaining
    /// it (a dynamic cast would retain it, a write to memory every reading thread shares).
    @inlinable
    func value<Value: Sendable>(at slot: Int, as type: Value.Type) -> Value? {
        let box = values[slot]
        guard ObjectIdentifier(Swift.type(of: box)) == ObjectIdentifier(ValueBox<Value>.self) else { return nil }
        return unsafeDowncast(box, to: ValueBox<Value>.self).value
    }
    /// The value each key had in a remote snapshot when that is not the winning value (an
    /// override won, or the active snapshot's value was rejected): by slot, only where it applies.
    let hiddenRemote: [Int: RemoteValue]
    /// What was refused on the way to each value, by slot, only where something was.
    let rejections: [Int: [Rejection]]
    /// The active snapshot, if any; its values are the raw values of every `.snapshot` layer.
    let snapshot: ConfigSnapshot?
    /// The override snapshots, in precedence order, this state was resolved with.
    let overrides: [OverrideLayer]
    /// The evaluation context the snapshot's targeting rules were evaluated for.
    let context: EvaluationContext
    /// What each key's targeting rules decided, by slot (nil for a key without rules); empty when
    /// the snapshot has no rules.
    let decisions: [TargetingDecision?]
    /// Increases by one with every new state of a client.
    let generation: UInt64

    init(
        values: [any AnyObject & Sendable], layers: [Layer], hiddenRemote: [Int: RemoteValue],
        rejections: [Int: [Rejection]], snapshot: ConfigSnapshot?, overrides: [OverrideLayer],
        context: EvaluationContext, decisions: [TargetingDecision?], generation: UInt64
    ) {
        self.values = values
        self.layers = layers
        self.hiddenRemote = hiddenRemote
        self.rejections = rejections
        self.snapshot = snapshot
        self.overrides = overrides
        self.context = context
        self.decisions = decisions
        self.generation = generation
    }

    /// The same values with renewed snapshot metadata (after a 304) under a new generation.
    func renewing(_ metadata: SnapshotMetadata, generation: UInt64) -> ResolvedState {
        ResolvedState(
            values: values, layers: layers, hiddenRemote: hiddenRemote, rejections: rejections,
            snapshot: snapshot.map { held in
                var renewed = held
                renewed.metadata = metadata
                return renewed
            }, overrides: overrides, context: context,
            decisions: decisions, generation: generation)
    }

    /// The value `slot`'s key takes from the remote snapshots, with its raw form and source.
    func remoteValue(at slot: Int, name: String) -> RemoteValue? {
        switch layers[slot] {
        case .snapshot:
            guard let snapshot, let raw = snapshotRaw(at: slot, name: name) else { return nil }
            return RemoteValue(box: values[slot], raw: raw, source: snapshot.metadata.source)
        case .lastGood, .override, .defaultValue:
            return hiddenRemote[slot]
        }
    }

    /// The candidate that won `slot`, as it arrived (nil for the default).
    func winningCandidate(at slot: Int, name: String) -> OverrideValue.Content? {
        switch layers[slot] {
        case .override(let position): overrides[position].snapshot.values[name]?.content
        case .snapshot: snapshotRaw(at: slot, name: name).map { .value($0) }
        case .lastGood: hiddenRemote[slot].map { .value($0.raw) }
        case .defaultValue: nil
        }
    }

    /// The raw value the active snapshot gives `slot` in this state's context: what its rules decided, else its plain value.
    func snapshotRaw(at slot: Int, name: String) -> ConfigValue? {
        if slot < decisions.count, let decided = decisions[slot]?.value { return decided }
        return snapshot?.values[name]
    }

    /// What `slot`'s targeting rules decided, if its key has rules.
    func decision(at slot: Int) -> TargetingDecision? { slot < decisions.count ? decisions[slot] : nil }

    /// The public description of `slot`'s layer.
    func valueLayer(at slot: Int, name: String) -> ValueLayer {
        switch layers[slot] {
        case .override(let position):
            let layer = overrides[position]
            return .override(
                source: layer.name, position: position, origin: layer.snapshot.values[name]?.origin ?? layer.name)
        case .snapshot: return .snapshot(source: snapshot?.metadata.source ?? "")
        case .lastGood: return .lastGoodSnapshot(source: hiddenRemote[slot]?.source ?? "")
        case .defaultValue: return .defaultValue
        }
    }

    /// Where a slot's value came from.
    enum Layer: Sendable, Hashable {
        /// The override source at this position.
        case override(Int)
        /// The active snapshot.
        case snapshot
        /// The key's last good value from an earlier snapshot.
        case lastGood
        /// The key's default.
        case defaultValue
    }
}

/// A key's value from a remote snapshot: typed, raw, and the snapshot's source.
struct RemoteValue: Sendable {
    let box: any AnyObject & Sendable
    let raw: ConfigValue
    let source: String
}

/// One override source's values at one moment, under its name.
struct OverrideLayer: Sendable, Equatable {
    let name: String
    let snapshot: OverrideSnapshot
}
