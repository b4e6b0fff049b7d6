import ConfigPorts
import Foundation
import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Holds a client's current ``ResolvedState``: the read path, the one deliberately fast code in
/// the library (budget: a registered `Bool` read in ≤ 10 ns, no allocation, and two threads
/// reading at least 1.7× as fast as one; see `Integration/Benchmarks/README.md`).
///
/// Writers swap the state under a `Locked`, and bump `version`. A reader must not take that
/// lock, nor retain the shared state: both write to memory every reading thread shares, and
/// threads would then slow each other down. So each thread keeps its own strong reference to the
/// state it read last, with that state's version, in thread-local storage: a read compares the
/// cell's version (one atomic load) with its thread's, and reads through its own reference when
/// they match. Otherwise it refills its entry under the lock. A state is freed when neither the
/// cell nor any thread's entry holds it; a thread's entries are released when the thread exits.
///
/// `Atomic` needs macOS 15 / iOS 18 on Apple platforms: before those, every read takes the lock.
@usableFromInline
final class StateCell: Sendable {
    /// The current state and its version; the only lock writers and refills take.
    private let current: Locked<(state: ResolvedState, version: UInt64)>
    /// This cell's entry in each thread's table.
    @usableFromInline let lane: Int
    /// The thread-local key of the tables (``ThreadEntries/key``), copied here so a read does not
    /// check that a global was initialised.
    @usableFromInline let threadKey: pthread_key_t?
    #if canImport(Darwin)
        /// Keeps the `VersionCounter` alive (a plain object before macOS 15 / iOS 18, where it is unused).
        private let counterOwner: AnyObject
        /// The same object, read without retaining it: a retain would write to memory every reader shares.
        @usableFromInline unowned(unsafe) let counter: AnyObject
    #else
        /// The version of the current state.
        @usableFromInline let version: Atomic<UInt64>
    #endif

    init(_ initial: ResolvedState) {
        let version = ThreadEntries.nextVersion()
        current = Locked((initial, version))
        lane = ThreadEntries.nextLane()
        threadKey = ThreadEntries.key
        #if canImport(Darwin)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                counterOwner = VersionCounter(version)
            } else {
                counterOwner = NSObject()
            }
            counter = counterOwner
        #else
            self.version = Atomic(version)
        #endif
    }

    /// The current state, retained, under the writers' lock: what a writer reads.
    @usableFromInline
    func load() -> ResolvedState { current.withLock { $0.state } }

    /// The current state, retained, read as the fast read reads it (without the lock where the platform
    /// allows): what a read that evaluates, and may call out to other code, holds on to.
    @usableFromInline
    func read() -> ResolvedState { withCurrent { $0 } }

    /// The version of the current state, or nil where it cannot be read without the lock.
    @inlinable @inline(__always)
    var lockFreeVersion: UInt64? {
        #if canImport(Darwin)
            guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
            // `counter` is a `VersionCounter` on these systems (see `init`).
            return unsafeDowncast(counter, to: VersionCounter.self).value.load(ordering: .acquiring)
        #else
            return version.load(ordering: .acquiring)
        #endif
    }

    /// Runs `body` on the current state without a lock and without retaining it.
    ///
    /// `body` must not let the state escape and must not read this cell again.
    @inlinable @inline(__always)
    func withCurrent<R>(_ body: (ResolvedState) -> R) -> R {
        guard let version = lockFreeVersion, let threadKey, let entry = ThreadEntries.entry(lane: lane, key: threadKey) else {
            return body(load())
        }
        if entry.pointee.version == version, let state = entry.pointee.state {
            return state._withUnsafeGuaranteedRef(body)
        }
        return refill(entry, body)
    }

    /// Takes the current state into this thread's entry, releasing the one it held.
    @usableFromInline
    func refill<R>(_ entry: UnsafeMutablePointer<ThreadEntries.Entry>, _ body: (ResolvedState) -> R) -> R {
        let (state, version) = current.withLock { ($0.state, $0.version) }
        let previous = entry.pointee.state
        entry.pointee = ThreadEntries.Entry(version: version, state: .passRetained(state))
        previous?.release()
        return body(state)
    }

    /// Swaps in `new`; returns the state it replaced.
    @discardableResult
    func replace(with new: ResolvedState) -> ResolvedState {
        let version = ThreadEntries.nextVersion()
        return current.withLock { cell in
            let old = cell.state
            cell = (new, version)
            #if canImport(Darwin)
                if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
                    unsafeDowncast(counter, to: VersionCounter.self).value.store(version, ordering: .releasing)
                }
            #else
                self.version.store(version, ordering: .releasing)
            #endif
            return old
        }
    }
}

/// The version of a cell's state, readable without a lock.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
@usableFromInline
final class VersionCounter: Sendable {
    @usableFromInline let value: Atomic<UInt64>
    init(_ version: UInt64) { value = Atomic(version) }
}

/// Each thread's table of the states it read last, one entry per cell lane.
@usableFromInline
enum ThreadEntries {
    /// One thread's view of one cell: a version (0 when empty) and a strong reference.
    @usableFromInline
    struct Entry {
        @usableFromInline var version: UInt64
        @usableFromInline var state: Unmanaged<ResolvedState>?
        @usableFromInline init(version: UInt64, state: Unmanaged<ResolvedState>?) {
            self.version = version
            self.state = state
        }
    }

    /// Entries per thread; cells beyond this many share lanes (still correct, with more refills).
    static let lanes = 16

    /// Versions are unique across every cell of the process, so an entry never mistakes one
    /// cell's state for another's that shares its lane.
    private static let counters = Locked((version: UInt64(0), lane: 0))

    static func nextVersion() -> UInt64 { counters.withLock { $0.version += 1; return $0.version } }
    static func nextLane() -> Int { counters.withLock { $0.lane += 1; return $0.lane % lanes } }

    /// The thread-local key of the tables; its destructor releases a table's states when its thread exits.
    @usableFromInline static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, { raw in
            #if canImport(Darwin)
                let table = raw.assumingMemoryBound(to: Entry.self)
            #else
                guard let table = raw?.assumingMemoryBound(to: Entry.self) else { return }
            #endif
            for lane in 0..<ThreadEntries.lanes { table[lane].state?.release() }
            table.deinitialize(count: ThreadEntries.lanes)
            table.deallocate()
        }) == 0 ? key : nil
    }()

    /// This thread's entry for `lane`, making the thread's table on first use (nil if that fails).
    @inlinable @inline(__always)
    static func entry(lane: Int, key: pthread_key_t) -> UnsafeMutablePointer<Entry>? {
        if let table = pthread_getspecific(key) { return table.assumingMemoryBound(to: Entry.self) + lane }
        return makeTable(key: key).map { $0 + lane }
    }

    /// Makes this thread's table (nil if the thread-local slot cannot be set: reads then take the lock).
    @usableFromInline
    static func makeTable(key: pthread_key_t) -> UnsafeMutablePointer<Entry>? {
        let table = UnsafeMutablePointer<Entry>.allocate(capacity: lanes)
        table.initialize(repeating: Entry(version: 0, state: nil), count: lanes)
        guard pthread_setspecific(key, table) == 0 else {
            table.deinitialize(count: lanes)
            table.deallocate()
            return nil
        }
        return table
    }
}
