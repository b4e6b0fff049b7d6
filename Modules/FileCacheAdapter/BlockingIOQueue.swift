import Dispatch

/// Runs blocking file work on a dedicated dispatch queue and resumes the awaiting task when it
/// is done, so no thread of Swift's cooperative pool ever waits on the disk or on a lock.
///
/// The queue is concurrent: loads of different configurations proceed side by side, and
/// writers of the same configuration are serialised by its ``WriteLock``, not by the queue.
enum BlockingIOQueue {
    /// The one queue all caches of the process share.
    private static let queue = DispatchQueue(label: "RemoteConfig.FileCacheAdapter.io", attributes: .concurrent)

    /// Runs `work` on the I/O queue and returns its result.
    ///
    /// The continuation is resumed exactly once, by the one block queued here, so the unchecked
    /// kind is safe; the checked kind's type costs a scan of every loaded conformance (about
    /// 0.1 ms here) the first time, which a cold start's cache load would pay before the first read.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withUnsafeContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}
