import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

/// A contract that never fails proves nothing: every check of every suite has a deliberately broken
/// adapter aimed at it, and that adapter must fail that check. A new check without one fails here,
/// naming the check. (Credit goes only to the aimed check: an adapter that re-encodes its payload
/// fails almost every fetcher check, which proves little about each.)
@Suite("Every contract check can fail")
struct ContractCoverageTests {
    /// A broken adapter's contract run, and the check it is aimed at.
    private typealias Aimed = (check: String, run: @Sendable () async -> ContractReport)

    /// Runs `run` until its report fails `check`, at most `attempts` times; returns the last report.
    ///
    /// For the never-finishing sources: `AsyncStream(unfolding:)` ends a stream whose consumer was
    /// cancelled before it asked for the next element, so a run in which the contract's cancel lands
    /// in that moment cannot catch the broken source. One caught run shows the check can fail.
    private static func untilCaught(
        _ check: String, attempts: Int = 5, _ run: @Sendable () async -> ContractReport
    ) async -> ContractReport {
        var report = await run()
        for _ in 1..<attempts where report.check(named: check)?.isFailure != true { report = await run() }
        return report
    }

    /// Runs every broken adapter at once; returns the checks not aimed at, and the aimed checks each adapter passed.
    private static func verify(_ aimed: [Aimed], covering all: [String]) async -> (unaimed: [String], missed: [String]) {
        let missed = await withTaskGroup(of: String?.self) { group in
            for (check, run) in aimed {
                group.addTask {
                    let report = await run()
                    return report.check(named: check)?.isFailure == true ? nil : "\(report.subject) passed \(check)"
                }
            }
            var missed: [String] = []
            for await miss in group { if let miss { missed.append(miss) } }
            return missed
        }
        return (Set(all).subtracting(aimed.map(\.check)).sorted(), missed.sorted())
    }

    @Test func everyFetcherCheckHasABrokenFetcherThatFailsIt() async {
        typealias Check = FetcherContract.Check
        /// A broken fetcher over its own backend, aimed at `check`.
        func broken(
            _ check: Check, secrets: [String] = [], bound: TimeInterval = 2,
            _ make: @escaping @Sendable (InMemoryFetcher) -> any ConfigFetcher
        ) -> Aimed {
            let run: @Sendable () async -> ContractReport = {
                let backend = InMemoryFetcher(json: "{}")
                return await contract(
                    "\(type(of: make(backend)))", backend: backend, capabilities: secrets.isEmpty ? [.noSecrets] : [],
                    secrets: secrets, cancellationBound: bound
                ) { make(backend) }.run()
            }
            return (check.rawValue, run)
        }
        let result = await Self.verify(
            [
                broken(.firstFetch) { ReencodingFetcher(backend: $0) },
                broken(.unconditionalFetch) { RemembersLastAnswerFetcher(backend: $0) },
                broken(.unchanged) { IgnoresValidatorsFetcher(backend: $0) },
                broken(.unknownValidators) { AnyETagIsCurrentFetcher(backend: $0) },
                broken(.change) { IgnoresValidatorsFetcher(backend: $0) },
                broken(.temporaryFailure) { UntypedErrorsFetcher(backend: $0) },
                broken(.permanentFailure) { AlwaysRetryableFetcher(backend: $0) },
                broken(.cancelledBeforeStart) { SwallowsCancellationFetcher(backend: $0) },
                broken(.cancelledInFlight, bound: 0.2) { ShieldsCancellationFetcher(backend: $0) },
                broken(.concurrentFetches) { StampedETagFetcher(backend: $0) },
                broken(.noRetries) { RetriesOnItsOwnFetcher(backend: $0) },
                broken(.noSecrets, secrets: ["tok-9"]) { LeaksSecretFetcher(backend: $0, token: "tok-9") },
            ], covering: Check.allCases.map(\.rawValue))
        #expect(result.unaimed.isEmpty, "no broken fetcher is aimed at \(result.unaimed)")
        #expect(result.missed.isEmpty, "\(result.missed)")
    }

    @Test func everyCacheCheckHasABrokenCacheThatFailsIt() async {
        typealias Check = SnapshotCacheContract<InMemoryCache>.Check
        /// A broken cache wrapping an InMemoryCache, aimed at `check`.
        func broken<Cache: WrappingCache>(_ check: Check, _ make: @escaping @Sendable () -> Cache) -> Aimed {
            (check.rawValue, { await cacheContract("\(Cache.self)", make: make, inner: { $0.inner }).run() })
        }
        let torn: Aimed = (
            Check.concurrentAccess.rawValue,
            {
                await SnapshotCacheContract<TornWritesCache>(
                    subject: "TornWritesCache", capabilities: [.unmeasuredWrites, .cannotDamageData, .noWriteFaults],
                    makeCache: { TornWritesCache() }, concurrentRounds: 50
                ).run()
            }
        )
        let result = await Self.verify(
            [
                broken(.emptyMiss) { EmptyIsUnreadableCache() },
                broken(.roundTrip) { DropsTTLHintCache() },
                broken(.renewMetadata) { RenewKeepsOldMetadataCache() },
                broken(.renewAbsent) { RenewCreatesCache() },
                broken(.renewAbsent) { RenewAbsentSucceedsCache() },
                broken(.renewAbsent) { RenewAbsentWrongErrorCache() },
                broken(.renewWritesNoPayload) { RenewRewritesPayloadCache() },
                broken(.namesApart) { NameBlindCache() },
                broken(.namesApart) { PrefixClearCache() },
                broken(.clear) { ClearKeepsPendingCache() },
                broken(.damagedData) { DamageAsMissCache() },
                torn,
                broken(.pendingPromotion) { NoPendingCache() },
                broken(.pendingDiscard) { NoDiscardCache() },
                broken(.failedWrite) { FailedWriteLosesPreviousCache() },
            ], covering: Check.allCases.map(\.rawValue))
        #expect(result.unaimed.isEmpty, "no broken cache is aimed at \(result.unaimed)")
        #expect(result.missed.isEmpty, "\(result.missed)")
    }

