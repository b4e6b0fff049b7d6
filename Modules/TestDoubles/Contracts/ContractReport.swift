import Foundation

/// What a contract suite found about one adapter: every check with its outcome.
///
/// Assert on ``passed`` (`XCTAssertTrue(report.passed, report.description)`), or call
/// ``recordIssues(sourceLocation:)`` under Swift Testing.
public struct ContractReport: Sendable, Hashable, CustomStringConvertible {
    /// The suite that ran, for example `FetcherContract`.
    public var suite: String
    /// The adapter it ran against, as the author named it.
    public var subject: String
    /// Every check, in the order they ran.
    public var checks: [ContractCheck]

    /// Creates a report.
    public init(suite: String, subject: String, checks: [ContractCheck]) {
        self.suite = suite
        self.subject = subject
        self.checks = checks
    }

    /// The checks that failed.
    public var failures: [ContractCheck] { checks.filter(\.isFailure) }

    /// The checks skipped because of a declared capability.
    public var skipped: [ContractCheck] {
        checks.filter { if case .skipped = $0.outcome { true } else { false } }
    }

    /// Whether no check failed (skipped checks do not fail a report).
    public var passed: Bool { failures.isEmpty }

    /// The check called `name`, if the suite has one.
    public func check(named name: String) -> ContractCheck? { checks.first { $0.name == name } }

    /// A summary line, then one line per check.
    public var description: String {
        let passedCount = checks.count - failures.count - skipped.count
        var lines = [
            "\(suite) on \(subject): \(passed ? "passed" : "FAILED") — \(passedCount) passed, "
                + "\(failures.count) failed, \(skipped.count) skipped"
        ]
        lines += checks.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}

#if canImport(Testing)
    import Testing

    extension ContractReport {
        /// Records one Swift Testing issue per failed check, named after the check, at `sourceLocation`.
        public func recordIssues(sourceLocation: SourceLocation = #_sourceLocation) {
            for check in failures {
                Issue.record(
                    Comment(rawValue: "\(suite) on \(subject): \(check.name): \(check.failureMessage ?? "")"),
                    sourceLocation: sourceLocation)
            }
        }
    }
#endif
