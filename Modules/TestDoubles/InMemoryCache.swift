import ConfigDomain
import ConfigPorts
import Foundation

/// A snapshot cache in a dictionary, with fault injection and counters; hand one instance to two clients built one after the other to simulate a relaunch.
///
/// Every call is logged in ``operations``, whatever its outcome.
public final class InMemoryCache: SnapshotCache {
    private struct Key: Hashable {
        let name: String
        let slot: CacheSlot
    }

    private enum Entry {
        case stored(CachedSnapshot)
        case corrupted
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var loadFailure: CacheError?
        var writeFailure: CacheError?
        var storeCount = 0
        var renewCount = 0
        var payloadBytesWritten = 0
        var operations: [String] = []
    }

    private let state = Locked(State())

    /// Creates an empty cache.
    public init() {}

    /// Makes every load answer `.unreadable(error)`; `nil` stops it.
    public func failLoads(with error: CacheError?) { state.withLock { $0.loadFailure = error } }

    /// Makes every store, renew, promote, discard and clear throw `error` without changing anything; `nil` stops it.
    public func failWrites(with error: CacheError?) { state.withLock { $0.writeFailure = error } }

    /// Marks the entry `name`/`slot` as damaged: loads answer a bad-checksum `.unreadable` until a store replaces it.
    public func corrupt(_ name: String, slot: CacheSlot = .active) {
        state.withLock { $0.entries[Key(name: name, slot: slot)] = .corrupted }
    }

    /// The snapshot stored under `name`/`slot`, without logging an operation (`nil` when absent or corrupted).
    public func snapshot(_ name: String, slot: CacheSlot = .active) -> CachedSnapshot? {
        state.withLock { state in
            if case .stored(let snapshot) = state.entries[Key(name: name, slot: slot)] { snapshot } else { nil }
        }
    }

    /// How many stores succeeded.
    public var storeCount: Int { state.withLock { $0.storeCount } }

    /// How many renewals succeeded.
    public var renewCount: Int { state.withLock { $0.renewCount } }

    /// The total size of the payloads passed to successful stores (a renewal writes none).
    public var payloadBytesWritten: Int { state.withLock { $0.payloadBytesWritten } }

    /// Every call, in order, as `load <name>/<slot>`, `store <name>/<slot>`, `renew <name>`, `promote <name>`,
    /// `discard <name>`, `clear <name>`.
    public var operations: [String] { state.withLock { $0.operations } }

    /// The stored snapshot, `.miss`, or `.unreadable` when loads fail or the entry is corrupted.
    public func load(_ name: String, slot: CacheSlot) -> CacheLoadResult {
        state.withLock { state in
            state.operations.append("load \(name)/\(slot.rawValue)")
            if let failure = state.loadFailure { return .unreadable(failure) }
            switch state.entries[Key(name: name, slot: slot)] {
            case nil: return .miss
            case .stored(let snapshot): return .hit(snapshot)
            case .corrupted:
                let message = "the \(slot.rawValue) snapshot of \(name) was corrupted by InMemoryCache.corrupt; store a new one"
                return .unreadable(CacheError(.corrupt(.badChecksum), message: message))
            }
        }
    }

    /// Replaces the entry `name`/`slot` with `snapshot`.
    public func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        try write("store \(name)/\(slot.rawValue)") { state in
            state.entries[Key(name: name, slot: slot)] = .stored(snapshot)
            state.storeCount += 1
            state.payloadBytesWritten += snapshot.payload.count
        }
    }

    /// Replaces the metadata of the active snapshot of `name`; throws `.notFound` when there is none, the corruption when it is damaged.
    public func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        try write("renew \(name)") { state throws(CacheError) in
            let key = Key(name: name, slot: .active)
            switch state.entries[key] {
            case nil:
                throw CacheError(.notFound, message: "no active snapshot of \(name) to renew; store one first")
            case .corrupted:
                throw CacheError(.corrupt(.badChecksum), message: "the active snapshot of \(name) is corrupted; store a new one")
            case .stored(var snapshot):
                snapshot.metadata = metadata
                state.entries[key] = .stored(snapshot)
                state.renewCount += 1
            }
        }
    }

    /// Moves the pending entry of `name` (as it is, even corrupted) to the active slot; `false` when there was none.
    public func promotePending(_ name: String) throws(CacheError) -> Bool {
        try write("promote \(name)") { state in
            guard let pending = state.entries.removeValue(forKey: Key(name: name, slot: .pending)) else { return false }
            state.entries[Key(name: name, slot: .active)] = pending
            return true
        }
    }

    /// Removes the pending entry of `name` (even corrupted), if any.
    public func discardPending(_ name: String) throws(CacheError) {
        try write("discard \(name)") { state in state.entries[Key(name: name, slot: .pending)] = nil }
    }

    /// Removes every slot of `name`, corrupted or not.
    public func clear(_ name: String) async throws(CacheError) {
        try write("clear \(name)") { state in
            for slot in CacheSlot.allCases { state.entries[Key(name: name, slot: slot)] = nil }
        }
    }

    /// Logs `operation`, then throws the injected write failure or applies `change`.
    private func write<T>(_ operation: String, _ change: (inout State) throws(CacheError) -> T) throws(CacheError) -> T {
        try state.withLock { state throws(CacheError) in
            state.operations.append(operation)
            if let failure = state.writeFailure { throw failure }
            return try change(&state)
        }
    }
}
