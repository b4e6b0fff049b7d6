import ConfigDomain
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failed file operation: which one and the `errno` it left.
struct SystemCallFailure: Error, Sendable {
    /// What was attempted, for example `rename`.
    var operation: String
    /// The `errno` value.
    var code: Int32

    /// A failure of `operation` with `code`.
    init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// A failure of `operation` from a Foundation error, with the `errno` it carries (`EIO` when none).
    init(operation: String, error: any Error) {
        let error = error as NSError
        // On Linux the underlying error is a Swift `POSIXError` that `as? NSError` does not match; bridge it as an `Error`.
        let underlying = (error.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        if error.domain == NSPOSIXErrorDomain {
            code = Int32(truncatingIfNeeded: error.code)
        } else if let underlying, underlying.domain == NSPOSIXErrorDomain {
            code = Int32(truncatingIfNeeded: underlying.code)
        } else {
            code = EIO
        }
        self.operation = operation
    }

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
        case ENOTDIR: advice = "; a part of the path is a file, not a directory: remove it or choose another cache directory"
        default: break
        }
        return CacheError(
            .io(operation: operation, code: code), message: "\(operation) failed on \(path): \(reason) (errno \(code))\(advice)")
    }
}

/// The path-level POSIX calls the cache's guarantees rest on: `lstat` (to recognise an entry),
/// `rename` (atomic replacement), `unlink`, and `fsync` of a directory (a durable rename).
enum PosixFileSystem {
    /// The kind and identity of a directory entry or open file, as `stat` reports it.
    struct EntryStatus: Sendable {
        /// The device: with the inode, what a rename keeps and a replacement changes.
        var device: UInt64
        /// The inode number.
        var inode: UInt64
        /// Whether the entry is a regular file.
        var isRegularFile: Bool
        /// Whether the entry is a directory.
        var isDirectory: Bool
        /// The size in bytes.
        var size: Int64

        init(_ st: stat) {
            device = UInt64(truncatingIfNeeded: st.st_dev)
            inode = UInt64(truncatingIfNeeded: st.st_ino)
            isRegularFile = (st.st_mode & S_IFMT) == S_IFREG
            isDirectory = (st.st_mode & S_IFMT) == S_IFDIR
            size = Int64(st.st_size)
        }

        /// Whether `other` is the same file (device and inode).
        func isSameFile(as other: EntryStatus) -> Bool { device == other.device && inode == other.inode }
    }

    /// `lstat(path)` (a symbolic link is reported, not followed).
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

    /// Flushes a directory's entries (a completed `rename`) to storage.
    static func syncDirectory(_ path: String) -> Result<Void, SystemCallFailure> {
        OpenFile.open(path, flags: O_RDONLY | O_DIRECTORY).flatMap { $0.syncToStorage() }
    }

    /// Creates the directory at `path` and missing parents with exactly `permissions`; an
    /// existing directory is left as it is.
    static func makeDirectory(_ path: String, permissions: UInt16) -> Result<Void, SystemCallFailure> {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(permissions)])
            return .success(())
        } catch {
            return .failure(SystemCallFailure(operation: "mkdir", error: error))
        }
    }

    /// The names in a directory.
    static func entries(of path: String) -> Result<[String], SystemCallFailure> {
        do {
            return .success(try FileManager.default.contentsOfDirectory(atPath: path))
        } catch {
            return .failure(SystemCallFailure(operation: "opendir", error: error))
        }
    }
}
