import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open file: opened with exact POSIX flags (`O_NOFOLLOW`, `O_EXCL`, a mode), read and written
/// through `FileHandle`, closed when the last reference goes away.
///
/// Used inside one cache operation only, never shared between threads.
final class OpenFile {
    /// The handle; it owns the descriptor and closes it.
    let handle: FileHandle

    private init(descriptor: Int32) { handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) }

    /// The descriptor.
    var descriptor: Int32 { handle.fileDescriptor }

    /// `open(path, flags | O_CLOEXEC, permissions)`, retried on `EINTR`.
    static func open(_ path: String, flags: Int32, permissions: UInt16 = 0) -> Result<OpenFile, SystemCallFailure> {
        while true {
            #if canImport(Darwin)
                let descriptor = Darwin.open(path, flags | O_CLOEXEC, mode_t(permissions))
            #elseif canImport(Glibc)
                let descriptor = Glibc.open(path, flags | O_CLOEXEC, mode_t(permissions))
            #elseif canImport(Musl)
                let descriptor = Musl.open(path, flags | O_CLOEXEC, mode_t(permissions))
            #endif
            if descriptor >= 0 { return .success(OpenFile(descriptor: descriptor)) }
            if errno != EINTR { return .failure(.current("open")) }
        }
    }

    /// The identity, kind and size of the open file (`fstat`).
    func status() -> Result<PosixFileSystem.EntryStatus, SystemCallFailure> {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return .failure(.current("fstat")) }
        return .success(PosixFileSystem.EntryStatus(st))
    }

    /// Reads up to `count` bytes; fewer only at the end of the file.
    func read(count: Int) -> Result<Data, SystemCallFailure> {
        do {
            return .success(try handle.read(upToCount: count) ?? Data())
        } catch {
            return .failure(SystemCallFailure(operation: "read", error: error))
        }
    }

    /// Writes every byte of `data`.
    func write(_ data: Data) -> Result<Void, SystemCallFailure> {
        do {
            return .success(try handle.write(contentsOf: data))
        } catch {
            return .failure(SystemCallFailure(operation: "write", error: error))
        }
    }

    /// Sets the permission bits exactly (`fchmod`, so the umask plays no part).
    func setPermissions(_ permissions: UInt16) -> Result<Void, SystemCallFailure> {
        fchmod(descriptor, mode_t(permissions)) == 0 ? .success(()) : .failure(.current("fchmod"))
    }

    /// Flushes the file's data and size to storage: `F_FULLFSYNC` on Apple platforms (plain
    /// `fsync` there only reaches the drive's cache), `fsync` elsewhere.
    func syncToStorage() -> Result<Void, SystemCallFailure> {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return .success(()) }
        #endif
        while fsync(descriptor) != 0 {
            if errno != EINTR { return .failure(.current("fsync")) }
        }
        return .success(())
    }

    /// One non-blocking attempt at the exclusive `flock`: `true` when taken, `false` when
    /// another open file description holds it.
    func tryLockExclusive() -> Result<Bool, SystemCallFailure> {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return .success(true) }
            if errno == EWOULDBLOCK || errno == EAGAIN { return .success(false) }
            if errno != EINTR { return .failure(.current("flock")) }
        }
    }

    /// Releases the `flock` (closing the file would too).
    func unlock() {
        _ = flock(descriptor, LOCK_UN)
    }
}
