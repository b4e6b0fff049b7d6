import ConfigDomain
import Foundation

/// A ``SnapshotCache`` that can also read on the calling thread, for a client built at launch by
/// code that cannot wait: a SwiftUI `App.init`, `application(_:didFinishLaunchingWithOptions:)`,
/// a command-line tool's first line.
///
/// `RemoteConfigBuilder.buildSynchronously()` uses these two calls instead of their `async`
/// counterparts, so the first read of a new client needs no thread at all: the process's first
/// hop onto one (about 0.5 ms on Linux here) and the cache's own I/O hop are not paid before it.
///
/// The contract (checked by `SnapshotCacheContract` in `TestDoubles` when the cache conforms):
/// - ``loadSynchronously(_:slot:)`` returns what ``SnapshotCache/load(_:slot:)`` would return at
///   that moment, and never throws.
/// - ``promotePendingSynchronously(_:)`` does what ``SnapshotCache/promotePending(_:)`` does.
/// - Both block the calling thread for the storage's work and nothing else: no lock held by a
///   writer for longer than one write, no network.
public protocol SynchronousSnapshotCache: SnapshotCache {
    /// Loads the snapshot stored under `name` in `slot` on the calling thread.
    func loadSynchronously(_ name: String, slot: CacheSlot) -> CacheLoadResult
    /// Makes the pending snapshot under `name` the active one on the calling thread; `false` when there was none.
    func promotePendingSynchronously(_ name: String) throws(CacheError) -> Bool
}
