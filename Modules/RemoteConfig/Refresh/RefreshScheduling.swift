import ConfigDomain
import ConfigPorts
import Foundation

/// When a provider may fetch next: after a success, the minimum fetch interval; after a failure,
/// exponential backoff with full jitter, and a server's `Retry-After` when it asks for longer.
extension EngineStatus {
    /// Records a refresh that succeeded at `now` with `result`.
    mutating func succeeded(_ result: RefreshResult, at now: Date, minimumInterval: TimeInterval) {
        lastFetch = now
        lastOutcome = result
        lastError = nil
        scheduler.consecutiveFailures = 0
        if minimumInterval > 0, let attempt = scheduler.lastAttempt {
            scheduler.nextAllowedFetch = attempt.addingTimeInterval(minimumInterval)
            scheduler.hold = .minimumInterval
        } else {
            scheduler.nextAllowedFetch = nil
            scheduler.hold = .none
        }
    }

    /// Records a refresh that failed at `now` with `error`, and holds the next fetch back: the later of
    /// the minimum interval and the backoff (`jitter` in `0..<1`), or `retry`'s date when it is later still.
    mutating func failed(
        _ error: ConfigError, retry: RetryAdvice, at now: Date, minimumInterval: TimeInterval, backoff: BackoffPolicy,
        jitter: Double
    ) {
        lastFetch = now
        lastError = error
        scheduler.consecutiveFailures += 1
        let attempt = scheduler.lastAttempt ?? now
        let minimumUntil = attempt.addingTimeInterval(minimumInterval)
        let backoffUntil = attempt.addingTimeInterval(
            backoff.delay(afterFailures: scheduler.consecutiveFailures, random: jitter))
        var next = max(minimumUntil, backoffUntil)
        var hold: SchedulerState.Hold = backoffUntil >= minimumUntil ? .backoff : .minimumInterval
        if case .after(let date) = retry, date > next {
            next = date
            hold = .retryAfter
        }
        scheduler.nextAllowedFetch = next
        scheduler.hold = hold
    }

    /// Seconds from `now` until the periodic refresh should next try, every `interval` seconds.
    func nextPeriodicDelay(interval: TimeInterval, now: Date) -> TimeInterval {
        max(scheduler.nextAllowedFetch.map { max(interval, $0.timeIntervalSince(now)) } ?? interval, 0)
    }
}
