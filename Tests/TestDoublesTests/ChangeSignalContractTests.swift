import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("ChangeSignalContract")
struct ChangeSignalContractTests {
    private typealias Check = ChangeSignalContract<InMemoryChangeSignalSource>.Check

    private func caught(_ report: ContractReport, _ check: Check) -> Bool {
        report.check(named: check.rawValue)?.isFailure == true
    }

    @Test(arguments: [SignalDelivery.versions, .payloads])
    func inMemorySourcePassesEveryCheck(delivery: SignalDelivery) async {
        let report = await signalContract("InMemoryChangeSignalSource", delivery: delivery, wrap: { $0 }, inner: { $0 }).run()
        report.recordIssues()
        #expect(report.passed)
        #expect(report.skipped.isEmpty)
        #expect(report.checks.map(\.name) == Check.allCases.map(\.rawValue))
    }

    @Test func aSourceThatSaysOnlySomethingChangedPasses() async {
        let report = await ChangeSignalContract<InMemoryChangeSignalSource>(
            subject: "unversioned", makeSource: { _ in InMemoryChangeSignalSource() },
            publish: { source, _ in
                source.announce(version: nil)
                return nil
            }
        ).run()
        report.recordIssues()
        #expect(report.passed)
    }

    @Test func silenceUntilTheFirstChangeIsCaughtByTheTimeLimit() async {
        let report = await signalContract(
            "silent", timeLimit: 1, wrap: { SilentUntilChangeSignals(inner: $0) }, inner: { $0.inner }
        ).run()
        #expect(caught(report, .currentFirst))
        #expect(report.check(named: Check.currentFirst.rawValue)?.failureMessage?.contains("stuck at") == true)
    }

    @Test func notSignallingChangesIsCaught() async {
        let report = await signalContract(
            // 15 s, not 1: the missing change is caught only at the limit, and the check that must pass needs the
            // same limit while the whole suite shares two cores (a clean-clone run once took over 1 s to tear a source down).
            "first only", timeLimit: 15, wrap: { FirstOnlySignals(inner: $0) }, inner: { $0.inner }
        ).run()
        #expect(caught(report, .changeSignalled))
        #expect(report.check(named: Check.currentFirst.rawValue)?.outcome == .passed)
    }

    @Test func versionsGoingBackwardsAreCaught() async {
        let report = await signalContract(
            "repeats", wrap: { RepeatsThePreviousSignal(inner: $0) }, inner: { $0.inner }
        ).run()
        #expect(report.failures.map(\.name) == [Check.inOrder.rawValue])
        #expect(report.check(named: Check.inOrder.rawValue)?.failureMessage?.contains("in the order") == true)
    }

    @Test func reencodedPayloadsAreCaught() async {
        let report = await signalContract(
            "re-encodes", delivery: .payloads, wrap: { ReencodingSignals(inner: $0) }, inner: { $0.inner }
        ).run()
        #expect(caught(report, .currentFirst))
        #expect(caught(report, .changeSignalled))
        #expect(report.check(named: Check.changeSignalled.rawValue)?.failureMessage?.contains("re-encoded") == true)
    }

    @Test func servingOnlyTheLastSubscriberIsCaught() async {
        let report = await signalContract(
            "last subscriber only", wrap: { LastSubscriberOnlySignals(inner: $0) }, inner: { $0.inner }
        ).run()
        #expect(report.failures.map(\.name) == [Check.manySubscribers.rawValue])
    }

    @Test func aSequenceThatNeverFinishesOnCancelIsCaught() async {
        let sources = Locked<[NeverFinishingSignals]>([])
        let report = await neverFinishingSignalContract("never finishes", parking: sources).run()
        for source in sources.current { source.releaseAll() }
        #expect(caught(report, .cancellationEnds))
        #expect(report.check(named: Check.cancellationEnds.rawValue)?.failureMessage?.contains("0.2 s") == true)
    }

    @Test func aThrowingPublishHookFailsTheCheckNamingTheHook() async {
        struct Down: Error {}
        let report = await ChangeSignalContract<InMemoryChangeSignalSource>(
            subject: "down", makeSource: { _ in InMemoryChangeSignalSource() }, publish: { _, _ in throw Down() }
        ).run()
        #expect(caught(report, .changeSignalled))
        #expect(report.check(named: Check.changeSignalled.rawValue)?.failureMessage?.contains("publish hook threw") == true)
        #expect(report.check(named: Check.currentFirst.rawValue)?.outcome == .passed)
    }
}
