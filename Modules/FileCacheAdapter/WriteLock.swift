import ConfigDomain
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The advisory lock that serialises every change to one configuration's files, across threads
/// and processes: an exclusive `flock` on `<stem>.lock`.
///
/// `flock` locks belong to an open file description, so two descriptors opened separately (two
/// cache instances, or two processes) exclude each other. The wait is bounded: non-blocking
/// attempts, pausing 0.5 ms and doubling up to 8 ms between them, until the timeout passes.
/// The lock file itself is never deleted (deleting a lock file lets two writers lock two
/// different inodes). The lock is released by ``release()`` or when the value goes away.
///
/// Advisory locks are not reliable on network file systems; keep the cache on a local volume.
final class WriteLock {
    private let file: OpenFile

    private init(file: OpenFile) { self.file = file }

    /// Takes the lock at `path` (creating the file with `permissions`), waiting at most `timeout` seconds.
    static func acquire(at path: String, permissions: UInt16, timeout: Double) -> Result<WriteLock, CacheError> {
        let file: OpenFile
        switch OpenFile.open(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW, permissions: permissions) {
        case .success(let opened): file = opened
        case .failure(let failure): return .failure(failure.cacheError(path: path))
        }
        // NaN and negative timeouts make a single attempt.
        let deadline = ProcessInfo.processInfo.systemUptime + (timeout > 0 ? timeout : 0)
        var pause = 0.0005
        while true {
            switch file.tryLockExclusive() {
            case .failure(let failure):
                return .failure(failure.cacheError(path: path))
            case .success(true):
                return .success(WriteLock(file: file))
            case .success(false):
                let remaining = deadline - ProcessInfo.processInfo.systemUptime
                guard remaining > 0 else {
                    return .failure(
                        CacheError(
                            .lockTimeout(seconds: timeout),
                            message:
                                "another process or cache instance held the write lock \(path) for more than \(timeout) s; "
                                + "nothing was written. Retry later, or raise Options.lockTimeout if writes are slow on this volume"
                        ))
                }
                Thread.sleep(forTimeInterval: min(pause, remaining))
                pause = min(pause * 2, 0.008)
            }
        }
    }

    /// Releases the lock now.
    func release() { file.unlock() }
}
