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

    // MARK: - Checks

    private func checkEmptyMiss(_ session: Session) async throws(ContractFailure) {
        for slot in CacheSlot.allCases {
            try session.expectMiss("contract.empty", slot, "loading from an empty cache")
        }
        let promoted = try await session.promote("contract.empty", "promoting in an empty cache")
        try require(!promoted, "promoting the pending snapshot of an empty cache answered true; there was none")
    }

    private func checkRoundTrip(_ session: Session) async throws(ContractFailure) {
        let name = "contract.round-trip"
        let active = Self.sample("round trip, active", size: 3)
        let pending = Self.sample("round trip, pending", size: 5)
        try await session.store(active, name, .active)
        try session.expectHit(active, name, .active, "after storing it")
        try await session.store(pending, name, .pending)
        try session.expectHit(pending, name, .pending, "after storing it")
        try session.expectHit(active, name, .active, "after storing a pending snapshot")
        let replacement = Self.sample("round trip, replacement", size: 1)
        try await session.store(replacement, name, .active)
        try session.expectHit(replacement, name, .active, "after replacing it")
        guard let reopen else { return }
        session.progress.at("reopening the cache over the same storage")
        let reopened = Session(
            cache: try await hook("reopen") { try await reopen(session.cache) }, progress: session.progress)
        try reopened.expectHit(replacement, name, .active, "after reopening the cache")
        try reopened.expectHit(pending, name, .pending, "after reopening the cache")
    }

    private func checkRenewMetadata(_ session: Session) async throws(ContractFailure) {
        let name = "contract.renew"
        let (stored, pending) = try await session.storeActiveAndPending(name, "renew")
        let renewed = Self.renewed(stored.metadata)
        try await session.renew(renewed, name)
        try session.expectHit(
            CachedSnapshot(payload: stored.payload, metadata: renewed), name, .active, "after renewing its metadata")
        try session.expectHit(pending, name, .pending, "after renewing the active snapshot's metadata")
    }

    private func checkRenewAbsent(_ session: Session) async throws(ContractFailure) {
        let name = "contract.renew-absent"
        session.progress.at("renewing \(name), a name never stored")
        let thrown = await thrownError { () async throws(CacheError) in
            try await session.cache.renew(Self.sample("renew absent", size: 1).metadata, for: name)
        }
        try session.expectMiss(name, .active, "after renewing a name never stored (renew must not create a snapshot)")
        let advice = "throw CacheError(.notFound, …), so the client learns the cache was purged and fetches the payload again"
        guard let thrown else { throw ContractFailure("renewing \(name), a name never stored, succeeded; \(advice)") }
        try require(thrown.kind == .notFound, "renewing \(name), a name never stored, threw \(thrown); \(advice)")
    }

    private func checkRenewWritesNoPayload(_ session: Session) async throws(ContractFailure) {
        guard let payloadBytesWritten else { throw missingHook("payloadBytesWritten", orDeclare: .unmeasuredWrites) }
        let name = "contract.renew-bytes"
        let stored = Self.sample("renew without rewriting", size: 64)
        let beforeStore = await payloadBytesWritten(session.cache)
        try await session.store(stored, name, .active)
        let afterStore = await payloadBytesWritten(session.cache)
        try require(
            afterStore - beforeStore >= stored.payload.count,
            "the payloadBytesWritten hook counted \(afterStore - beforeStore) bytes for storing a "
                + "\(stored.payload.count)-byte payload; it must count the payload bytes the cache writes")
        try await session.renew(Self.renewed(stored.metadata), name)
        let written = await payloadBytesWritten(session.cache) - afterStore
        try require(
            written == 0,
            "renewing the metadata wrote \(written) payload bytes; after a 304 the payload is unchanged, so write "
                + "only the metadata")
    }

    private func checkNamesApart(_ session: Session) async throws(ContractFailure) {
        let a = "contract.a"
        let b = "contract.ab"  // A prefix of the other name: catches prefix matching.
        let snapshotA = Self.sample("name a", size: 2)
        let snapshotB = Self.sample("name ab", size: 3)
        try await session.store(snapshotA, a, .active)
        try await session.store(snapshotB, b, .active)
        try session.expectHit(snapshotA, a, .active, "after storing another name")
        try await session.store(Self.sample("name a, pending", size: 1), a, .pending)
        try session.expectMiss(b, .pending, "after storing a pending snapshot under \(a)")
        let replacedA = Self.sample("name a, replaced", size: 5)
        try await session.store(replacedA, a, .active)
        try session.expectHit(snapshotB, b, .active, "after replacing \(a)")
        // Renew the payload `a` holds now: a cache may refuse metadata naming another payload.
        try await session.renew(Self.renewed(replacedA.metadata), a)
        try session.expectHit(snapshotB, b, .active, "after renewing \(a)")
        _ = try await session.promote(a, "promoting \(a)")
        try session.expectHit(snapshotB, b, .active, "after promoting \(a)")
        try await session.clear(a)
        try session.expectHit(snapshotB, b, .active, "after clearing \(a)")
    }

    private func checkClear(_ session: Session) async throws(ContractFailure) {
        let name = "contract.clear"
        _ = try await session.storeActiveAndPending(name, "clear")
        try await session.clear(name)
        for slot in CacheSlot.allCases { try session.expectMiss(name, slot, "after clearing") }
        try await session.clear(name)
        try await session.clear("contract.never-stored")
        let again = Self.sample("clear, stored again", size: 1)
        try await session.store(again, name, .active)
        try session.expectHit(again, name, .active, "after clearing and storing again")
    }

    private func checkDamagedData(_ session: Session) async throws(ContractFailure) {
        guard let damage else { throw missingHook("damage", orDeclare: .cannotDamageData) }
        for kind in Damage.allCases {
            let name = "contract.damaged-\(kind.rawValue)"
            let stored = Self.sample("damaged, \(kind.rawValue)", size: 8)
            try await session.store(stored, name, .active)
            session.progress.at("damaging \(name) (\(kind.rawValue))")
            try await hook("damage") { try await damage(session.cache, name, .active, kind) }
            try expectUnreadable(session, name, .active, kind, stored)
            let repaired = Self.sample("repaired, \(kind.rawValue)", size: 2)
            try await session.store(repaired, name, .active)
            try session.expectHit(repaired, name, .active, "after storing over \(kind.rawValue) damaged data")
        }
        let name = "contract.damaged-pending"
        let (active, pending) = try await session.storeActiveAndPending(name, "damaged pending")
        session.progress.at("damaging the pending slot of \(name)")
        try await hook("damage") { try await damage(session.cache, name, .pending, .garbage) }
        try expectUnreadable(session, name, .pending, .garbage, pending)
        try session.expectHit(active, name, .active, "after its pending snapshot was damaged")
    }

    private func expectUnreadable(
        _ session: Session, _ name: String, _ slot: CacheSlot, _ kind: Damage, _ stored: CachedSnapshot
    ) throws(ContractFailure) {
        let result = session.load(name, slot)
        switch result {
        case .unreadable: return
        case .miss:
            throw ContractFailure(
                "\(kind.rawValue) damaged data in \(name)/\(slot.rawValue) loaded as a plain miss; answer "
                    + ".unreadable(CacheError) so the client reports the damage")
        case .hit(let snapshot) where snapshot == stored:
            throw ContractFailure(
                "after the damage hook (\(kind.rawValue)), \(name)/\(slot.rawValue) still loads the stored snapshot; "
                    + "the hook must really damage the stored data")
        case .hit(let snapshot):
            throw ContractFailure(
                "\(kind.rawValue) damaged data in \(name)/\(slot.rawValue) loaded as a hit "
                    + "(\(snapshot.payload.count) bytes from \(snapshot.metadata.source)); verify the data "
                    + "(length, checksum, format version) and answer .unreadable")
        }
    }

    private func checkConcurrentAccess(_ session: Session) async throws(ContractFailure) {
        let name = "contract.concurrent"
        let first = Self.sample("concurrent, first", size: 40)
        let second = Self.sample("concurrent, second", size: 7)
        try await session.store(first, name, .active)
        let tasks = max(2, concurrentTasks)
        let rounds = max(1, concurrentRounds)
        let cache = session.cache
        session.progress.at("storing and loading from \(tasks) tasks, \(rounds) times each")
        let problems = await withTaskGroup(of: [String].self) { group in
            for index in 0..<tasks {
                let isWriter = index % 2 == 0
                group.addTask {
                    var problems: [String] = []
                    for round in 0..<rounds {
                        if isWriter {
                            let snapshot = (round + index / 2) % 2 == 0 ? second : first
                            if let error = await thrownError({ try await cache.store(snapshot, as: name, slot: .active) }) {
                                problems.append("a concurrent store failed: \(error)")
                            }
                        } else {
                            let result = cache.load(name, slot: .active)
                            if result != .hit(first) && result != .hit(second) {
                                problems.append("a load saw \(Self.describe(result, against: [first, second]))")
                            }
                        }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        try require(
            problems.isEmpty,
            "\(problems.count) of \(tasks * rounds) concurrent operations went wrong; a store must be atomic "
                + "(write aside, then replace), so a load sees the old snapshot or the new one, whole. First: "
                + (problems.first ?? ""))
        let last = session.load(name, .active)
        try require(
            last == .hit(first) || last == .hit(second),
            "after concurrent stores the cache holds \(Self.describe(last, against: [first, second]))")
    }

    private func checkPendingPromotion(_ session: Session) async throws(ContractFailure) {
        let name = "contract.pending"
        let (active, pending) = try await session.storeActiveAndPending(name, "pending")
        try session.expectHit(active, name, .active, "while a pending snapshot waits")
        try session.expectHit(pending, name, .pending, "before promotion")
        let promoted = try await session.promote(name, "promoting a pending snapshot")
        try require(promoted, "promotePending answered false although a pending snapshot was stored")
        try session.expectHit(pending, name, .active, "after promotion")
        try session.expectMiss(name, .pending, "after promotion (the pending slot must be emptied)")
        let again = try await session.promote(name, "promoting again")
        try require(!again, "a second promotePending answered true although nothing was pending")
        try session.expectHit(pending, name, .active, "after a second, empty promotion")

        let fresh = "contract.pending-only"
        try await session.store(pending, fresh, .pending)
        let promotedAlone = try await session.promote(fresh, "promoting with no active snapshot")
        try require(promotedAlone, "promotePending answered false for a pending snapshot with no active one")
        try session.expectHit(pending, fresh, .active, "after promoting with no active snapshot")
    }

    private func checkPendingDiscard(_ session: Session) async throws(ContractFailure) {
        let name = "contract.discard"
        let (active, _) = try await session.storeActiveAndPending(name, "discard")
        try await session.discardPending(name, "discarding a pending snapshot")
        try session.expectMiss(name, .pending, "after discarding it")
        try session.expectHit(active, name, .active, "after its pending snapshot was discarded")
        try await session.discardPending(name, "discarding with nothing pending")
        try session.expectHit(active, name, .active, "after discarding with nothing pending")
        let promoted = try await session.promote(name, "promoting after the discard")
        try require(!promoted, "promotePending answered true after the pending snapshot was discarded")
        try session.expectHit(active, name, .active, "after promoting nothing")
    }

    private func checkFailedWrite(_ session: Session) async throws(ContractFailure) {
        guard let failWrites else { throw missingHook("failWrites", orDeclare: .noWriteFaults) }
        let name = "contract.failed-write"
        let previous = Self.sample("failed write, previous", size: 3)
        try await session.store(previous, name, .active)
        session.progress.at("making writes fail")
        try await hook("failWrites") { try await failWrites(session.cache, true) }
        session.progress.at("storing while writes fail")
        let storeError = await thrownError { () async throws(CacheError) in
            try await session.cache.store(Self.sample("failed write, lost", size: 6), as: name, slot: .active)
        }
        if storeError == nil {
            try? await failWrites(session.cache, false)
            throw ContractFailure("a store succeeded while the failWrites hook made writes fail; the hook must make writes fail")
        }
        try session.expectHit(previous, name, .active, "after a failed store")
        session.progress.at("renewing while writes fail")
        try? await session.cache.renew(Self.renewed(previous.metadata), for: name)
        guard case .hit(let after) = session.load(name, .active) else {
            throw ContractFailure("a renew while writes fail lost the stored snapshot; it must stay readable")
        }
        try require(
            after.payload == previous.payload,
            "a renew while writes fail changed the stored payload; a failed write must leave the previous data")
        try await hook("failWrites") { try await failWrites(session.cache, false) }
        let next = Self.sample("failed write, next", size: 2)
        try await session.store(next, name, .active)
        try session.expectHit(next, name, .active, "after writes work again")
    }
}

extension SnapshotCacheContract {
    /// One check's cache with the helpers that call it; a cache error fails the check, naming the operation.
    fileprivate struct Session: Sendable {
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
