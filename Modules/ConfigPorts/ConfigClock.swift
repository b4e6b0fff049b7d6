import Foundation

/// Time for the client: wall time for freshness, and sleeping for backoff and periodic refresh.
///
/// Inject `ManualClock` from `TestDoubles` in tests, so nothing sleeps for real.
public protocol ConfigClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Suspends for `seconds`, or throws `CancellationError` when the task is cancelled.
    func sleep(for seconds: TimeInterval) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemClock: ConfigClock {
    /// Creates the system clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }

    /// `Task.sleep` for `seconds` (zero or negative returns at once).
    public func sleep(for seconds: TimeInterval) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
    }
}
