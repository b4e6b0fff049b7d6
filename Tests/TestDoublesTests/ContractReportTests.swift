import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import TestDoubles

@Suite("ContractReport")
struct ContractReportTests {
    private let report = ContractReport(
        suite: "FetcherContract", subject: "Example",
        checks: [
            ContractCheck(name: "a.passes", outcome: .passed),
            ContractCheck(name: "b.fails", outcome: .failed("expected x, got y")),
            ContractCheck(name: "c.skipped", outcome: .skipped(.noSecrets)),
            ContractCheck(name: "d.fails-too", outcome: .failed("broken")),
        ])

    @Test func summarisesFailuresAndSkips() {
        #expect(!report.passed)
        #expect(report.failures.map(\.name) == ["b.fails", "d.fails-too"])
        #expect(report.skipped.map(\.name) == ["c.skipped"])
        #expect(report.check(named: "b.fails")?.failureMessage == "expected x, got y")
        #expect(report.check(named: "missing") == nil)
    }

    @Test func describesEveryCheckOnItsOwnLine() {
        let lines = report.description.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "FetcherContract on Example: FAILED — 1 passed, 2 failed, 1 skipped",
                "  ✔ a.passes",
                "  ✘ b.fails: expected x, got y",
                "  – c.skipped: skipped, the adapter declared noSecrets",
                "  ✘ d.fails-too: broken",
            ])
    }

    @Test func aReportWithOnlyPassesAndSkipsPasses() {
        let clean = ContractReport(
            suite: "S", subject: "T",
            checks: [
                ContractCheck(name: "a", outcome: .passed), ContractCheck(name: "b", outcome: .skipped(.immutable)),
            ])
        #expect(clean.passed)
        #expect(clean.description.hasPrefix("S on T: passed — 1 passed, 0 failed, 1 skipped"))
        clean.recordIssues()
    }

    @Test func recordIssuesRecordsOneIssuePerFailedCheckNamingIt() {
        let recorded = Locked<[String]>([])
        withKnownIssue {
            report.recordIssues()
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            recorded.withLock { $0.append(text) }
            return text.contains("b.fails") || text.contains("d.fails-too")
        }
        let texts = recorded.current
        #expect(texts.count == 2)
        #expect(texts.first?.contains("FetcherContract on Example: b.fails: expected x, got y") == true)
    }

    @Test func capabilitiesAreNamedByTheirRawValue() {
        #expect(ContractCapability.noValidators.description == "noValidators")
        #expect(ContractCapability(rawValue: "custom").rawValue == "custom")
    }
}

@Suite("Watchdog")
struct WatchdogTests {
    @Test func returnsTheResultOfAnOperationThatFinishes() async {
        #expect(await Watchdog.run(limit: 30) { 42 } == 42)
    }

    @Test(.timeLimit(.minutes(1)))
    func givesUpOnAnOperationThatDoesNotFinishAndCancelsIt() async {
        let clock = ManualClock()
        let cancelled = Promise<Void>()
        let result = await Watchdog.run(limit: 0.05) { () -> Int in
            do {
                try await clock.sleep(for: 3600)
            } catch {
                cancelled.fulfill(())
            }
            return 1
        }
        #expect(result == nil)
        _ = await cancelled.wait()
        #expect(clock.sleeperCount == 0)
    }
}
