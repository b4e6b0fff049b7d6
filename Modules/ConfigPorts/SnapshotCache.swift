import ConfigDomain
import Foundation

/// Keeps fetched payloads across launches, several named configurations per cache.
///
/// The contract (checked by `SnapshotCacheContract` in `TestDoubles`):
/// - ``load(_:slot:)`` answers on the calling thread and never throws: damaged or foreign data is
///   ``CacheLoadResult/unreadable(_:)`` (which the client treats as a miss and reports), never a
///   crash. It is synchronous so that a client can be built, with its cached values, by launch
///   code that cannot `await` (a SwiftUI `App.init`); it should cost one small read.
/// - ``store(_:as:slot:)`` is atomic: a concurrent or later load sees the old snapshot or the
///   new one, whole, never a mix, even across a crash.
/// - ``renew(_:for:)`` replaces only the metadata of the active snapshot (after a 304); the
///   payload bytes are not rewritten. With no active snapshot stored (the OS purged the cache),
///   it throws `CacheError` `.notFound`, and the client fetches the payload again to repair it.
/// - The ``CacheSlot/pending`` slot holds a snapshot waiting for the next launch;
///   ``promotePending(_:)`` makes it active atomically, and ``discardPending(_:)`` removes it
///   (the client's ``PayloadVerifier`` refused it), leaving the active one as it is.
/// - The ``CacheSlot/lastGood`` slot holds the client's own small record of last good values, as a
///   payload like any other; ``clear(_:)`` removes it with the snapshots.
/// - Names are independent: storing `a` never changes `b`.
/// - Safe to call from many tasks at once.
///
/// Why some requirements are synchronous and others `async`: what `build()` needs is synchronous
/// (``load(_:slot:)``, ``promotePending(_:)`` for next-launch activation, ``discardPending(_:)`` when
/// the verifier refuses the pending snapshot), because `build()` runs in launch code that cannot
/// `await`. Each is one small read or one rename. The writes (``store(_:as:slot:)``,
/// ``renew(_:for:)``, ``clear(_:)``) happen after a fetch, off the launch path, and may be slow: a
/// durable write waits for the disk (`fsync`), and a cache over the network or a database may
/// suspend. They are `async` so that such a cache does not hold a thread of the caller's executor
/// while it waits; a cache with nothing to wait for implements them without suspending.
public protocol SnapshotCache: Sendable {
    /// Loads the snapshot stored under `name` in `slot`.
    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult
    /// Stores `snapshot` under `name` in `slot`, replacing what was there atomically.
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError)
    /// Replaces the metadata of the active snapshot under `name`, keeping its payload.
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError)
    /// Makes the pending snapshot under `name` the active one; `false` when there was none.
    func promotePending(_ name: String) throws(CacheError) -> Bool
    /// Removes the pending snapshot under `name`, if any, keeping the active one; an adapter may keep it aside for inspection.
    func discardPending(_ name: String) throws(CacheError)
    /// Removes every slot of `name`.
    func clear(_ name: String) async throws(CacheError)
}

/// Which of a configuration's stored snapshots.
public enum CacheSlot: String, Sendable, Hashable, CaseIterable {
    /// The snapshot in use.
    case active
    /// A snapshot waiting for activation at the next launch.
    case pending
    /// The client's record of last good values: those it served that the active snapshot no longer gives.
    case lastGood = "last-good"
}

/// A stored payload: its original bytes and metadata.
public struct CachedSnapshot: Sendable, Hashable {
    /// The payload bytes exactly as fetched (not re-encoded).
    public var payload: Data
    /// When, from where, which version.
    public var metadata: SnapshotMetadata

    /// Creates a stored snapshot.
    public init(payload: Data, metadata: SnapshotMetadata) {
        self.payload = payload
        self.metadata = metadata
    }
}

/// The outcome of ``SnapshotCache/load(_:slot:)``.
public enum CacheLoadResult: Sendable, Hashable {
    /// A whole, verified snapshot.
    case hit(CachedSnapshot)
    /// Nothing stored.
    case miss
    /// Something stored but unusable; treat as a miss and report the reason.
    case unreadable(CacheError)

    /// The snapshot, when this is a hit.
    public var snapshot: CachedSnapshot? { if case .hit(let s) = self { s } else { nil } }
}
