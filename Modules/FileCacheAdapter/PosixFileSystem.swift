import ConfigDomain

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed system call: which operation and the `errno` it left.
struct SystemCallFailure: Error, Sendable, Hashable {
    /// What was attempted, for example `rename`.
    var operation: String
    /// The `errno` value.
    var code: Int32

    /// Captures the current `errno` for `operation`.
    static func current(_ operation: String) -> SystemCallFailure {
        SystemCallFailure(operation: operation, code: errno)
    }

    /// The system's text for the code, for example `No such file or directory`.
    var reason: String { String(cString: strerror(code)) }

    /// Whether the path did not exist.
    var isNotFound: Bool { code == ENOENT || code == ENOTDIR }

    /// The cache error for this failure on `path`, with a message a person can act on.
    func cacheError(path: String) -> CacheError {
        var advice = ""
        switch code {
        case EACCES, EPERM: advice = "; check the permissions of the cache directory and its files"
        case ENOSPC, EDQUOT: advice = "; free disk space"
        case EROFS: advice = "; the volume is read-only, choose a writable cache directory"
        default: break
        }
        return CacheError(
            .io(operation: operation, code: code), message: "\(operation) failed on \(path): \(reason) (errno \(code))\(advice)")
    }
}

/// Path-level system calls the cache uses, each retried on `EINTR` where that can happen.
enum PosixFileSystem {
    /// The kind and identity of a directory entry, as `lstat` reports it (links are not followed).
    struct EntryStatus: Sendable, Hashable {
        /// Device and inode: what a rename keeps and a replacement changes.
        var device: UInt64
        /// The inode number.
        var inode: UInt64
        /// Whether the entry is a regular file.
        var isRegularFile: Bool
        /// Whether the entry is a directory.
        var isDirectory: Bool
        /// The size in bytes.
        var size: Int64
        /// The permission bits.
        var permissions: UInt16

        init(_ st: stat) {
            device = UInt64(truncatingIfNeeded: st.st_dev)
            inode = UInt64(truncatingIfNeeded: st.st_ino)
            isRegularFile = (st.st_mode & S_IFMT) == S_IFREG
            isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
            size = Int64(st.st_size)
            permissions = UInt16(truncatingIfNeeded: st.st_mode & 0o7777)
        }
    }

    /// `lstat(path)`.
    static func status(_ path: String) -> Result<EntryStatus, SystemCallFailure> {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .failure(.current("lstat")) }
        return .success(EntryStatus(st))
    }

    /// `rename(from, to)`: atomically replaces `to`.
    static func rename(_ from: String, _ to: String) -> Result<Void, SystemCallFailure> {
        #if canImport(Darwin)
            let result = Darwin.rename(from, to)
        #elseif canImport(Glibc)
            let result = Glibc.rename(from, to)
        #elseif canImport(Musl)
            let result = Musl.rename(from, to)
        #endif
        return result == 0 ? .success(()) : .failure(.current("rename"))
    }

    /// `unlink(path)`; a missing file is not an error.
    static func removeFileIfPresent(_ path: String) -> Result<Void, SystemCallFailure> {
        if unlink(path) == 0 || errno == ENOENT { return .success(()) }
        return .failure(.current("unlink"))
    }

    /// `mkdir(path, permissions)` followed by `chmod` (so the umask cannot widen or narrow it);
    /// an existing directory is left as it is.
    static func makeDirectory(_ path: String, permissions: UInt16) -> Result<Void, SystemCallFailure> {
        if mkdir(path, mode_t(permissions)) == 0 {
            guard chmod(path, mode_t(permissions)) == 0 else { return .failure(.current("chmod")) }
            return .success(())
        }
        if errno == EEXIST { return .success(()) }
        return .failure(.current("mkdir"))
    }

    /// Flushes a directory's entries (a completed `rename`) to storage.
    static func syncDirectory(_ path: String) -> Result<Void, SystemCallFailure> {
        switch OpenFile.open(path, flags: O_RDONLY | O_DIRECTORY) {
        case .failure(let failure): return .failure(failure)
        case .success(let directory): return directory.syncToStorage()
        }
    }

    /// The names in a directory (without `.` and `..`).
    static func entries(of path: String) -> Result<[String], SystemCallFailure> {
        guard let stream = opendir(path) else { return .failure(.current("opendir")) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// Sleeps the calling (dedicated I/O) thread for `microseconds`.
    static func pause(microseconds: UInt32) {
        usleep(useconds_t(microseconds))
    }

    /// A monotonic time in nanoseconds, for bounded waits.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}
