import ConfigDomain
import Foundation

/// How long to wait before reconnecting: a `BackoffPolicy` (exponential growth with full
/// jitter), from the server's `retry:` time when it sent one.
///
/// After the `n`th consecutive failed or ended connection (n ≥ 1) the wait is the backoff's, with
/// the server's reconnection time (`retry:`) in place of its `initial` if the server sent one. The
/// count starts again once a connection delivers something. Full jitter spreads a fleet that lost
/// the server together, so it does not reconnect together.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The waits; its `initial` applies until the server sends `retry:`.
    public var backoff: BackoffPolicy
    /// Whether the server's `retry:` field replaces the backoff's `initial`.
    public var honorsServerRetry: Bool

    /// Creates a policy: waits from `initial` seconds, growing by `multiplier`, at most `maximum`.
    public init(initial: TimeInterval = 1, multiplier: Double = 2, maximum: TimeInterval = 60, honorsServerRetry: Bool = true) {
        self.backoff = BackoffPolicy(initial: initial, multiplier: multiplier, maximum: maximum)
        self.honorsServerRetry = honorsServerRetry
    }

    /// The wait after `failures` consecutive failures, given the server's retry time, drawing the jitter from `random` (0..<1).
    public func delay(afterFailures failures: Int, serverRetry: TimeInterval?, random: Double) -> TimeInterval {
        var backoff = backoff
        if honorsServerRetry, let serverRetry { backoff.initial = serverRetry }
        // Nothing validates this policy up front: a multiplier below 1 counts as 1, and a negative wait as none.
        backoff.multiplier = max(backoff.multiplier, 1)
        return max(0, backoff.delay(afterFailures: failures, random: random))
    }
}
