import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("SnapshotCacheContract")
struct SnapshotCacheContractTests {
    private typealias Check = SnapshotCacheContract<InMemoryCache>.Check

    private func caught<C>(_ report: ContractReport, _ check: SnapshotCacheContract<C>.Check) -> Bool {
        report.check(named: check.rawValue)?.isFailure == true
    }

    @Test func inMemoryCachePassesEveryCheck() async {
        let report = await cacheContract("InMemoryCache", make: { InMemoryCache() }, inner: { $0 }).run()
        report.recordIssues()
        #expect(report.passed)
        #expect(report.skipped.isEmpty)
        #expect(report.checks.map(\.name) == Check.allCases.map(\.rawValue))
    }

    @Test func inMemoryCacheDeclaringEveryCapabilitySkipsOnlyThoseChecks() async {
        let report = await SnapshotCacheContract<InMemoryCache>(
            subject: "InMemoryCache, bare", capabilities: [.unmeasuredWrites, .cannotDamageData, .noWriteFaults],
            makeCache: { InMemoryCache() }
        ).run()
        report.recordIssues()
        #expect(report.passed)
        #expect(
            Set(report.skipped.map(\.name))
                == Set([Check.renewWritesNoPayload, .damagedData, .failedWrite].map(\.rawValue)))
    }

    @Test func missingHooksFailUnlessDeclared() async {
        let report = await SnapshotCacheContract<InMemoryCache>(subject: "bare", makeCache: { InMemoryCache() }).run()
        for check in [Check.renewWritesNoPayload, .damagedData, .failedWrite] {
            #expect(report.check(named: check.rawValue)?.failureMessage?.contains("or declare the capability") == true)
        }
    }

    @Test func discardIsCalledForEveryCacheMade() async {
        let made = Counter()
        let discarded = Counter()
        _ = await SnapshotCacheContract<InMemoryCache>(
            subject: "counted", capabilities: [.unmeasuredWrites, .cannotDamageData, .noWriteFaults],
            makeCache: {
                made.increment()
                return InMemoryCache()
            },
            discard: { _ in discarded.increment() }
        ).run()
        #expect(made.value == Check.allCases.count - 3)
        #expect(discarded.value == made.value)
    }

    @Test func tornWritesAreCaught() async {
        let report = await SnapshotCacheContract<TornWritesCache>(
            subject: "torn writes", capabilities: [.unmeasuredWrites, .cannotDamageData, .noWriteFaults],
            makeCache: { TornWritesCache() }, concurrentRounds: 50
        ).run()
        #expect(caught(report, SnapshotCacheContract<TornWritesCache>.Check.concurrentAccess))
        #expect(
            report.check(named: Check.concurrentAccess.rawValue)?.failureMessage?.contains("torn snapshot") == true)
    }

    @Test func namesNotKeptApartAreCaught() async {
        let report = await cacheContract("name blind", make: { NameBlindCache() }, inner: { $0.inner }).run()
        #expect(caught(report, SnapshotCacheContract<NameBlindCache>.Check.namesApart))
    }

    @Test func clearingByPrefixIsCaught() async {
        let report = await cacheContract("prefix clear", make: { PrefixClearCache() }, inner: { $0.inner }).run()
        #expect(caught(report, SnapshotCacheContract<PrefixClearCache>.Check.namesApart))
        #expect(report.failures.count == 1)
    }

    @Test func renewRewritingThePayloadIsCaught() async {
        let report = await cacheContract("renew rewrites", make: { RenewRewritesPayloadCache() }, inner: { $0.inner })
            .run()
        #expect(caught(report, SnapshotCacheContract<RenewRewritesPayloadCache>.Check.renewWritesNoPayload))
        #expect(report.check(named: Check.renewMetadata.rawValue)?.outcome == .passed)
    }

    @Test func damageReportedAsAPlainMissIsCaught() async {
        let report = await cacheContract("damage as miss", make: { DamageAsMissCache() }, inner: { $0.inner }).run()
        #expect(caught(report, SnapshotCacheContract<DamageAsMissCache>.Check.damagedData))
        #expect(report.check(named: Check.damagedData.rawValue)?.failureMessage?.contains("plain miss") == true)
    }

    @Test func aDamageHookThatDoesNothingIsCaught() async {
        let report = await SnapshotCacheContract<InMemoryCache>(
            subject: "no-op damage", capabilities: [.unmeasuredWrites, .noWriteFaults], makeCache: { InMemoryCache() },
            damage: { _, _, _, _ in }
        ).run()
        #expect(report.check(named: Check.damagedData.rawValue)?.failureMessage?.contains("really damage") == true)
    }

    @Test func missingPromotionIsCaught() async {
        let report = await cacheContract("no pending", make: { NoPendingCache() }, inner: { $0.inner }).run()
        #expect(caught(report, SnapshotCacheContract<NoPendingCache>.Check.pendingPromotion))
    }

    @Test func aFailedWriteThatLosesThePreviousSnapshotIsCaught() async {
        let report = await cacheContract(
            "loses previous", make: { FailedWriteLosesPreviousCache() }, inner: { $0.inner }
        ).run()
        #expect(caught(report, SnapshotCacheContract<FailedWriteLosesPreviousCache>.Check.failedWrite))
    }

    @Test func anEmptyCacheThatReportsUnreadableIsCaught() async {
        let report = await cacheContract("empty is unreadable", make: { EmptyIsUnreadableCache() }, inner: { $0.inner })
            .run()
        #expect(caught(report, SnapshotCacheContract<EmptyIsUnreadableCache>.Check.emptyMiss))
        #expect(report.check(named: Check.emptyMiss.rawValue)?.failureMessage?.contains("expected a miss") == true)
    }

    @Test func aRenewalThatKeepsTheOldMetadataIsCaught() async {
        let report = await cacheContract(
            "renew keeps old metadata", make: { RenewKeepsOldMetadataCache() }, inner: { $0.inner }
        ).run()
        #expect(report.failures.map(\.name) == [Check.renewMetadata.rawValue])
        #expect(report.check(named: Check.renewMetadata.rawValue)?.failureMessage?.contains("fetchedAt") == true)
    }

    @Test func aRenewalThatCreatesASnapshotIsCaught() async {
        let report = await cacheContract("renew creates", make: { RenewCreatesCache() }, inner: { $0.inner }).run()
        #expect(caught(report, SnapshotCacheContract<RenewCreatesCache>.Check.renewAbsent))
        #expect(report.failures.map(\.name) == [Check.renewAbsent.rawValue])
        #expect(
            report.check(named: Check.renewAbsent.rawValue)?.failureMessage?.contains("must not create a snapshot") == true)
    }

    @Test func aRenewalOfAnAbsentNameThatSucceedsIsCaught() async {
        let report = await cacheContract(
            "renew absent succeeds", make: { RenewAbsentSucceedsCache() }, inner: { $0.inner }
        ).run()
        #expect(report.failures.map(\.name) == [Check.renewAbsent.rawValue])
        #expect(report.check(named: Check.renewAbsent.rawValue)?.failureMessage?.contains("succeeded") == true)
    }

    @Test func aRenewalOfAnAbsentNameThatThrowsAnotherErrorIsCaught() async {
        let report = await cacheContract(
            "renew absent, wrong error", make: { RenewAbsentWrongErrorCache() }, inner: { $0.inner }
        ).run()
        #expect(report.failures.map(\.name) == [Check.renewAbsent.rawValue])
        #expect(report.check(named: Check.renewAbsent.rawValue)?.failureMessage?.contains("threw") == true)
    }

    @Test func aClearThatKeepsThePendingSnapshotIsCaught() async {
        let report = await cacheContract("clear keeps pending", make: { ClearKeepsPendingCache() }, inner: { $0.inner })
            .run()
        #expect(caught(report, SnapshotCacheContract<ClearKeepsPendingCache>.Check.clear))
        #expect(report.failures.map(\.name) == [Check.clear.rawValue])
    }

    @Test func aLostMetadataFieldIsCaughtAndNamed() async {
        let report = await cacheContract("drops ttl", make: { DropsTTLHintCache() }, inner: { $0.inner }).run()
        #expect(caught(report, SnapshotCacheContract<DropsTTLHintCache>.Check.roundTrip))
        #expect(report.check(named: Check.roundTrip.rawValue)?.failureMessage?.contains("ttlHint") == true)
    }
}

/// A thread-safe counter for tests.
final class Counter: Sendable {
    private let state = Locked(0)
    /// Adds one.
    func increment() { state.withLock { $0 += 1 } }
    /// The count.
    var value: Int { state.current }
}
