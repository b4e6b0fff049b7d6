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

/// The synchronous engine behind ``FileSnapshotCache``: every operation on one directory,
/// blocking, meant to run on the cache's I/O queue.
///
/// Writers (store, renew, promote, clear, and a load that quarantines) hold the configuration's
/// ``WriteLock``. Loads read without the lock: every file is replaced by `rename`, so an open
/// descriptor always sees one whole file, and a renewal file names the payload it belongs to
/// (generation, length, checksum), so a load can never pair a payload with another payload's
/// metadata.
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
        let fileName = files.snapshot(slot)
        switch CacheFileReader.read(file(fileName), kind: .snapshot, maxPayloadSize: options.maxPayloadSize) {
        case .absent:
            return .miss
        case .failed(let error):
            return .unreadable(error)
        case .damaged(let error, let identity):
            return .unreadable(quarantine(fileName, of: files, identity: identity, error: error, holdingLock: nil))
        case .intact(let stored):
            if let error = nameMismatch(stored, expected: name, fileName: fileName, kind: .snapshot) {
                return .unreadable(quarantine(fileName, of: files, identity: stored.identity, error: error, holdingLock: nil))
            }
            let metadata =
                slot == .active ? effectiveMetadata(of: stored, files: files, quarantining: true).metadata : stored.metadata
            return .hit(CachedSnapshot(payload: stored.payload, metadata: metadata))
        }
    }

    /// The metadata a load returns for the active snapshot `stored`: the renewal file's when it
    /// verifies and names this payload, the snapshot file's otherwise.
    private func effectiveMetadata(
        of stored: VerifiedCacheFile, files: CacheFileNames, quarantining: Bool
    ) -> (metadata: SnapshotMetadata, renewal: CacheDirectoryReport.RenewalState?) {
        let fileName = files.renewedMetadata
        switch CacheFileReader.read(file(fileName), kind: .renewal, maxPayloadSize: options.maxPayloadSize) {
        case .absent:
            return (stored.metadata, nil)
        case .failed(let error):
            return (stored.metadata, .damaged(error))
        case .damaged(let error, let identity):
            let reported =
                quarantining ? quarantine(fileName, of: files, identity: identity, error: error, holdingLock: nil) : error
            return (stored.metadata, .damaged(reported))
        case .intact(let renewal):
            if let error = nameMismatch(renewal, expected: stored.name, fileName: fileName, kind: .renewal) {
                let reported =
                    quarantining
                    ? quarantine(fileName, of: files, identity: renewal.identity, error: error, holdingLock: nil) : error
                return (stored.metadata, .damaged(reported))
            }
            let applies =
                renewal.header.generation == stored.header.generation
                && renewal.header.payloadLength == stored.header.payloadLength
                && renewal.header.payloadChecksum == stored.header.payloadChecksum
            return applies ? (renewal.metadata, .current) : (stored.metadata, .stale)
        }
    }

    // MARK: Writes

    /// Stores `snapshot` in `slot`; returns the bytes written.
    func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) -> Result<Int, CacheError> {
        let payload = snapshot.payload
        guard payload.count <= options.maxPayloadSize else {
            return .failure(
                CacheError(
                    .payloadTooLarge(size: payload.count, limit: options.maxPayloadSize),
                    message:
                        "the payload of '\(name)' has \(payload.count) bytes, over the cache's limit of \(options.maxPayloadSize) bytes; "
                        + "nothing was written. Shrink the configuration or raise Options.maxPayloadSize"))
        }
        let metadata = MetadataCoding.encode(name: name, metadata: snapshot.metadata)
        if let error = metadataTooLarge(metadata, name: name) { return .failure(error) }
        let checksum = payload.withUnsafeBytes { CRC32C.checksum($0) }
        let header = EnvelopeHeader(
            metadataLength: UInt32(metadata.count), generation: UInt64.random(in: UInt64.min...UInt64.max),
            payloadLength: UInt64(payload.count), payloadChecksum: checksum
        ).sealed(kind: .snapshot, metadata: metadata)
        if case .failure(let error) = ensureDirectory() { return .failure(error) }
        let files = CacheFileNames(name: name)
        return withLock(files) { _ in
            removeLeftovers(of: files)
            let written = AtomicFileWriter.replace(
                files.snapshot(slot), in: path, temporaryName: files.temporary(), header: header, payload: payload,
                options: options)
            if case .success = written, slot == .active {
                // The renewal file names the replaced payload; it no longer applies. Leaving it
                // (after a crash here) is harmless: loads check what it names.
                _ = PosixFileSystem.removeFileIfPresent(file(files.renewedMetadata))
            }
            return written
        }
    }

    /// Replaces the active snapshot's metadata by writing only the renewal file; returns the
    /// bytes written.
    func renew(_ metadata: SnapshotMetadata, for name: String) -> Result<Int, CacheError> {
        let encoded = MetadataCoding.encode(name: name, metadata: metadata)
        if let error = metadataTooLarge(encoded, name: name) { return .failure(error) }
        guard directoryExists() else { return .failure(notFound(name, "renew the metadata of")) }
        let files = CacheFileNames(name: name)
        return withLock(files) { lock in
            let stored: VerifiedCacheFile
            switch verifiedSnapshot(files, slot: .active, lock: lock) {
            case .failure(let error): return .failure(error)
            case .success(nil): return .failure(notFound(name, "renew the metadata of"))
            case .success(let file?): stored = file
            }
            // A renewal confirms the payload the caller holds. If another process stored a
            // different payload meanwhile, binding these validators to it would make the next
            // conditional fetch claim a version we do not have.
            let current = effectiveMetadata(of: stored, files: files, quarantining: false).metadata
            guard current.contentHash == metadata.contentHash else {
                return .failure(
                    CacheError(
                        .notFound,
                        message:
                            "the active snapshot of '\(name)' has content hash \(current.contentHash), not \(metadata.contentHash) as the "
                            + "renewal says: another writer replaced it since it was loaded. Nothing was written; load it again"))
            }
            let header = EnvelopeHeader(
                metadataLength: UInt32(encoded.count), generation: stored.header.generation,
                payloadLength: stored.header.payloadLength, payloadChecksum: stored.header.payloadChecksum
            ).sealed(kind: .renewal, metadata: encoded)
            return AtomicFileWriter.replace(
                files.renewedMetadata, in: path, temporaryName: files.temporary(), header: header, payload: Data(),
                options: options)
        }
    }

    /// Makes the pending snapshot active with one `rename`; `false` when there is none.
    func promotePending(_ name: String) -> Result<Bool, CacheError> {
        guard directoryExists() else { return .success(false) }
        let files = CacheFileNames(name: name)
        return withLock(files) { lock in
            switch verifiedSnapshot(files, slot: .pending, lock: lock) {
            case .failure(let error): return .failure(error)
            case .success(nil): return .success(false)
            case .success: break
            }
            let pendingPath = file(files.snapshot(.pending))
            if case .failure(let failure) = PosixFileSystem.rename(pendingPath, file(files.snapshot(.active))) {
                return .failure(failure.cacheError(path: pendingPath))
            }
            if case .failure(let failure) = PosixFileSystem.syncDirectory(path) {
                return .failure(failure.cacheError(path: path))
            }
            _ = PosixFileSystem.removeFileIfPresent(file(files.renewedMetadata))
            return .success(true)
        }
    }

    /// Removes both slots (and the renewal file) of `name`.
    func clear(_ name: String) -> Result<Void, CacheError> {
        guard directoryExists() else { return .success(()) }
        let files = CacheFileNames(name: name)
        return withLock(files) { _ in
            for fileName in [files.snapshot(.active), files.renewedMetadata, files.snapshot(.pending)] {
                if case .failure(let failure) = PosixFileSystem.removeFileIfPresent(file(fileName)) {
                    return .failure(failure.cacheError(path: file(fileName)))
                }
            }
            removeLeftovers(of: files)
            if case .failure(let failure) = PosixFileSystem.syncDirectory(path) {
                return .failure(failure.cacheError(path: path))
            }
            return .success(())
        }
    }

    // MARK: Inspection

    /// Reads and verifies every file in the directory without changing anything.
    func inspect() -> Result<CacheDirectoryReport, CacheError> {
        let directoryURL = URL(fileURLWithPath: path, isDirectory: true)
        let names: [String]
        switch PosixFileSystem.entries(of: path) {
        case .success(let entries): names = entries
        case .failure(let failure) where failure.code == ENOENT:
            return .success(CacheDirectoryReport(directory: directoryURL, configurations: [], quarantined: [], otherFiles: []))
        case .failure(let failure): return .failure(failure.cacheError(path: path))
        }
        var stems: Set<String> = []
        var other: [String] = []
        for name in names where name != Quarantine.folderName {
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            let stem = String(parts[0])
            let suffix = parts.dropFirst().joined(separator: ".")
            let known = [
                "active." + CacheFileNames.snapshotExtension, "pending." + CacheFileNames.snapshotExtension,
                "active." + CacheFileNames.metadataExtension, CacheFileNames.lockExtension,
            ]
            if parts.count > 1, known.contains(suffix) {
                stems.insert(stem)
            } else {
                other.append(name)
            }
        }
        let configurations = stems.sorted().map { inspectConfiguration(stem: $0, present: Set(names)) }
            .filter { $0.active != nil || $0.pending != nil || $0.renewal != nil }
        return .success(
            CacheDirectoryReport(
                directory: directoryURL, configurations: configurations, quarantined: Quarantine.entries(in: path),
                otherFiles: other.sorted()))
    }

    private func inspectConfiguration(stem: String, present: Set<String>) -> CacheDirectoryReport.Configuration {
        var name: String?
        var active: CacheDirectoryReport.Snapshot?
        var pending: CacheDirectoryReport.Snapshot?
        var renewal: CacheDirectoryReport.Renewal?
        var activeFile: VerifiedCacheFile?
        for slot in CacheSlot.allCases {
            let fileName = stem + "." + slot.rawValue + "." + CacheFileNames.snapshotExtension
            guard present.contains(fileName) else { continue }
            let size = Int(clamping: (try? PosixFileSystem.status(file(fileName)).get())?.size ?? 0)
            let report: CacheDirectoryReport.Snapshot
            switch CacheFileReader.read(file(fileName), kind: .snapshot, maxPayloadSize: options.maxPayloadSize) {
            case .absent:
                continue
            case .failed(let error), .damaged(let error, _):
                report = .init(
                    fileName: fileName, fileSize: size, integrity: .damaged(error), payloadSize: nil, metadata: nil,
                    isRenewed: false)
            case .intact(let stored):
                if CacheFileNames.stem(for: stored.name) != stem {
                    let error = CacheFileReader.damage(
                        .badMetadata, file(fileName), .snapshot,
                        "it holds configuration '\(stored.name)', whose files are named differently")
                    report = .init(
                        fileName: fileName, fileSize: size, integrity: .damaged(error), payloadSize: nil, metadata: nil,
                        isRenewed: false)
                } else {
                    name = stored.name
                    if slot == .active { activeFile = stored }
                    report = .init(
                        fileName: fileName, fileSize: size, integrity: .intact, payloadSize: stored.payload.count,
                        metadata: stored.metadata, isRenewed: false)
                }
            }
            if slot == .active { active = report } else { pending = report }
        }
        let renewalName = stem + ".active." + CacheFileNames.metadataExtension
        if present.contains(renewalName) {
            let size = Int(clamping: (try? PosixFileSystem.status(file(renewalName)).get())?.size ?? 0)
            var state: CacheDirectoryReport.RenewalState = .stale
            if let activeFile {
                let effective = effectiveMetadata(
                    of: activeFile, files: CacheFileNames(name: activeFile.name), quarantining: false)
                state = effective.renewal ?? .stale
                if state == .current {
                    active?.metadata = effective.metadata
                    active?.isRenewed = true
                }
            } else {
                switch CacheFileReader.read(file(renewalName), kind: .renewal, maxPayloadSize: options.maxPayloadSize) {
                case .failed(let error), .damaged(let error, _): state = .damaged(error)
                case .intact(let renewal):
                    if name == nil, CacheFileNames.stem(for: renewal.name) == stem { name = renewal.name }
                case .absent: break
                }
            }
            renewal = .init(fileName: renewalName, fileSize: size, state: state)
        }
        return .init(stem: stem, name: name, active: active, pending: pending, renewal: renewal)
    }

    // MARK: Helpers

    /// The path of `fileName` in the directory.
    func file(_ fileName: String) -> String { path + "/" + fileName }

    private func directoryExists() -> Bool {
        (try? PosixFileSystem.status(path).get())?.isDirectory ?? false
    }

    /// Creates the directory (and missing parents) when absent.
    private func ensureDirectory() -> Result<Void, CacheError> {
        switch PosixFileSystem.status(path) {
        case .success(let status) where status.isDirectory:
            return .success(())
        case .success:
            return .failure(
                CacheError(
                    .io(operation: "mkdir", code: ENOTDIR),
                    message: "the cache directory \(path) exists but is not a directory; remove it or choose another directory"))
        case .failure(let failure) where failure.isNotFound:
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty, !((try? PosixFileSystem.status(parent).get())?.isDirectory ?? false) {
                do {
                    try FileManager.default.createDirectory(
                        atPath: parent, withIntermediateDirectories: true,
                        attributes: [.posixPermissions: Int(options.directoryPermissions)])
                } catch {
                    return .failure(
                        CacheError(
                            .io(operation: "mkdir", code: Int32(truncatingIfNeeded: (error as NSError).code)),
                            message: "could not create the cache directory's parent \(parent): \(error.localizedDescription)"))
                }
            }
            return PosixFileSystem.makeDirectory(path, permissions: options.directoryPermissions).mapError {
                $0.cacheError(path: path)
            }
        case .failure(let failure):
            return .failure(failure.cacheError(path: path))
        }
    }

    /// Runs `body` holding the write lock of `files`.
    private func withLock<T>(_ files: CacheFileNames, _ body: (WriteLock) -> Result<T, CacheError>) -> Result<T, CacheError> {
        switch WriteLock.acquire(at: file(files.lock), permissions: options.filePermissions, timeout: options.lockTimeout) {
        case .failure(let error):
            return .failure(error)
        case .success(let lock):
            defer { lock.release() }
            return body(lock)
        }
    }

    /// Reads and verifies `slot` under the held lock; a damaged file is quarantined and returned
    /// as the error.
    private func verifiedSnapshot(_ files: CacheFileNames, slot: CacheSlot, lock: WriteLock) -> Result<
        VerifiedCacheFile?, CacheError
    > {
        let fileName = files.snapshot(slot)
        switch CacheFileReader.read(file(fileName), kind: .snapshot, maxPayloadSize: options.maxPayloadSize) {
        case .absent:
            return .success(nil)
        case .failed(let error):
            return .failure(error)
        case .damaged(let error, let identity):
            return .failure(quarantine(fileName, of: files, identity: identity, error: error, holdingLock: lock))
        case .intact(let stored):
            if let error = nameMismatch(stored, expected: files.name, fileName: fileName, kind: .snapshot) {
                return .failure(quarantine(fileName, of: files, identity: stored.identity, error: error, holdingLock: lock))
            }
            return .success(stored)
        }
    }

    /// Moves a damaged file aside (taking the lock unless it is held) and completes the error
    /// message with what happened to the file.
    private func quarantine(
        _ fileName: String, of files: CacheFileNames, identity: PosixFileSystem.EntryStatus?, error: CacheError,
        holdingLock: WriteLock?
    ) -> CacheError {
        var error = error
        var lock = holdingLock
        if lock == nil {
            switch WriteLock.acquire(at: file(files.lock), permissions: options.filePermissions, timeout: quarantineLockTimeout) {
            case .success(let acquired): lock = acquired
            case .failure(let lockError):
                error.message += "; it was left in place because the write lock was busy (\(lockError.message))"
                return error
            }
        }
        defer { if holdingLock == nil { lock?.release() } }
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

    private func nameMismatch(_ stored: VerifiedCacheFile, expected: String, fileName: String, kind: CacheFileKind) -> CacheError?
    {
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

    private func notFound(_ name: String, _ action: String) -> CacheError {
        CacheError(
            .notFound,
            message:
                "there is no active snapshot of '\(name)' in \(path) to \(action); store a snapshot first (a 304 needs a cached payload)"
        )
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
