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
    /// Writes `header` then `payload` to `directory/fileName` via `directory/temporaryName`.
    /// Returns the number of bytes written.
    static func replace(
        _ fileName: String, in directory: String, temporaryName: String, header: [UInt8], payload: Data,
        options: FileSnapshotCache.Options
    ) -> Result<Int, CacheError> {
        let temporaryPath = directory + "/" + temporaryName
        let targetPath = directory + "/" + fileName
        let file: OpenFile
        switch OpenFile.open(temporaryPath, flags: O_WRONLY | O_CREAT | O_EXCL, permissions: options.filePermissions) {
        case .success(let opened): file = opened
        case .failure(let failure): return .failure(failure.cacheError(path: temporaryPath))
        }
        func abandon(_ error: CacheError) -> Result<Int, CacheError> {
            _ = PosixFileSystem.removeFileIfPresent(temporaryPath)
            return .failure(error)
        }
        if case .failure(let failure) = file.setPermissions(options.filePermissions) {
            return abandon(failure.cacheError(path: temporaryPath))
        }
        #if canImport(Darwin)
            if let protection = options.fileProtection {
                do {
                    try FileManager.default.setAttributes(
                        [.protectionKey: protection.fileProtectionType], ofItemAtPath: temporaryPath)
                } catch {
                    let code = Int32(truncatingIfNeeded: (error as NSError).code)
                    return abandon(
                        CacheError(
                            .io(operation: "setAttributes(protectionKey)", code: code),
                            message:
                                "could not set data protection \(protection) on \(temporaryPath): \(error.localizedDescription)"))
                }
            }
        #endif
        if case .failure(let failure) = header.withUnsafeBytes({ file.write($0) }) {
            return abandon(failure.cacheError(path: temporaryPath))
        }
        if case .failure(let failure) = payload.withUnsafeBytes({ file.write($0) }) {
            return abandon(failure.cacheError(path: temporaryPath))
        }
        if case .failure(let failure) = file.syncToStorage() {
            return abandon(failure.cacheError(path: temporaryPath))
        }
        if case .failure(let failure) = PosixFileSystem.rename(temporaryPath, targetPath) {
            return abandon(failure.cacheError(path: targetPath))
        }
        if case .failure(let failure) = PosixFileSystem.syncDirectory(directory) {
            return .failure(failure.cacheError(path: directory))
        }
        return .success(header.count + payload.count)
    }
}
