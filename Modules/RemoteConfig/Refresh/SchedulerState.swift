import ConfigDomain
import Foundation

/// What the refresh scheduler will do next, and why: inspectable at any time.
public struct SchedulerState: Sendable, Hashable {
    /// Why the next fetch is held back.
    public enum Hold: Sendable, Hashable, CustomStringConvertible {
        /// Nothing holds it back: a refresh may fetch now.
        case none
        /// The minimum fetch interval since the last fetch has not passed.
        case minimumInterval
        /// Backing off after consecutive failures.
        case backoff
        /// The server asked to wait (`Retry-After`).
        case retryAfter
        /// The client was stopped.
        case stopped

        /// The hold in words.
        public var description: String {
            switch self {
            case .none: "none"
            case .minimumInterval: "minimum fetch interval"
            case .backoff: "backoff after failures"
            case .retryAfter: "server asked to retry later"
            case .stopped: "stopped"
            }
        }
    }

    /// The earliest time a non-forced refresh will fetch, or nil when it may fetch now.
    public var nextAllowedFetch: Date?
    /// Why the next fetch is held back.
    public var hold: Hold
    /// Failed fetches since the last success.
    public var consecutiveFailures: Int
    /// When the fetcher was last called.
    public var lastAttempt: Date?
    /// The period of the background refresh, if one runs.
    public var periodicInterval: TimeInterval?

    /// Creates a state.
    public init(
        nextAllowedFetch: Date? = nil, hold: Hold = .none, consecutiveFailures: Int = 0, lastAttempt: Date? = nil,
        periodicInterval: TimeInterval? = nil
    ) {
        self.nextAllowedFetch = nextAllowedFetch
        self.hold = hold
        self.consecutiveFailures = consecutiveFailures
        self.lastAttempt = lastAttempt
        self.periodicInterval = periodicInterval
    }
}
