import ConfigDomain
import ConfigPorts
import Foundation

@testable import TestDoubles

// Deliberately broken caches, each breaking one rule of the snapshot-cache contract, to prove
// the suite catches it. Most wrap an InMemoryCache and change one behaviour.

/// The contract for a cache made by `make`, whose hooks reach the InMemoryCache `inner(cache)`.
func cacheContract<Cache: SnapshotCache>(
    _ subject: String, concurrentRounds: Int = 20, make: @escaping @Sendable () -> Cache,
    inner: @escaping @Sendable (Cache) -> InMemoryCache
) -> SnapshotCacheContract<Cache> {
    SnapshotCacheContract<Cache>(
        subject: subject,
        makeCache: make,
        reopen: { $0 },
        damage: { cache, name, slot, _ in inner(cache).corrupt(name, slot: slot) },
        failWrites: { cache, failing in
            inner(cache).failWrites(
                with: failing ? CacheError(.io(operation: "write", code: 28), message: "disk full") : nil)
        },
        payloadBytesWritten: { inner($0).payloadBytesWritten },
        concurrentRounds: concurrentRounds)
}

/// Forwards everything to an InMemoryCache; subclasses of behaviour override one method.
protocol WrappingCache: SnapshotCache {
    var inner: InMemoryCache { get }
}

extension WrappingCache {
    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult { inner.load(name, slot: slot) }
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        try await inner.store(snapshot, as: name, slot: slot)
    }
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        try await inner.renew(metadata, for: name)
    }
    func promotePending(_ name: String) throws(CacheError) -> Bool { try inner.promotePending(name) }
    func discardPending(_ name: String) throws(CacheError) { try inner.discardPending(name) }
    func clear(_ name: String) async throws(CacheError) { try await inner.clear(name) }
}

/// Writes the payload, then (after a suspension) the metadata: a reader in between sees a mix.
final class TornWritesCache: SnapshotCache {
    private struct Storage {
        var payloads: [String: Data] = [:]
        var metadata: [String: SnapshotMetadata] = [:]
    }

    private let storage = Locked(Storage())

    private func key(_ name: String, _ slot: CacheSlot) -> String { "\(name)/\(slot.rawValue)" }

    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult {
        storage.withLock { storage in
            guard let payload = storage.payloads[key(name, slot)], let meta = storage.metadata[key(name, slot)] else {
                return .miss
            }
            return .hit(CachedSnapshot(payload: payload, metadata: meta))
        }
    }

    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        storage.withLock { $0.payloads[key(name, slot)] = snapshot.payload }
        for _ in 0..<4 { await Task.yield() }
        storage.withLock { $0.metadata[key(name, slot)] = snapshot.metadata }
    }

    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        try storage.withLock { storage throws(CacheError) in
            guard storage.metadata[key(name, .active)] != nil else { throw CacheError(.notFound, message: "none") }
            storage.metadata[key(name, .active)] = metadata
        }
    }

    func promotePending(_ name: String) throws(CacheError) -> Bool {
        storage.withLock { storage in
            guard let payload = storage.payloads.removeValue(forKey: key(name, .pending)),
                let meta = storage.metadata.removeValue(forKey: key(name, .pending))
            else { return false }
            storage.payloads[key(name, .active)] = payload
            storage.metadata[key(name, .active)] = meta
            return true
        }
    }

    func discardPending(_ name: String) throws(CacheError) {
        storage.withLock { storage in
            storage.payloads[key(name, .pending)] = nil
            storage.metadata[key(name, .pending)] = nil
        }
    }

    func clear(_ name: String) async throws(CacheError) {
        storage.withLock { storage in
            for slot in CacheSlot.allCases {
                storage.payloads[key(name, slot)] = nil
                storage.metadata[key(name, slot)] = nil
            }
        }
    }
}

/// Keeps one entry per slot whatever the name.
struct NameBlindCache: WrappingCache {
    let inner = InMemoryCache()
    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult { inner.load("all", slot: slot) }
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        try await inner.store(snapshot, as: "all", slot: slot)
    }
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        try await inner.renew(metadata, for: "all")
    }
    func promotePending(_ name: String) throws(CacheError) -> Bool { try inner.promotePending("all") }
    func discardPending(_ name: String) throws(CacheError) { try inner.discardPending("all") }
    func clear(_ name: String) async throws(CacheError) { try await inner.clear("all") }
}

