import ConfigDomain
import ConfigPorts
import Foundation

/// One immutable resolution of every registered key: what every read between two activations sees.
///
/// Built once per activation (or override change) by ``Resolver``; never mutated after. The
/// first state of a client built from a cache is the exception: it resolves each key when it is
/// first read (see ``LazyResolution``) until the whole resolution, finished in the background, is
/// swapped in for it; both give every key the same value.
@usableFromInline
final class ResolvedState: Sendable {
    /// Boxed typed values by registry slot (empty while ``lazy`` resolves them).
    @usableFromInline let boxes: ContiguousArray<any AnyObject & Sendable>
    /// Resolves keys on demand; nil for a state resolved up front (every state but a first one).
    let lazy: LazyResolution?
    /// Whether ``lazy`` is set. The read path tests this byte: binding the optional reference
    /// would retain and release it, an atomic write to a shared line on every read.
    @usableFromInline let resolvesOnDemand: Bool

    /// The typed value in `slot`. The caller guarantees the slot belongs to a key of type `Value`
    /// (a key's identity fixes its value type, and the registry maps identities to slots).
    @inlinable @inline(__always)
    func value<Value: Sendable>(at slot: Int, as type: Value.Type = Value.self) -> Value {
        if _slowPath(resolvesOnDemand) { return valueOnDemand(at: slot, as: Value.self) }
        return unsafeDowncast(boxes[slot], to: ValueBox<Value>.self).value
    }

    /// The read of a first state still resolving on demand (out of line: the common read stays small).
    @usableFromInline @inline(never)
    func valueOnDemand<Value: Sendable>(at slot: Int, as type: Value.Type) -> Value {
        guard let lazy else { return unsafeDowncast(boxes[slot], to: ValueBox<Value>.self).value }
        return lazy.value(at: slot, as: Value.self)
    }

    /// The boxed value in `slot`.
    func box(at slot: Int) -> any AnyObject & Sendable { materialized().boxes[slot] }

    /// This state resolved in full: itself, or for a first state still resolving on demand, its
    /// whole resolution (made now if the background has not finished it yet).
    func materialized() -> ResolvedState { lazy?.finished() ?? self }

    /// Per slot: the winning layer, its raw value and what was rejected on the way.
    var details: [SlotDetail] { materialized().resolvedDetails }
    /// Per slot, the last snapshot value that passed the key's rules (for fallback on rejection).
    var lastGood: [LastGood?] { materialized().resolvedLastGood }

    private let resolvedDetails: [SlotDetail]
    private let resolvedLastGood: [LastGood?]
    /// The active snapshot, if any.
    let snapshot: ConfigSnapshot?
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
        self.lazy = nil
        self.resolvesOnDemand = false
        self.resolvedDetails = details
        self.snapshot = snapshot
        self.resolvedLastGood = lastGood
        self.overrides = overrides
        self.generation = generation
    }

    /// A first state whose keys `lazy` resolves when they are read.
    init(lazy: LazyResolution, snapshot: ConfigSnapshot?, overrides: [OverrideLayer], generation: UInt64) {
        self.boxes = []
        self.lazy = lazy
        self.resolvesOnDemand = true
        self.resolvedDetails = []
        self.resolvedLastGood = []
        self.snapshot = snapshot
        self.overrides = overrides
        self.generation = generation
    }

    /// This state with new snapshot metadata (after a 304), same values.
    func renewing(_ metadata: SnapshotMetadata, generation: UInt64) -> ResolvedState {
        let full = materialized()
        var snap = full.snapshot
        snap?.metadata = metadata
        return ResolvedState(
            boxes: full.boxes, details: full.resolvedDetails, snapshot: snap, lastGood: full.resolvedLastGood,
            overrides: full.overrides, generation: generation)
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
