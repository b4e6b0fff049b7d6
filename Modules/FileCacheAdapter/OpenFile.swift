import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open file descriptor, closed when the last reference goes away.
///
/// Used only inside one operation on the cache's I/O queue, never shared between threads.
final class OpenFile {
    /// The descriptor.
    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// `open(path, flags | O_CLOEXEC, permissions)`, retried on `EINTR`.
    static func open(_ path: String, flags: Int32, permissions: UInt16 = 0) -> Result<OpenFile, SystemCallFailure> {
        while true {
            #if canImport(Darwin)
                let fd = Darwin.open(path, flags | O_CLOEXEC, mode_t(permissions))
            #elseif canImport(Glibc)
                let fd = Glibc.open(path, flags | O_CLOEXEC, mode_t(permissions))
            #elseif canImport(Musl)
                let fd = Musl.open(path, flags | O_CLOEXEC, mode_t(permissions))
            #endif
            if fd >= 0 { return .success(OpenFile(descriptor: fd)) }
            if errno != EINTR { return .failure(.current("open")) }
        }
    }

    /// `fstat`.
    func status() -> Result<PosixFileSystem.EntryStatus, SystemCallFailure> {
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return .failure(.current("fstat")) }
        return .success(PosixFileSystem.EntryStatus(st))
    }

    /// Reads up to `count` bytes into `buffer`, stopping early only at the end of the file.
    /// Returns how many bytes were read.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemCallFailure> {
        guard let base = buffer.baseAddress else { return .success(0) }
        var done = 0
        while done < buffer.count {
            #if canImport(Darwin)
                let n = Darwin.read(descriptor, base + done, buffer.count - done)
            #elseif canImport(Glibc)
                let n = Glibc.read(descriptor, base + done, buffer.count - done)
            #elseif canImport(Musl)
                let n = Musl.read(descriptor, base + done, buffer.count - done)
            #endif
            if n > 0 {
                done += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                return .failure(.current("read"))
            }
        }
        return .success(done)
    }

    /// Reads up to `count` bytes into a new `Data`; fewer only at the end of the file.
    ///
    /// The bytes go straight into memory the `Data` then owns, which nothing writes before the
    /// read: `Data(count:)` zero-fills its bytes first, touching every page of a payload twice,
    /// and in a fresh process its first large allocation costs about 30 µs more.
    func readData(count: Int) -> Result<Data, SystemCallFailure> {
        guard count > 0 else { return .success(Data()) }
        guard let memory = malloc(count) else {
            var data = Data(count: count)
            let result = data.withUnsafeMutableBytes { read(into: $0) }
            return result.map { n in
                if n < count { data.removeLast(count - n) }
                return data
            }
        }
        switch read(into: UnsafeMutableRawBufferPointer(start: memory, count: count)) {
        case .failure(let failure):
            free(memory)
            return .failure(failure)
        case .success(let n):
            return .success(Data(bytesNoCopy: memory, count: n, deallocator: .free))
        }
    }

    /// Reads up to `count` bytes; fewer only at the end of the file.
    func read(count: Int) -> Result<[UInt8], SystemCallFailure> {
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { read(into: $0) }
        switch result {
        case .failure(let failure): return .failure(failure)
        case .success(let n):
            if n < count { bytes.removeLast(count - n) }
            return .success(bytes)
        }
    }

    /// Writes every byte of `bytes`, retrying short writes and `EINTR`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Result<Void, SystemCallFailure> {
        guard let base = bytes.baseAddress else { return .success(()) }
        var done = 0
        while done < bytes.count {
            #if canImport(Darwin)
                let n = Darwin.write(descriptor, base + done, bytes.count - done)
            #elseif canImport(Glibc)
                let n = Glibc.write(descriptor, base + done, bytes.count - done)
            #elseif canImport(Musl)
                let n = Musl.write(descriptor, base + done, bytes.count - done)
            #endif
            if n > 0 {
                done += n
            } else if n < 0 && errno != EINTR {
                return .failure(.current("write"))
            }
        }
        return .success(())
    }

    /// Sets the permission bits exactly (independent of the umask).
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
}
