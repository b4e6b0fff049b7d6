import Foundation

/// How long to wait after consecutive failures (of fetches, of connections): exponential growth with full jitter.
///
/// After the `n`th consecutive failure (n ≥ 1) the wait is a uniformly random number of seconds in
/// `0 ... min(maximum, initial × multiplier^(n-1))` ("full jitter"), so many clients that failed
/// together do not retry together. The client's scheduler lets a later `Retry-After` from the server win.
public struct BackoffPolicy: Sendable, Hashable {
    /// The upper bound of the first wait, in seconds.
    public var initial: TimeInterval
    /// How much the upper bound grows per consecutive failure.
    public var multiplier: Double
    /// The largest upper bound, in seconds.
    public var maximum: TimeInterval
    /// Whether waits are jittered (`true`: uniformly in 0...bound) or exactly the bound.
    public var jitter: Bool

    /// Creates a policy.
    public init(initial: TimeInterval = 2, multiplier: Double = 2, maximum: TimeInterval = 600, jitter: Bool = true) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
    }

    /// 2 s, doubling, at most 10 minutes, with full jitter.
    public static let standard = BackoffPolicy()

    /// The upper bound of the wait after `failures` consecutive failures.
    public func bound(afterFailures failures: Int) -> TimeInterval {
        guard failures > 0 else { return 0 }
        let exponent = Double(min(failures - 1, 64))
        return min(maximum, initial * pow(multiplier, exponent))
    }

    /// The wait after `failures` consecutive failures, drawing the jitter from `random` (a number in 0..<1).
    public func delay(afterFailures failures: Int, random: Double) -> TimeInterval {
        let upper = bound(afterFailures: failures)
        guard jitter else { return upper }
        return upper * min(max(random, 0), 1)
    }

    /// Why this policy is invalid, or nil.
    package var problem: ConfigurationError? {
        if !(initial > 0) || !initial.isFinite {
            return ConfigurationError(.invalidSchedule, "backoff initial must be greater than zero seconds, got \(initial)")
        }
        if !(multiplier >= 1) || !multiplier.isFinite {
            return ConfigurationError(.invalidSchedule, "backoff multiplier must be 1 or more, got \(multiplier)")
        }
        if !(maximum >= initial) || !maximum.isFinite {
            return ConfigurationError(
                .invalidSchedule, "backoff maximum (\(maximum) s) must be at least the initial wait (\(initial) s)")
        }
        return nil
    }
}
