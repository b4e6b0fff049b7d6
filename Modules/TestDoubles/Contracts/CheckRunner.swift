import Foundation

/// Why a check failed: what was expected, what happened, what to fix.
struct ContractFailure: Error {
    /// The message shown in the report.
    let message: String

    init(_ message: String) { self.message = message }
}

/// The step a check is at, so a check stopped by the watchdog says where it hung.
final class CheckProgress: Sendable {
    private let step = LockedState("starting")

    /// Records the step about to run.
    func at(_ description: String) { step.withLock { $0 = description } }

    /// The last recorded step.
    var current: String { step.withLock { $0 } }
}

/// One check of a suite: its name, the capabilities that skip it, and its body.
struct CheckDefinition: Sendable {
    let name: String
    let skippedBy: [ContractCapability]
    let body: @Sendable (CheckProgress) async throws(ContractFailure) -> Void
}

/// Runs checks one after the other, each under the watchdog, and collects a report.
enum CheckRunner {
    static func run(
        suite: String, subject: String, capabilities: Set<ContractCapability>, timeLimit: TimeInterval,
        checks: [CheckDefinition]
    ) async -> ContractReport {
        var results: [ContractCheck] = []
        for check in checks {
            if let capability = check.skippedBy.first(where: capabilities.contains) {
                results.append(ContractCheck(name: check.name, outcome: .skipped(capability)))
                continue
            }
            let progress = CheckProgress()
            let failure = await Watchdog.run(limit: timeLimit) { () -> String? in
                do throws(ContractFailure) {
                    try await check.body(progress)
                    return nil
                } catch {
                    return error.message
                }
            }
            let outcome: ContractCheck.Outcome
            switch failure {
            case nil:
                outcome = .failed(
                    "did not finish within the \(format(timeLimit)) time limit; it was stuck at: \(progress.current)")
            case .some(nil): outcome = .passed
            case .some(.some(let message)): outcome = .failed(message)
            }
            results.append(ContractCheck(name: check.name, outcome: outcome))
        }
        return ContractReport(suite: suite, subject: subject, checks: results)
    }
}

/// Fails the check with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(ContractFailure) {
    if !condition { throw ContractFailure(message()) }
}

/// Runs one of the author's hooks, turning its error into a check failure that names the hook.
func hook<T>(_ name: String, _ body: () async throws -> T) async throws(ContractFailure) -> T {
    do {
        return try await body()
    } catch {
        throw ContractFailure("the \(name) hook threw \(error); the contract cannot set up this check")
    }
}

/// Fails with a message naming the missing hook and the capability that would skip the check instead.
func missingHook(_ name: String, orDeclare capability: ContractCapability) -> ContractFailure {
    ContractFailure(
        "no \(name) hook was given; provide one, or declare the capability .\(capability) to skip this check")
}

/// `2 s`, `0.5 s`.
func format(_ seconds: TimeInterval) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
}

/// Cancels the current task, so the next call sees a cancelled task from its start.
func cancelCurrentTask() {
    withUnsafeCurrentTask { $0?.cancel() }
}
