import ConfigPorts
import Foundation

/// Why a check failed: what was expected, what happened, what to fix.
struct ContractFailure: Error {
    /// The message shown in the report.
    let message: String

    init(_ message: String) { self.message = message }
}

/// The step a check is at, so a check stopped by the watchdog says where it hung.
final class CheckProgress: Sendable {
    private let step = Locked("starting")

    /// Records the step about to run.
    func at(_ description: String) { step.withLock { $0 = description } }

    /// The last recorded step.
    var current: String { step.current }
}

/// Runs a suite's checks one after the other, each under the watchdog, and collects the report.
enum CheckRunner {
    /// Runs `body` for every check not skipped by a declared capability; a check fails when `body` throws or hangs.
    static func run<Check: CaseIterable & RawRepresentable<String> & Sendable>(
        suite: String, subject: String, capabilities: Set<ContractCapability>, timeLimit: TimeInterval,
        skips: (Check) -> [ContractCapability],
        body: @escaping @Sendable (Check, CheckProgress) async throws(ContractFailure) -> Void
    ) async -> ContractReport {
        var results: [ContractCheck] = []
        for check in Check.allCases {
            if let capability = skips(check).first(where: capabilities.contains) {
                results.append(ContractCheck(name: check.rawValue, outcome: .skipped(capability)))
                continue
            }
            let progress = CheckProgress()
            let finished = await Watchdog.run(limit: timeLimit) {
                await thrownError { () async throws(ContractFailure) in try await body(check, progress) }?.message
            }
            let outcome: ContractCheck.Outcome =
                switch finished {
                case nil:
                    .failed("did not finish within the \(format(timeLimit)) time limit; it was stuck at: \(progress.current)")
                case .some(nil): .passed
                case .some(.some(let message)): .failed(message)
                }
            results.append(ContractCheck(name: check.rawValue, outcome: outcome))
        }
        return ContractReport(suite: suite, subject: subject, checks: results)
    }

    /// Runs `body` on a subject the check made, then hands the subject to `discard`, whether `body` failed or not.
    static func using<Subject>(
        _ subject: Subject, _ progress: CheckProgress, discard: ((Subject) async -> Void)?,
        _ body: (Subject) async throws(ContractFailure) -> Void
    ) async throws(ContractFailure) {
        let failure = await thrownError { () async throws(ContractFailure) in try await body(subject) }
        progress.at("discarding the \(Subject.self)")
        await discard?(subject)
        if let failure { throw failure }
    }
}

/// The error `body` throws, or `nil` when it returns.
func thrownError<E: Error>(_ body: () async throws(E) -> Void) async -> E? {
    do throws(E) {
        try await body()
        return nil
    } catch {
        return error
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

/// Consumes a new subscription in a task until its first element, cancels that task, and fails unless
/// the sequence then ends within `bound`; `advice` says how to make it end.
func expectCancellationEnds<Element: Sendable>(
    _ subscribe: @escaping @Sendable () -> AsyncStream<Element>, within bound: TimeInterval, _ progress: CheckProgress,
    advice: String
) async throws(ContractFailure) {
    let firstSeen = Promise<Void>()
    let consumer = Task {
        for await _ in subscribe() { firstSeen.fulfill(()) }
    }
    progress.at("waiting for the consumer to get its first element")
    _ = await firstSeen.wait()
    consumer.cancel()
    progress.at("waiting for the cancelled consumer's sequence to end")
    let ended = await Watchdog.run(limit: bound) { await consumer.value } != nil
    try require(
        ended, "the sequence did not end within \(format(bound)) of the consuming task's cancellation; \(advice)")
}

/// Fails with a message naming the missing hook and the capability that would skip the check instead.
func missingHook(_ name: String, orDeclare capability: ContractCapability) -> ContractFailure {
    ContractFailure("no \(name) hook was given; provide one, or declare the capability .\(capability) to skip this check")
}

/// `2 s`, `0.5 s`.
func format(_ seconds: TimeInterval) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
}
