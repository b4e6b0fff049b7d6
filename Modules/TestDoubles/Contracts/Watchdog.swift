import Foundation

/// Runs an operation with a time limit, so an adapter that never answers fails a check instead of hanging the suite.
enum Watchdog {
    /// The operation's result, or `nil` when it did not finish within `seconds` (it is then cancelled and abandoned).
    static func run<T: Sendable>(
        limit seconds: TimeInterval, _ operation: @escaping @Sendable () async -> T
    ) async -> T? {
        let result = Promise<T?>()
        let work = Task { result.fulfill(await operation()) }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 86_400)) * 1_000_000_000))
            result.fulfill(nil)
        }
        let value = await result.wait()  // `nil` if the caller is cancelled.
        timer.cancel()
        work.cancel()
        return value ?? nil
    }
}
