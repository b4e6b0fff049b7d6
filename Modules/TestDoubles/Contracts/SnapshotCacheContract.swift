import ConfigDomain
import ConfigPorts
import Foundation

/// The contract every ``SnapshotCache`` must pass, as a suite you run against your own adapter.
///
/// You give a factory that makes a cache over new, empty storage and, where your storage allows,
/// hooks to reopen it, damage stored data, make writes fail and count payload bytes written; declare
/// what it cannot do in ``capabilities``. Checks use names starting with `contract.`; `fetchedAt`
/// may lose precision below a millisecond. Every renewal carries the content hash of the payload
/// the name holds, so a cache may refuse a renewal naming another payload.
///
/// ```swift
/// let report = await SnapshotCacheContract<InMemoryCache>(
///     subject: "InMemoryCache",
///     makeCache: { InMemoryCache() },
///     reopen: { $0 },
///     damage: { cache, name, slot, _ in cache.corrupt(name, slot: slot) },
///     failWrites: { cache, failing in
///         cache.failWrites(with: failing ? CacheError(.io(operation: "write", code: 28), message: "disk full") : nil)
///     },
///     payloadBytesWritten: { $0.payloadBytesWritten }
/// ).run()
/// ```
public struct SnapshotCacheContract<Cache: SnapshotCache>: Sendable {
    /// A way stored data can be damaged; the `damage` hook applies it to the stored entry.
    public enum Damage: String, Sendable, Hashable, CaseIterable {
        /// The stored bytes replaced by bytes of the same length that mean nothing.
        case garbage
        /// The stored data cut to half its length.
        case truncated
        /// The stored data replaced by nothing (zero bytes).
        case empty
        /// Data written by something else: another program, or a newer version of your format.
        case foreign
    }

    /// The suite's checks, by stable name.
    public enum Check: String, Sendable, CaseIterable {
        /// Both slots of a name never stored load as `.miss`; promoting nothing answers `false`.
        case emptyMiss = "cache.empty-cache-misses"
        /// A stored snapshot loads back with its bytes and every metadata field, in every slot and after reopening.
        case roundTrip = "cache.round-trip-keeps-payload-and-every-metadata-field"
        /// `renew` replaces the active snapshot's metadata and keeps its payload and the pending slot.
        case renewMetadata = "cache.renew-replaces-only-the-metadata"
        /// `renew` on a name with nothing stored throws `CacheError` `.notFound` and creates nothing.
        case renewAbsent = "cache.renew-of-an-absent-name-throws-not-found"
        /// `renew` writes no payload bytes.
        case renewWritesNoPayload = "cache.renew-writes-no-payload-bytes"
        /// Storing, renewing, promoting and clearing one name never changes another.
        case namesApart = "cache.names-are-kept-apart"
        /// `clear` removes every slot and is harmless on an absent name.
        case clear = "cache.clear-removes-both-slots"
        /// Damaged or foreign data loads as `.unreadable` (a typed miss), never a hit or a crash, and a store repairs it.
        case damagedData = "cache.damaged-data-is-a-typed-miss"
        /// Loads running during concurrent stores always see one whole stored snapshot.
        case concurrentAccess = "cache.concurrent-access-sees-whole-snapshots"
        /// A pending snapshot waits apart from the active one and `promotePending` makes it active.
        case pendingPromotion = "cache.pending-snapshot-is-promoted"
        /// `discardPending` empties the pending slot, keeps the active one, and does nothing when nothing is pending.
        case pendingDiscard = "cache.discarded-pending-snapshot-is-gone"
        /// A failed write throws a `CacheError` and leaves the previous snapshot readable.
        case failedWrite = "cache.failed-write-keeps-the-previous-snapshot"
    }

    /// The adapter's name in the report.
    public var subject: String
    /// What the adapter declares it cannot do; each skips the checks that need it.
    public var capabilities: Set<ContractCapability>
    /// Makes a cache over new, empty storage. Called once per check.
    public var makeCache: @Sendable () async throws -> Cache
    /// Makes a second cache over the same storage, as after a relaunch (optional: without it the round trip uses one instance).
    public var reopen: (@Sendable (Cache) async throws -> Cache)?
    /// Damages the stored entry `name`/`slot` in the given way.
    public var damage: (@Sendable (Cache, _ name: String, _ slot: CacheSlot, Damage) async throws -> Void)?
    /// Makes every write fail (`true`) or succeed again (`false`).
    public var failWrites: (@Sendable (Cache, _ failing: Bool) async throws -> Void)?
    /// The total number of payload bytes the cache has written so far.
    public var payloadBytesWritten: (@Sendable (Cache) async -> Int)?
    /// Called with each cache `makeCache` made, after its check, to remove its storage.
    public var discard: (@Sendable (Cache) async -> Void)?
    /// How long one check may take before the watchdog fails it (default 30 s; never reached by a working adapter).
    public var timeLimit: TimeInterval
    /// How many tasks store and load at once in the concurrency check (default 16, half writers, half readers).
    public var concurrentTasks: Int
    /// How many operations each of those tasks performs (default 20).
    public var concurrentRounds: Int

