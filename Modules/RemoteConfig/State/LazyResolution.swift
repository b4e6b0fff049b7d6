import ConfigDomain
import Foundation

/// Resolves the keys of a client's first state one at a time, when each is first read, and the
/// whole state once, when something needs all of it.
///
/// At launch, `build()` would otherwise convert and check every registered key before the first
/// read (about 0.5 ms for 1,000 keys in a fresh process here). With this, `build()` parses the
/// cached payload and stops; a read of a key resolves that key alone (the same function the full
/// pass runs for each key, so the values are the same), and the whole resolution runs in the
/// background and replaces this state in the cell when done. Anything that needs every key
/// (`explain`, `decode`, the next activation, which compares against this state) finishes the
/// resolution first if the background has not.
///
/// The rejections found in the cached payload are reported once, by whoever finishes the whole
/// resolution first.
///
/// `@unchecked Sendable`: `boxes` and `full` are read and written only while holding `lock`; the
/// other properties are immutable.
final class LazyResolution: @unchecked Sendable {
    private let resolver: Resolver
    private let snapshot: ConfigSnapshot?
    private let context: Resolver.SnapshotContext
    private let overrides: [OverrideLayer]
    private let generation: UInt64
    private let onFinished: @Sendable (Resolver.Output) -> Void
    private let lock = NSLock()
    /// Boxes resolved one at a time, by slot; ``unresolved`` where none is yet.
    ///
    /// Not an array of optionals: its element type would be one more generic type the runtime makes
    /// at launch, and a state's boxes are an array of this type anyway.
    private var boxes: ContiguousArray<any AnyObject & Sendable>
    /// Stands in the slots of ``boxes`` not resolved yet.
    private static let unresolved = Unresolved()
    private final class Unresolved: Sendable {}
    /// The whole resolution, once made.
    private var full: Resolver.Output?

    /// - Parameter onFinished: called once, with the whole resolution, by whoever makes it.
    init(
        resolver: Resolver, snapshot: ConfigSnapshot?, overrides: [OverrideLayer], generation: UInt64,
        onFinished: @escaping @Sendable (Resolver.Output) -> Void
    ) {
        self.resolver = resolver
        self.snapshot = snapshot
        self.context = Resolver.SnapshotContext(snapshot)
        self.overrides = overrides
        self.generation = generation
        self.onFinished = onFinished
        self.boxes = ContiguousArray(repeating: Self.unresolved, count: resolver.registry.entries.count)
    }

    /// The value of the key in `slot`, resolving that key alone the first time.
    func value<Value: Sendable>(at slot: Int, as type: Value.Type) -> Value {
        unsafeDowncast(box(at: slot), to: ValueBox<Value>.self).value
    }

    private func box(at slot: Int) -> AnyObject {
        lock.lock()
        if let full {
            lock.unlock()
            return full.state.boxes[slot]
        }
        let box = boxes[slot]
        if box !== Self.unresolved {
            lock.unlock()
            return box
        }
        lock.unlock()
        // Converters and rules are the app's code: they run without the lock held. Two readers
        // racing here both resolve the key, to equal values; the first one stored is kept.
        let resolved = resolver.box(slot: slot, snapshot: context, overrides: overrides)
        lock.lock()
        defer { lock.unlock() }
        if let full { return full.state.boxes[slot] }
        let stored = boxes[slot]
        if stored !== Self.unresolved { return stored }
        boxes[slot] = resolved
        return resolved
    }

    /// The whole resolution as a state, made now unless it was made before.
    func finished() -> ResolvedState {
        lock.lock()
        if let full {
            lock.unlock()
            return full.state
        }
        lock.unlock()
        let output = resolver.resolve(snapshot: snapshot, previous: nil, overrides: overrides, generation: generation)
        lock.lock()
        if let full {
            lock.unlock()
            return full.state
        }
        full = output
        lock.unlock()
        onFinished(output)
        return output.state
    }
}
