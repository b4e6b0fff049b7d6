import ConfigDomain
import ConfigPorts
import Foundation

/// The checks of ``SnapshotCacheContract``, one function each, in the order the suite runs them.
extension SnapshotCacheContract {
    func checkEmptyMiss(_ session: Session) async throws(ContractFailure) {
        for slot in CacheSlot.allCases {
            try session.expectMiss("contract.empty", slot, "loading from an empty cache")
        }
        let promoted = try await session.promote("contract.empty", "promoting in an empty cache")
        try require(!promoted, "promoting the pending snapshot of an empty cache answered true; there was none")
    }

    func checkRoundTrip(_ session: Session) async throws(ContractFailure) {
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

    func checkRenewMetadata(_ session: Session) async throws(ContractFailure) {
        let name = "contract.renew"
        let (stored, pending) = try await session.storeActiveAndPending(name, "renew")
        let renewed = Self.renewed(stored.metadata)
        try await session.renew(renewed, name)
        try session.expectHit(
            CachedSnapshot(payload: stored.payload, metadata: renewed), name, .active, "after renewing its metadata")
        try session.expectHit(pending, name, .pending, "after renewing the active snapshot's metadata")
    }

    func checkRenewAbsent(_ session: Session) async throws(ContractFailure) {
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

    func checkRenewWritesNoPayload(_ session: Session) async throws(ContractFailure) {
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

    func checkNamesApart(_ session: Session) async throws(ContractFailure) {
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

    func checkClear(_ session: Session) async throws(ContractFailure) {
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

    func checkDamagedData(_ session: Session) async throws(ContractFailure) {
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

    func expectUnreadable(
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

    func checkConcurrentAccess(_ session: Session) async throws(ContractFailure) {
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

    func checkPendingPromotion(_ session: Session) async throws(ContractFailure) {
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

    func checkPendingDiscard(_ session: Session) async throws(ContractFailure) {
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

    func checkFailedWrite(_ session: Session) async throws(ContractFailure) {
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
