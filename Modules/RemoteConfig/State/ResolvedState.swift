import ConfigDomain
import ConfigPorts
import Foundation

/// One immutable resolution of every registered key: what every read between two activations sees.
///
/// Built once per activation (or override change) by ``Resolver``; never mutated after.
@usableFromInline
final class ResolvedState: Sendable {
    /// Boxed typed values by registry slot.
    @usableFromInline let boxes: ContiguousArray<any AnyObject & Sendable>

    /// The typed value in `slot`. The caller guarantees the slot belongs to a key of type `Value`
    /// (a key's identity fixes its value type, and the registry maps identities to slots).
    @inlinable @inline(__always)
    func value<Value: Sendable>(at slot: Int, as type: Value.Type = Value.self) -> Value {
        unsafeDowncast(boxes[slot], to: ValueBox<Value>.self).value
    }

    /// Per slot: the winning layer, its raw value and what was rejected on the way.
    let details: [SlotDetail]
    /// The active snapshot, if any.
    let snapshot: ConfigSnapshot?
    /// Per slot, the last snapshot value that passed the key's rules (for fallback on rejection).
    let lastGood: [LastGood?]
    /// The override snapshots, in precedence order, that this state was resolved with.
    let overrides: [OverrideLayer]
    /// Increases by one with every new state.
    let generation: UInt64
    /// Decoded values of unregistered keys, cached per state.
    let decodedCache = DecodedValueCache()

    init(
        boxes: ContiguousArray<any AnyObject & Sendable>, details: [SlotDetail], snapshot: ConfigSnapshot?,
        lastGood: [LastGood?], overrides: [OverrideLayer], generation: UInt64
    ) {
        self.boxes = boxes
        self.details = details
        self.snapshot = snapshot
        self.lastGood = lastGood
        self.overrides = overrides
        self.generation = generation
    }

    /// This state with new snapshot metadata (after a 304), same values.
    func renewing(_ metadata: SnapshotMetadata, generation: UInt64) -> ResolvedState {
        var snap = snapshot
        snap?.metadata = metadata
        return ResolvedState(
            boxes: boxes, details: details, snapshot: snap, lastGood: lastGood, overrides: overrides,
            generation: generation)
    }
}

/// How one slot was resolved.
struct SlotDetail: Sendable, Hashable {
    let layer: ValueLayer
    /// The winning value rendered as a ConfigValue (nil for types that cannot render); for a
    /// `Decodable` key, the candidate as parsed (its default, rendered).
    ///
    /// Text for messages is rendered from the state's box when asked (`explain`), not per activation.
    let raw: ConfigValue?
    let rejected: [Rejection]
}

/// A value of one key that passed its rules, from a snapshot.
struct LastGood: Sendable {
    let box: any AnyObject & Sendable
    /// Its raw form, as in ``SlotDetail/raw``.
    let raw: ConfigValue?
    let source: String
}

/// One override source's current snapshot, with its name and position.
struct OverrideLayer: Sendable, Hashable {
    let name: String
    let snapshot: OverrideSnapshot
}
