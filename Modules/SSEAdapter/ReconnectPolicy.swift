import Foundation

/// How long to wait before reconnecting: exponential growth with full jitter, from the server's
/// `retry:` time when it sent one.
///
/// After the `n`th consecutive failed or ended connection (n ≥ 1) the wait is a uniformly random
/// number of seconds in `0 ... min(maximum, base × multiplier^(n-1))`, where `base` is the
/// server's reconnection time (`retry:`) if it sent one, else ``initial``. The count starts again
/// once a connection delivers something. Full jitter spreads a fleet that lost the server together,
/// so it does not reconnect together.
public struct ReconnectPolicy: Sendable, Hashable {
    /// The upper bound of the first wait, in seconds, until the server sends `retry:`.
    public var initial: TimeInterval
    /// How much the upper bound grows per consecutive failure.
    public var multiplier: Double
    /// The largest upper bound, in seconds.
    public var maximum: TimeInterval
    /// Whether the server's `retry:` field replaces ``initial``.
    public var honorsServerRetry: Bool

    /// Creates a policy.
    public init(initial: TimeInterval = 1, multiplier: Double = 2, maximum: TimeInterval = 60, honorsServerRetry: Bool = true) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.honorsServerRetry = honorsServerRetry
    }

    /// The wait after `failures` consecutive failures, given the server's retry time, drawing the jitter from `random` (0..<1).
    public func delay(afterFailures failures: Int, serverRetry: TimeInterval?, random: Double) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let base = honorsServerRetry ? (serverRetry ?? initial) : initial
        let exponent = Double(min(failures - 1, 64))
        let bound = min(maximum, base * pow(max(multiplier, 1), exponent))
        return max(0, bound * min(max(random, 0), 1))
    }
}
