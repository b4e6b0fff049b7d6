import Atomics
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Holds the one current ``ResolvedState``; readers load it, the refresh path swaps it whole.
///
/// **Writers** (``replace(_:)``) swap the state under `mutex` and publish a new, process-unique
/// `stamp` (never reused, so a stamp names one state of one cell forever).
///
/// **Readers** take no lock and touch no shared cache line except to load `stamp`. Each thread
/// keeps a small table (in thread-local storage) of the states it read last, one entry per
/// `lane`, each holding a strong reference to its state together with that state's stamp. A read
/// loads the cell's stamp (acquire) and, when the thread's entry carries the same stamp, reads
/// through the state that entry keeps alive: no lock, no retain, no release, no atomic write,
/// so readers on different cores never contend. Otherwise (the first read on a thread, or the
/// first after an activation) the reader takes the lock once, copies the current state and its
/// stamp into its entry, and releases the state it held before.
///
/// A state is therefore freed only when no cell and no thread's entry holds it. Each thread keeps
/// at most one state per lane alive until it reads that lane again or exits.
///
/// `@unchecked Sendable`: `state` is read and written only while holding `mutex`
/// (`os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere); `stamp` is atomic and
/// written only while holding `mutex`; a thread's cache table is touched only by that thread
/// (and by its thread-exit destructor).
@usableFromInline
final class StateCell: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    @usableFromInline var state: ResolvedState
    /// The stamp of `state`; changes with every ``replace(_:)``.
    @usableFromInline let stamp: UnsafeAtomic<UInt64>
    /// This cell's entry in each thread's cache table.
    @usableFromInline let lane: Int
    /// The thread-local-storage key of the cache tables (`nil` when none could be created: every read locks).
    @usableFromInline let cacheKey: pthread_key_t?

    init(_ initial: ResolvedState) {
        state = initial
        #if canImport(Darwin)
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: os_unfair_lock())
        #else
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        #endif
        stamp = .create(ReadCache.nextStamp())
        lane = ReadCache.nextLane()
        cacheKey = ReadCache.key
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        stamp.destroy()
    }

    @inlinable @inline(__always)
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(mutex)
        #else
            pthread_mutex_lock(mutex)
        #endif
    }

    @inlinable @inline(__always)
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(mutex)
        #else
            pthread_mutex_unlock(mutex)
        #endif
    }

    /// The current state (a strong reference, taken under the lock).
    func load() -> ResolvedState {
        lock()
        let s = state
        unlock()
        return s
    }

    /// Runs `body` on the current state without a lock and without retaining the state (see the type's notes).
    ///
    /// `body` must not read this cell again (the thread's entry keeps the state alive only until
    /// the thread's next refill) and must not let the state escape; copying a value out is fine.
    @inlinable @inline(__always)
    func withCurrent<R>(_ body: (ResolvedState) -> R) -> R {
        if let key = cacheKey, let table = pthread_getspecific(key) {
            let entry = table.assumingMemoryBound(to: ReadCache.Entry.self) + lane
            if entry.pointee.stamp == stamp.load(ordering: .acquiring), let cached = entry.pointee.state {
                return cached._withUnsafeGuaranteedRef(body)
            }
        }
        return withCurrentSlow(body)
    }

    /// The first read on a thread, or the first after an activation: refills this thread's entry.
    @usableFromInline @inline(never)
    func withCurrentSlow<R>(_ body: (ResolvedState) -> R) -> R {
        guard let entry = ReadCache.entry(key: cacheKey, lane: lane) else {
            lock()
            defer { unlock() }
            return body(state)
        }
        lock()
        let current = state
        let currentStamp = stamp.load(ordering: .relaxed)
        unlock()
        let previous = entry.pointee.state
        entry.pointee = ReadCache.Entry(stamp: currentStamp, state: .passRetained(current))
        previous?.release()
        return body(current)
    }

    /// Swaps in `new` only if the cell still holds `current` (no activation came in between);
    /// returns whether it did.
    @discardableResult
    func replace(_ current: ResolvedState, with new: ResolvedState) -> Bool {
        let next = ReadCache.nextStamp()
        lock()
        defer { unlock() }
        guard state === current else { return false }
        state = new
        stamp.store(next, ordering: .releasing)
        return true
    }

    /// Swaps in a new state; returns the previous one.
    @discardableResult
    func replace(_ new: ResolvedState) -> ResolvedState {
        let next = ReadCache.nextStamp()
        lock()
        let old = state
        state = new
        stamp.store(next, ordering: .releasing)
        unlock()
        return old
    }
}

/// The per-thread tables behind ``StateCell``'s lock-free reads.
@usableFromInline
enum ReadCache {
    /// One cached state: its stamp (0 when empty) and a strong reference, owned by the table.
    @usableFromInline
    struct Entry {
        @usableFromInline var stamp: UInt64
        @usableFromInline var state: Unmanaged<ResolvedState>?

        @usableFromInline
        init(stamp: UInt64, state: Unmanaged<ResolvedState>?) {
            self.stamp = stamp
            self.state = state
        }
    }

    /// Entries per thread; cells beyond this many share entries (still correct, just more refills).
    static let lanes = 16

    private static let counters = Counters()

    /// A new stamp, never given out before (the first is 1; 0 marks an empty entry).
    static func nextStamp() -> UInt64 { counters.nextStamp() }

    /// The lane of a new cell: cells take the lanes in turn.
    static func nextLane() -> Int { counters.nextLane() }

    /// The stamp and lane counters. Taken once per activation and once per cell, so a lock costs
    /// nothing that matters; a `ManagedAtomic` would make the first cell of a process ask the
    /// Swift runtime for several generic conformances (about 0.2 ms in a fresh process here).
    ///
    /// `@unchecked Sendable`: `stamp` and `lane` are read and written only while holding `lock`.
    private final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var stamp: UInt64 = 0
        private var lane = 0

        func nextStamp() -> UInt64 {
            lock.lock()
            defer { lock.unlock() }
            stamp &+= 1
            return stamp
        }

        func nextLane() -> Int {
            lock.lock()
            defer { lock.unlock() }
            defer { lane = (lane + 1) % ReadCache.lanes }
            return lane
        }
    }

    /// The key of every thread's table; its destructor releases the table's states when the thread exits.
    static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, releaseTable) == 0 ? key : nil
    }()

    /// This thread's entry for `lane`, creating the thread's table on first use (nil if that fails).
    static func entry(key: pthread_key_t?, lane: Int) -> UnsafeMutablePointer<Entry>? {
        guard let key else { return nil }
        if let table = pthread_getspecific(key) {
            return table.assumingMemoryBound(to: Entry.self) + lane
        }
        let table = UnsafeMutablePointer<Entry>.allocate(capacity: lanes)
        table.initialize(repeating: Entry(stamp: 0, state: nil), count: lanes)
        guard pthread_setspecific(key, table) == 0 else {
            table.deinitialize(count: lanes)
            table.deallocate()
            return nil
        }
        return table + lane
    }

    #if canImport(Darwin)
        private static let releaseTable: @convention(c) (UnsafeMutableRawPointer) -> Void = { raw in
            ReadCache.release(table: raw)
        }
    #else
        private static let releaseTable: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
            guard let raw else { return }
            ReadCache.release(table: raw)
        }
    #endif

    private static func release(table raw: UnsafeMutableRawPointer) {
        let table = raw.assumingMemoryBound(to: Entry.self)
        for lane in 0..<lanes { table[lane].state?.release() }
        table.deinitialize(count: lanes)
        table.deallocate()
    }
}