    /// Configures the suite for one adapter.
    public init(
        subject: String,
        capabilities: Set<ContractCapability> = [],
        makeCache: @escaping @Sendable () async throws -> Cache,
        reopen: (@Sendable (Cache) async throws -> Cache)? = nil,
        damage: (@Sendable (Cache, _ name: String, _ slot: CacheSlot, Damage) async throws -> Void)? = nil,
        failWrites: (@Sendable (Cache, _ failing: Bool) async throws -> Void)? = nil,
        payloadBytesWritten: (@Sendable (Cache) async -> Int)? = nil,
        discard: (@Sendable (Cache) async -> Void)? = nil,
        timeLimit: TimeInterval = 30,
        concurrentTasks: Int = 16,
        concurrentRounds: Int = 20
    ) {
        self.subject = subject
        self.capabilities = capabilities
        self.makeCache = makeCache
        self.reopen = reopen
        self.damage = damage
        self.failWrites = failWrites
        self.payloadBytesWritten = payloadBytesWritten
        self.discard = discard
        self.timeLimit = timeLimit
        self.concurrentTasks = concurrentTasks
        self.concurrentRounds = concurrentRounds
    }

    /// Runs every check against the adapter and reports each outcome. Never throws, never traps.
    public func run() async -> ContractReport {
        await CheckRunner.run(
            suite: "SnapshotCacheContract", subject: subject, capabilities: capabilities, timeLimit: timeLimit,
            skips: skips
        ) { (check: Check, progress) throws(ContractFailure) in
            progress.at("making the cache")
            let cache = try await hook("makeCache") { try await makeCache() }
            try await CheckRunner.using(cache, progress, discard: discard) { cache throws(ContractFailure) in
                try await perform(check, Session(cache: cache, progress: progress))
            }
        }
    }

    private func skips(_ check: Check) -> [ContractCapability] {
        switch check {
        case .renewWritesNoPayload: [.unmeasuredWrites]
        case .damagedData: [.cannotDamageData]
        case .failedWrite: [.noWriteFaults]
        default: []
        }
    }

    private func perform(_ check: Check, _ session: Session) async throws(ContractFailure) {
        switch check {
        case .emptyMiss: try await checkEmptyMiss(session)
        case .roundTrip: try await checkRoundTrip(session)
        case .renewMetadata: try await checkRenewMetadata(session)
        case .renewAbsent: try await checkRenewAbsent(session)
        case .renewWritesNoPayload: try await checkRenewWritesNoPayload(session)
        case .namesApart: try await checkNamesApart(session)
        case .clear: try await checkClear(session)
        case .damagedData: try await checkDamagedData(session)
        case .concurrentAccess: try await checkConcurrentAccess(session)
        case .pendingPromotion: try await checkPendingPromotion(session)
        case .pendingDiscard: try await checkPendingDiscard(session)
        case .failedWrite: try await checkFailedWrite(session)
        }
    }
}

extension SnapshotCacheContract {
    /// One check's cache with the helpers that call it; a cache error fails the check, naming the operation.
    struct Session: Sendable {
        let cache: Cache
        let progress: CheckProgress

        func load(_ name: String, _ slot: CacheSlot) -> CacheLoadResult {
            progress.at("loading \(name)/\(slot.rawValue)")
            return cache.load(name, slot: slot)
        }

        func store(_ snapshot: CachedSnapshot, _ name: String, _ slot: CacheSlot) async throws(ContractFailure) {
            try await attempt("storing \(name)/\(slot.rawValue)") { try await cache.store(snapshot, as: name, slot: slot) }
        }

        /// Stores a sample as `name`'s active snapshot and another as its pending one (labelled
        /// `<label>, active` and `<label>, pending`), and returns both.
        func storeActiveAndPending(
            _ name: String, _ label: String
        ) async throws(ContractFailure) -> (active: CachedSnapshot, pending: CachedSnapshot) {
            let active = SnapshotCacheContract.sample("\(label), active", size: 3)
            let pending = SnapshotCacheContract.sample("\(label), pending", size: 2)
            try await store(active, name, .active)
            try await store(pending, name, .pending)
            return (active, pending)
        }

        func renew(_ metadata: SnapshotMetadata, _ name: String) async throws(ContractFailure) {
            try await attempt("renewing the metadata of \(name)") { try await cache.renew(metadata, for: name) }
        }

        func promote(_ name: String, _ what: String) async throws(ContractFailure) -> Bool {
            try await attempt(what) { try cache.promotePending(name) }
        }

        func discardPending(_ name: String, _ what: String) async throws(ContractFailure) {
            try await attempt(what) { try cache.discardPending(name) }
        }

        func clear(_ name: String) async throws(ContractFailure) {
            try await attempt("clearing \(name)") { try await cache.clear(name) }
        }

