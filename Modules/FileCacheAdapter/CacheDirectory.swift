import ConfigDomain
import ConfigPorts
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The engine behind ``FileSnapshotCache``: every operation on one directory, blocking, on the
/// calling thread.
///
/// Writers (store, renew, promote, discard, clear, and a load that quarantines) hold the configuration's
/// ``WriteLock``. Loads read without the lock: every file is replaced by `rename`, so an open
/// descriptor always sees one whole file, and a renewal file names the payload it belongs to
/// (generation and content hash), so a load never pairs a payload with another payload's metadata.
struct CacheDirectory: Sendable {
    /// The directory path.
    let path: String
    /// Limits and permissions.
    let options: FileSnapshotCache.Options

    /// The longest a load waits for the lock to move a damaged file aside; a writer holding it
    /// is about to replace the file anyway.
    private var quarantineLockTimeout: Double { min(options.lockTimeout, 1) }

    // MARK: Load

    /// Loads `name` in `slot`; damaged files are quarantined and reported as unreadable.
    func load(_ name: String, slot: CacheSlot) -> CacheLoadResult {
        let files = CacheFileNames(name: name)
        guard files.fitsFileSystem else { return .miss }
        switch verifiedSnapshot(files, slot: slot, holding: nil) {
        case .failure(let error):
            return .unreadable(error)
        case .success(nil):
            return .miss
        case .success(let stored?):
            let metadata =
                slot == .active ? effectiveMetadata(of: stored, files: files, quarantining: true).metadata : stored.metadata
            return .hit(CachedSnapshot(payload: stored.payload, metadata: metadata))
        }
    }

    /// The metadata a load returns for the active snapshot `stored`: the renewal file's when it
    /// verifies and names this payload (same generation and content hash), the snapshot file's otherwise.
    func effectiveMetadata(
        of stored: VerifiedCacheFile, files: CacheFileNames, quarantining: Bool
    ) -> (metadata: SnapshotMetadata, renewal: CacheDirectoryReport.RenewalState?) {
        let fileName = files.renewedMetadata
        let damage: (error: CacheError, identity: PosixFileSystem.EntryStatus?)
        switch CacheFileReader.read(file(fileName), kind: .renewal, maxPayloadSize: options.maxPayloadSize) {
        case .absent:
            return (stored.metadata, nil)
        case .failed(let error):
            return (stored.metadata, .damaged(error))
        case .damaged(let error, let identity):
            damage = (error, identity)
        case .intact(let renewal):
            if let error = nameMismatch(renewal, expected: stored.name, fileName: fileName, kind: .renewal) {
                damage = (error, renewal.identity)
            } else {
                let applies =
                    renewal.header.generation == stored.header.generation
                    && renewal.metadata.contentHash == stored.metadata.contentHash
                return applies ? (renewal.metadata, .current) : (stored.metadata, .stale)
            }
        }
        let reported =
            quarantining
            ? quarantine(fileName, of: files, identity: damage.identity, error: damage.error, holding: nil) : damage.error
        return (stored.metadata, .damaged(reported))
    }

    // MARK: Writes