    @Test func everyOverrideSourceCheckHasABrokenSourceThatFailsIt() async {
        typealias Check = OverrideSourceContract<InMemoryOverrideSource>.Check
        /// A broken source wrapping an InMemoryOverrideSource, aimed at `check`.
        func broken<Source: OverrideSource>(
            _ check: Check, _ wrap: @escaping @Sendable (InMemoryOverrideSource) -> Source,
            inner: @escaping @Sendable (Source) -> InMemoryOverrideSource
        ) -> Aimed {
            (check.rawValue, { await overrideContract("\(Source.self)", wrap: wrap, inner: inner).run() })
        }
        let parked = Locked<[NeverFinishingSource]>([])
        let neverFinishing: Aimed = (
            Check.cancellationEnds.rawValue,
            {
                // Declared immutable, so no check waits for a change that never comes.
                await Self.untilCaught(Check.cancellationEnds.rawValue) {
                    await OverrideSourceContract<NeverFinishingSource>(
                        subject: "NeverFinishingSource", capabilities: [.immutable, .noMalformedInput],
                        makeSource: { values in
                            let source = NeverFinishingSource(
                                inner: InMemoryOverrideSource(values: values.mapValues { .text($0) }))
                            parked.withLock { $0.append(source) }
                            return source
                        },
                        cancellationBound: 0.2
                    ).run()
                }
            }
        )
        let strictLines: Aimed = (
            Check.problemsReported.rawValue,
            {
                await OverrideSourceContract<LinesSource>(
                    subject: "LinesSource (strict)", capabilities: [.immutable],
                    makeSource: { LinesSource(values: $0, reportsProblems: false) },
                    makeSourceWithMalformedEntry: { LinesSource(values: $0, extraLines: ["oops"], reportsProblems: false) }
                ).run()
            }
        )
        let result = await Self.verify(
            [
                broken(.valuesReturned, { LeaksKeysSource(inner: $0) }, inner: { $0.inner }),
                broken(.currentFirst, { PlaceholderFirstSource(inner: $0) }, inner: { $0.inner }),
                broken(.eachChange, { DefaultChangesSource(inner: $0) }, inner: { $0.inner }),
                broken(.manySubscribers, { LastSubscriberOnlySource(inner: $0) }, inner: { $0.inner }),
                neverFinishing,
                strictLines,
            ], covering: Check.allCases.map(\.rawValue))
        for source in parked.current { source.releaseAll() }
        #expect(result.unaimed.isEmpty, "no broken override source is aimed at \(result.unaimed)")
        #expect(result.missed.isEmpty, "\(result.missed)")
    }

    @Test func everyChangeSignalCheckHasABrokenSourceThatFailsIt() async {
        typealias Check = ChangeSignalContract<InMemoryChangeSignalSource>.Check
        /// A broken source wrapping an InMemoryChangeSignalSource, aimed at `check`.
        func broken<Source: ChangeSignalSource>(
            _ check: Check, timeLimit: TimeInterval = 30, _ wrap: @escaping @Sendable (InMemoryChangeSignalSource) -> Source,
            inner: @escaping @Sendable (Source) -> InMemoryChangeSignalSource
        ) -> Aimed {
            (check.rawValue, { await signalContract("\(Source.self)", timeLimit: timeLimit, wrap: wrap, inner: inner).run() })
        }
        let parked = Locked<[NeverFinishingSignals]>([])
        let neverFinishing: Aimed = (
            Check.cancellationEnds.rawValue,
            {
                await Self.untilCaught(Check.cancellationEnds.rawValue) {
                    await neverFinishingSignalContract("NeverFinishingSignals", parking: parked).run()
                }
            }
        )
        let result = await Self.verify(
            [
                broken(.currentFirst, timeLimit: 1, { SilentUntilChangeSignals(inner: $0) }, inner: { $0.inner }),
                broken(.changeSignalled, timeLimit: 1, { FirstOnlySignals(inner: $0) }, inner: { $0.inner }),
                broken(.inOrder, { RepeatsThePreviousSignal(inner: $0) }, inner: { $0.inner }),
                broken(.manySubscribers, { LastSubscriberOnlySignals(inner: $0) }, inner: { $0.inner }),
                neverFinishing,
            ], covering: Check.allCases.map(\.rawValue))
        for source in parked.current { source.releaseAll() }
        #expect(result.unaimed.isEmpty, "no broken change-signal source is aimed at \(result.unaimed)")
        #expect(result.missed.isEmpty, "\(result.missed)")
    }
}