        private func attempt<T>(_ what: String, _ body: () async throws -> T) async throws(ContractFailure) -> T {
            progress.at(what)
            do {
                return try await body()
            } catch {
                throw ContractFailure("\(what) failed: \(error)")
            }
        }

        func expectMiss(_ name: String, _ slot: CacheSlot, _ when: String) throws(ContractFailure) {
            let result = load(name, slot)
            try require(
                result == .miss,
                "\(name)/\(slot.rawValue) \(when) loaded \(SnapshotCacheContract.describe(result)), expected a miss")
        }

        func expectHit(
            _ expected: CachedSnapshot, _ name: String, _ slot: CacheSlot, _ when: String
        ) throws(ContractFailure) {
            let result = load(name, slot)
            guard case .hit(let actual) = result else {
                throw ContractFailure(
                    "\(name)/\(slot.rawValue) \(when) loaded \(SnapshotCacheContract.describe(result)), expected the stored snapshot"
                )
            }
            let differences = SnapshotCacheContract.differences(expected, actual)
            try require(
                differences.isEmpty,
                "\(name)/\(slot.rawValue) \(when) loaded a different snapshot: \(differences.joined(separator: "; "))")
        }
    }

    /// A snapshot with every metadata field set and a payload of about `size` × 40 bytes, distinct per label.
    static func sample(_ label: String, size: Int) -> CachedSnapshot {
        let body = (0..<max(1, size)).map { "\"k\($0)\":\"\(label) \($0) é✓🚀 \\\"q\\\"\"" }.joined(separator: ",")
        let payload = Data("{\(body)}".utf8)
        let number = ContentHash(of: Data(label.utf8)).value % 100_000
        return CachedSnapshot(
            payload: payload,
            metadata: SnapshotMetadata(
                fetchedAt: Date(timeIntervalSince1970: 1_700_000_000.25 + Double(number)),
                validators: Validators(etag: "W/\"\(number)-\(size)\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"),
                contentHash: ContentHash(of: payload), source: "https://config.example/é/\(label)",
                ttlHint: 300.5))
    }

    /// `metadata` as a 304 an hour later would leave it: new time, new validators, new TTL hint.
    static func renewed(_ metadata: SnapshotMetadata) -> SnapshotMetadata {
        var renewed = metadata
        renewed.fetchedAt = metadata.fetchedAt.addingTimeInterval(3600)
        renewed.validators = Validators(etag: "\"renewed\"", lastModified: "Wed, 15 Nov 2023 00:00:00 GMT")
        renewed.ttlHint = 120
        return renewed
    }

    /// The fields that differ, as `field: expected … got …`.
    static func differences(_ expected: CachedSnapshot, _ actual: CachedSnapshot) -> [String] {
        let (e, a) = (expected.metadata, actual.metadata)
        var found: [String] = []
        if expected.payload != actual.payload {
            found.append("payload: expected \(expected.payload.count) bytes, got \(actual.payload.count) different bytes")
        }
        if abs(e.fetchedAt.timeIntervalSince(a.fetchedAt)) > 0.001 {
            found.append("fetchedAt: expected \(e.fetchedAt.timeIntervalSince1970), got \(a.fetchedAt.timeIntervalSince1970)")
        }
        let fields = [
            ("validators.etag", text(e.validators.etag), text(a.validators.etag)),
            ("validators.lastModified", text(e.validators.lastModified), text(a.validators.lastModified)),
            ("contentHash", text(e.contentHash), text(a.contentHash)),
            ("source", e.source, a.source),
            ("ttlHint", text(e.ttlHint), text(a.ttlHint)),
        ]
        for (field, wanted, got) in fields where wanted != got { found.append("\(field): expected \(wanted), got \(got)") }
        return found
    }

    /// The value as text, or `nil`.
    private static func text(_ value: (some CustomStringConvertible)?) -> String { value?.description ?? "nil" }

    /// `a miss`, `unreadable (…)`, `a hit (N bytes from …)`.
    static func describe(_ result: CacheLoadResult) -> String {
        switch result {
        case .miss: "a miss"
        case .unreadable(let error): "unreadable (\(error))"
        case .hit(let snapshot): "a hit (\(snapshot.payload.count) bytes from \(snapshot.metadata.source))"
        }
    }

    /// Like ``describe(_:)``, naming a torn snapshot: a payload of one candidate with the metadata of another.
    static func describe(_ result: CacheLoadResult, against candidates: [CachedSnapshot]) -> String {
        guard case .hit(let snapshot) = result else { return describe(result) }
        let payloadOwner = candidates.firstIndex { $0.payload == snapshot.payload }
        let metadataOwner = candidates.firstIndex { $0.metadata == snapshot.metadata }
        switch (payloadOwner, metadataOwner) {
        case (let p?, let m?) where p != m:
            return "a torn snapshot: the payload of store #\(p + 1) with the metadata of store #\(m + 1)"
        case (nil, _): return "a payload no store wrote (\(snapshot.payload.count) bytes)"
        default: return "metadata no store wrote (\(snapshot.metadata.source))"
        }
    }
}
