import Foundation

/// How long the watcher waits after every endpoint failed in a row: exponential, with full jitter.
struct ReconnectBackoff: Sendable {
    /// The first cap and the largest, in seconds.
    var delay: ClosedRange<TimeInterval>
    /// A random number in `0...1`.
    var random: @Sendable () -> Double

    /// The wait before round `round` (1 for the first wait): a random share of
    /// `min(upper, lower × 2^(round − 1))`.
    func wait(beforeRound round: Int) -> TimeInterval {
        let cap = min(delay.upperBound, delay.lowerBound * pow(2, Double(max(0, min(round - 1, 30)))))
        return cap * min(1, max(0, random()))
    }
}
