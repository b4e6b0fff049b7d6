import ConfigDomain

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
/// attempts in a loop on the calling thread (always the cache's I/O queue, never a reader's
/// thread), pausing 0.5 ms and doubling up to 8 ms between attempts, until the timeout passes.
/// The lock file itself is never deleted (deleting a lock file lets two writers lock two
/// different inodes). The lock is released when the value is released or ``release()`` is called.
///
/// Advisory locks are not reliable on network file systems; keep the cache on a local volume.
final class WriteLock {
    private let file: OpenFile

    private init(file: OpenFile) { self.file = file }

    /// Takes the lock at `path` (creating the file with `permissions`), waiting at most `timeout` seconds.
    static func acquire(
        at path: String, permissions: UInt16, timeout: Double
    ) -> Result<WriteLock, CacheError> {
        let file: OpenFile
        switch OpenFile.open(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW, permissions: permissions) {
        case .success(let opened): file = opened
        case .failure(let failure): return .failure(failure.cacheError(path: path))
        }
        let start = PosixFileSystem.monotonicNanoseconds()
        // NaN, negative and absurd timeouts are clamped (0 ... one year) so the conversion cannot trap.
        let seconds = timeout.isNaN ? 0 : min(max(0, timeout), 31_536_000)
        let limit = UInt64(seconds * 1_000_000_000)
        var pause: UInt32 = 500
        while true {
            switch file.tryLockExclusive() {
            case .failure(let failure):
                return .failure(failure.cacheError(path: path))
            case .success(true):
                return .success(WriteLock(file: file))
            case .success(false):
                let elapsed = PosixFileSystem.monotonicNanoseconds() &- start
                if elapsed >= limit {
                    return .failure(
                        CacheError(
                            .lockTimeout(seconds: timeout),
                            message:
                                "another process or cache instance held the write lock \(path) for more than \(timeout) s; "
                                + "nothing was written. Retry later, or raise Options.lockTimeout if writes are slow on this volume"
                        ))
                }
                let remaining = (limit - elapsed) / 1000
                PosixFileSystem.pause(microseconds: UInt32(min(UInt64(pause), remaining + 1)))
                pause = min(pause * 2, 8000)
            }
        }
    }

    /// Releases the lock now (closing the descriptor would too).
    func release() {
        _ = flock(file.descriptor, LOCK_UN)
    }
}