    /// Stores `snapshot` in `slot`, replacing what was there.
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) -> Result<Void, CacheError> {
        let files = CacheFileNames(name: name)
        guard files.fitsFileSystem else { return .failure(files.nameTooLong()) }
        let payload = snapshot.payload
        guard payload.count <= options.maxPayloadSize else {
            return .failure(
                CacheError(
                    .payloadTooLarge(size: payload.count, limit: options.maxPayloadSize),
                    message:
                        "the payload of '\(name)' has \(payload.count) bytes, over the cache's limit of \(options.maxPayloadSize) bytes; "
                        + "nothing was written. Shrink the configuration or raise Options.maxPayloadSize"))
        }
        let payloadHash = ContentHash(of: payload)
        guard snapshot.metadata.contentHash == payloadHash else {
            return .failure(
                CacheError(
                    .corrupt(.badChecksum),
                    message:
                        "the metadata of '\(name)' gives content hash \(snapshot.metadata.contentHash) but its payload hashes to "
                        + "\(payloadHash); nothing was written. Set the metadata's contentHash to ContentHash(of: payload)"))
        }
        let metadata = MetadataCoding.encode(name: name, metadata: snapshot.metadata)
        if let error = metadataTooLarge(metadata, name: name) { return .failure(error) }
        let header = EnvelopeHeader(
            metadataLength: UInt32(metadata.count), generation: UInt64.random(in: UInt64.min...UInt64.max),
            payloadLength: UInt64(payload.count)
        ).sealed(kind: .snapshot, metadata: metadata)
        return ensureDirectory().flatMap {
            withLock(files) { _ in
                removeLeftovers(of: files)
                return AtomicFileWriter.replace(
                    files.snapshot(slot), in: path, temporaryName: files.temporary(), contents: Data(header) + payload,
                    options: options
                ).map {
                    // The renewal file names the replaced payload; it no longer applies. Leaving it
                    // (after a crash here) is harmless: loads check what it names.
                    if slot == .active { _ = PosixFileSystem.removeFileIfPresent(file(files.renewedMetadata)) }
                }
            }
        }
    }

    /// Replaces the active snapshot's metadata by writing only the renewal file.
    func renew(_ metadata: SnapshotMetadata, for name: String) -> Result<Void, CacheError> {
        let files = CacheFileNames(name: name)
        guard files.fitsFileSystem else { return .failure(files.nameTooLong()) }
        let encoded = MetadataCoding.encode(name: name, metadata: metadata)
        if let error = metadataTooLarge(encoded, name: name) { return .failure(error) }
        guard directoryExists() else { return .failure(notFound(name)) }
        return withLock(files) { lock in
            let stored: VerifiedCacheFile
            switch verifiedSnapshot(files, slot: .active, holding: lock) {
            case .failure(let error):
                // The damaged file was moved aside: there is no snapshot to renew, and the client
                // repairs the cache by storing the payload again.
                return .failure(CacheError(.notFound, message: error.message))
            case .success(nil): return .failure(notFound(name))
            case .success(let file?): stored = file
            }
            // A renewal confirms the payload the caller holds. If another process stored a
            // different payload meanwhile, binding these validators to it would make the next
            // conditional fetch claim a version we do not have.
            guard stored.metadata.contentHash == metadata.contentHash else {
                return .failure(
                    CacheError(
                        .notFound,
                        message:
                            "the active snapshot of '\(name)' has content hash \(stored.metadata.contentHash), not \(metadata.contentHash) "
                            + "as the renewal says: another writer replaced it since it was loaded. Nothing was written; load it again"
                    ))
            }
            let header = EnvelopeHeader(
                metadataLength: UInt32(encoded.count), generation: stored.header.generation,
                payloadLength: stored.header.payloadLength
            ).sealed(kind: .renewal, metadata: encoded)
            return AtomicFileWriter.replace(
                files.renewedMetadata, in: path, temporaryName: files.temporary(), contents: Data(header), options: options)
        }
    }

    /// Makes the pending snapshot active with one `rename`; `false` when there is none.
    func promotePending(_ name: String) -> Result<Bool, CacheError> {
        let files = CacheFileNames(name: name)
        guard files.fitsFileSystem, directoryExists() else { return .success(false) }
        return withLock(files) { lock in
            switch verifiedSnapshot(files, slot: .pending, holding: lock) {
            case .failure(let error): return .failure(error)
            case .success(nil): return .success(false)
            case .success: break
            }
            let pendingPath = file(files.snapshot(.pending))
            let promoted = PosixFileSystem.rename(pendingPath, file(files.snapshot(.active)))
                .flatMap { PosixFileSystem.syncDirectory(path) }
            if case .failure(let failure) = promoted { return .failure(failure.cacheError(path: pendingPath)) }
            _ = PosixFileSystem.removeFileIfPresent(file(files.renewedMetadata))
            return .success(true)
        }
    }

    /// Moves the pending snapshot aside to the quarantine folder, kept for inspection.
    func discardPending(_ name: String) -> Result<Void, CacheError> {
        let files = CacheFileNames(name: name)
        guard files.fitsFileSystem, directoryExists() else { return .success(()) }
        let pendingPath = file(files.snapshot(.pending))
        return withLock(files) { _ in
            Quarantine.move(
                files.snapshot(.pending), in: path, expected: nil, limit: options.quarantineLimit,
                directoryPermissions: options.directoryPermissions
            ).map { _ in () }.mapError { $0.cacheError(path: pendingPath) }
        }
    }

    /// Removes every slot (and the renewal file) of `name`.
    func clear(_ name: String) -> Result<Void, CacheError> {
        let files = CacheFileNames(name: name)
        guard files.fitsFileSystem, directoryExists() else { return .success(()) }
        return withLock(files) { _ in
            for fileName in [files.snapshot(.active), files.renewedMetadata] + [CacheSlot.pending, .lastGood].map(files.snapshot) {
                if case .failure(let failure) = PosixFileSystem.removeFileIfPresent(file(fileName)) {
                    return .failure(failure.cacheError(path: file(fileName)))
                }
            }
            removeLeftovers(of: files)
            return PosixFileSystem.syncDirectory(path).mapError { $0.cacheError(path: path) }
        }
    }

    // MARK: Helpers

    /// The path of `fileName` in the directory.
    func file(_ fileName: String) -> String { path + "/" + fileName }

    /// Whether the directory exists (following a symbolic link to it).
    func directoryExists() -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Creates the directory (and missing parents) when absent.
    private func ensureDirectory() -> Result<Void, CacheError> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return PosixFileSystem.makeDirectory(path, permissions: options.directoryPermissions).mapError {
                $0.cacheError(path: path)
            }
        }
        guard isDirectory.boolValue else {
            return .failure(
                CacheError(
                    .io(operation: "mkdir", code: ENOTDIR),
                    message: "the cache directory \(path) exists but is not a directory; remove it or choose another directory"))
        }
        return .success(())
    }

    /// Runs `body` holding the write lock of `files`.
    private func withLock<T>(_ files: CacheFileNames, _ body: (WriteLock) -> Result<T, CacheError>) -> Result<T, CacheError> {
        WriteLock.acquire(at: file(files.lock), permissions: options.filePermissions, timeout: options.lockTimeout)
            .flatMap { lock in
                defer { lock.release() }
                return body(lock)
            }
    }

    /// Reads and verifies the snapshot in `slot`: nil when absent; a damaged file is quarantined
    /// (taking the lock unless `lock` is already held) and returned as the error.
    private func verifiedSnapshot(_ files: CacheFileNames, slot: CacheSlot, holding lock: WriteLock?) -> Result<
        VerifiedCacheFile?, CacheError
    > {
        let fileName = files.snapshot(slot)
        switch CacheFileReader.read(file(fileName), kind: .snapshot, maxPayloadSize: options.maxPayloadSize) {
        case .absent:
            return .success(nil)
        case .failed(let error):
            return .failure(error)
        case .damaged(let error, let identity):
            return .failure(quarantine(fileName, of: files, identity: identity, error: error, holding: lock))
        case .intact(let stored):
            if let error = nameMismatch(stored, expected: files.name, fileName: fileName, kind: .snapshot) {
                return .failure(quarantine(fileName, of: files, identity: stored.identity, error: error, holding: lock))
            }
            return .success(stored)
        }
    }

    /// Moves a damaged file aside (taking the lock unless it is held) and completes the error
    /// message with what happened to the file.
    private func quarantine(
        _ fileName: String, of files: CacheFileNames, identity: PosixFileSystem.EntryStatus?, error: CacheError,
        holding heldLock: WriteLock?
    ) -> CacheError {
        var error = error
        var lock = heldLock
        if lock == nil {
            switch WriteLock.acquire(at: file(files.lock), permissions: options.filePermissions, timeout: quarantineLockTimeout) {
            case .success(let acquired): lock = acquired
            case .failure(let lockError):
                error.message += "; it was left in place because the write lock was busy (\(lockError.message))"
                return error
            }
        }
        defer { if heldLock == nil { lock?.release() } }
        switch Quarantine.move(
            fileName, in: path, expected: identity, limit: options.quarantineLimit,
            directoryPermissions: options.directoryPermissions)
        {
        case .success(let moved?):
            error.message += "; it was moved to \(Quarantine.folderName)/\(moved)"
            if fileName == files.snapshot(.active) {
                // The renewal file belongs to the payload just moved aside.
                _ = PosixFileSystem.removeFileIfPresent(file(files.renewedMetadata))
            }
        case .success(nil):
            error.message += "; another writer has replaced it since"
        case .failure(let failure):
            error.message += "; moving it aside failed (\(failure.operation): \(failure.reason))"
        }
        error.message += ". The cache treats it as a miss; the next successful fetch stores a fresh copy"
        return error
    }

    /// The error for a file that holds another configuration's name, or nil when the name is `expected`.
    func nameMismatch(_ stored: VerifiedCacheFile, expected: String, fileName: String, kind: CacheFileKind) -> CacheError? {
        guard stored.name != expected else { return nil }
        return CacheFileReader.damage(
            .badMetadata, file(fileName), kind,
            "it holds configuration '\(stored.name)', not '\(expected)' (a file copied or renamed by hand)")
    }

    private func metadataTooLarge(_ encoded: [UInt8], name: String) -> CacheError? {
        guard encoded.count > EnvelopeHeader.maxMetadataLength else { return nil }
        return CacheError(
            .payloadTooLarge(size: encoded.count, limit: EnvelopeHeader.maxMetadataLength),
            message:
                "the metadata of '\(name)' (name, validators, source) encodes to \(encoded.count) bytes, over the "
                + "\(EnvelopeHeader.maxMetadataLength)-byte bound; nothing was written. Shorten the source or validators")
    }

    private func notFound(_ name: String) -> CacheError {
        CacheError(
            .notFound,
            message:
                "there is no active snapshot of '\(name)' in \(path) to renew the metadata of; store a snapshot first "
                + "(a 304 needs a cached payload)")
    }

    /// Deletes temporary files of `files` left by writers that crashed (the caller holds the lock,
    /// so no live writer of this configuration owns one).
    private func removeLeftovers(of files: CacheFileNames) {
        guard case .success(let names) = PosixFileSystem.entries(of: path) else { return }
        for name in names where files.isTemporary(name) {
            _ = PosixFileSystem.removeFileIfPresent(file(name))
        }
    }
}
