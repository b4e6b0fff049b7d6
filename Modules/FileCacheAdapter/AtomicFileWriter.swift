import ConfigDomain
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replaces a file so that a crash at any moment leaves either the old file or the new one.
///
/// 1. create a temporary file in the same directory (`O_CREAT | O_EXCL`, exact permissions set
///    with `fchmod`, and on Apple platforms the data-protection class),
/// 2. write every byte, 3. flush it to storage, 4. `rename` it over the target (atomic on POSIX
///    file systems within one directory), 5. flush the directory so the rename itself is durable.
///
/// A failure before step 4 removes the temporary file; a crash leaves it behind, and the next
/// store of the same configuration deletes it under the lock.
enum AtomicFileWriter {
    /// Writes `contents` to `directory/fileName` via `directory/temporaryName`.
    static func replace(
        _ fileName: String, in directory: String, temporaryName: String, contents: Data, options: FileSnapshotCache.Options
    ) -> Result<Void, CacheError> {
        let temporaryPath = directory + "/" + temporaryName
        let file: OpenFile
        switch OpenFile.open(temporaryPath, flags: O_WRONLY | O_CREAT | O_EXCL, permissions: options.filePermissions) {
        case .success(let opened): file = opened
        case .failure(let failure): return .failure(failure.cacheError(path: temporaryPath))
        }
        let written = file.setPermissions(options.filePermissions)
            .flatMap { setProtection(temporaryPath, options) }
            .flatMap { file.write(contents) }
            .flatMap { file.syncToStorage() }
            .flatMap { PosixFileSystem.rename(temporaryPath, directory + "/" + fileName) }
        if case .failure(let failure) = written {
            _ = PosixFileSystem.removeFileIfPresent(temporaryPath)
            return .failure(failure.cacheError(path: temporaryPath))
        }
        return PosixFileSystem.syncDirectory(directory).mapError { $0.cacheError(path: directory) }
    }

    /// Sets the data-protection class of `options` on the file at `path` (Apple platforms only).
    private static func setProtection(_ path: String, _ options: FileSnapshotCache.Options) -> Result<Void, SystemCallFailure> {
        #if canImport(Darwin)
            if let protection = options.fileProtection {
                do {
                    try FileManager.default.setAttributes([.protectionKey: protection.fileProtectionType], ofItemAtPath: path)
                } catch {
                    return .failure(SystemCallFailure(operation: "setAttributes(protectionKey: \(protection))", error: error))
                }
            }
        #endif
        return .success(())
    }
}
