import Foundation

/// The outcome of one check of a contract suite: its name and whether it passed, failed or was skipped.
public struct ContractCheck: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The adapter did what the contract requires.
        case passed
        /// The adapter did not; the message says what was expected, what happened and what to fix.
        case failed(String)
        /// Not run, because the adapter declared this capability (never skipped silently).
        case skipped(ContractCapability)
    }

    /// The check's stable name, for example `fetcher.unchanged-is-not-modified`.
    public var name: String
    /// What happened.
    public var outcome: Outcome

    /// Creates a check result.
    public init(name: String, outcome: Outcome) {
        self.name = name
        self.outcome = outcome
    }

    /// Whether the check failed.
    public var isFailure: Bool { if case .failed = outcome { true } else { false } }

    /// The failure message, when the check failed.
    public var failureMessage: String? { if case .failed(let message) = outcome { message } else { nil } }

    /// `✔ name`, `✘ name: message` or `– name: skipped, the adapter declared capability`.
    public var description: String {
        switch outcome {
        case .passed: "✔ \(name)"
        case .failed(let message): "✘ \(name): \(message)"
        case .skipped(let capability): "– \(name): skipped, the adapter declared \(capability)"
        }
    }
}