/// Renews by loading the snapshot and storing it whole again.
struct RenewRewritesPayloadCache: WrappingCache {
    let inner = InMemoryCache()
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        guard case .hit(var snapshot) = inner.load(name, slot: .active) else {
            throw CacheError(.notFound, message: "nothing to renew")
        }
        snapshot.metadata = metadata
        try await inner.store(snapshot, as: name, slot: .active)
    }
}

/// Hides damage: an unreadable entry loads as a plain miss.
struct DamageAsMissCache: WrappingCache {
    let inner = InMemoryCache()
    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult {
        let result = inner.load(name, slot: slot)
        if case .unreadable = result { return .miss }
        return result
    }
}

/// Ignores the pending slot: promotion never happens.
struct NoPendingCache: WrappingCache {
    let inner = InMemoryCache()
    func promotePending(_ name: String) throws(CacheError) -> Bool { false }
}

/// Ignores discards: a refused pending snapshot would be promoted at the next launch.
struct NoDiscardCache: WrappingCache {
    let inner = InMemoryCache()
    func discardPending(_ name: String) throws(CacheError) {}
}

/// Removes the old entry before writing the new one, so a failed write loses both.
struct FailedWriteLosesPreviousCache: WrappingCache {
    let inner = InMemoryCache()
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        inner.corrupt(name, slot: slot)
        try await inner.store(snapshot, as: name, slot: slot)
    }
}

/// Forgets the TTL hint when storing.
struct DropsTTLHintCache: WrappingCache {
    let inner = InMemoryCache()
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        var copy = snapshot
        copy.metadata.ttlHint = nil
        try await inner.store(copy, as: name, slot: slot)
    }
}

/// `clear("a")` also clears every name starting with "a".
struct PrefixClearCache: WrappingCache {
    let inner = InMemoryCache()
    let names = NameLog()
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        names.add(name)
        try await inner.store(snapshot, as: name, slot: slot)
    }
    func clear(_ name: String) async throws(CacheError) {
        for stored in names.all where stored.hasPrefix(name) { try await inner.clear(stored) }
    }
}

/// A thread-safe list of names, for PrefixClearCache.
final class NameLog: Sendable {
    private let names = Locked<Set<String>>([])
    func add(_ name: String) { _ = names.withLock { $0.insert(name) } }
    var all: [String] { names.withLock { $0.sorted() } }
}

/// Reports a name never stored as an unreadable entry (a missing file taken for an I/O error), not a miss.
struct EmptyIsUnreadableCache: WrappingCache {
    let inner = InMemoryCache()
    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult {
        let result = inner.load(name, slot: slot)
        if result == .miss { return .unreadable(CacheError(.io(operation: "open", code: 2), message: "no such file")) }
        return result
    }
}

/// Renews by upserting: renewing a name never stored creates an active snapshot with an empty payload.
struct RenewCreatesCache: WrappingCache {
    let inner = InMemoryCache()
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        guard case .hit = inner.load(name, slot: .active) else {
            return try await inner.store(CachedSnapshot(payload: Data(), metadata: metadata), as: name, slot: .active)
        }
        try await inner.renew(metadata, for: name)
    }
}

/// Clears only the active slot, so a pending snapshot survives `clear`.
struct ClearKeepsPendingCache: WrappingCache {
    let inner = InMemoryCache()
    func clear(_ name: String) async throws(CacheError) {
        guard case .hit(let pending) = inner.load(name, slot: .pending) else { return try await inner.clear(name) }
        try await inner.clear(name)
        try await inner.store(pending, as: name, slot: .pending)
    }
}

/// Accepts a renewal but keeps the old metadata, so after a 304 the snapshot still looks as old as before.
struct RenewKeepsOldMetadataCache: WrappingCache {
    let inner = InMemoryCache()
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        guard case .hit = inner.load(name, slot: .active) else {
            throw CacheError(.notFound, message: "no active snapshot of \(name) to renew")
        }
    }
}

/// Renews only what it holds and otherwise does nothing: renewing a name never stored succeeds
/// silently, so a client never learns that the cache was purged.
struct RenewAbsentSucceedsCache: WrappingCache {
    let inner = InMemoryCache()
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        guard case .hit = inner.load(name, slot: .active) else { return }
        try await inner.renew(metadata, for: name)
    }
}

/// Throws the wrong error when renewing a name never stored: an I/O error instead of `.notFound`.
struct RenewAbsentWrongErrorCache: WrappingCache {
    let inner = InMemoryCache()
    func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        guard case .hit = inner.load(name, slot: .active) else {
            throw CacheError(.io(operation: "open", code: 2), message: "no such file")
        }
        try await inner.renew(metadata, for: name)
    }
}
