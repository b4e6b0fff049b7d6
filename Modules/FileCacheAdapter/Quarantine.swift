import Foundation

/// The `quarantine/` folder of a cache directory, where damaged files are moved aside.
///
/// A damaged file is renamed (never copied) to `quarantine/<ms since 1970, 15 digits>-<8 hex>-<original name>`,
/// so the names sort oldest first. After each move the folder keeps only the newest
/// `limit` entries across all configurations; older ones are deleted. The folder is created
/// with the directory permissions of the cache. Callers hold the configuration's write lock.
enum Quarantine {
    /// The folder's name inside the cache directory.
    static let folderName = "quarantine"

    /// Moves the entry at `path` aside if it is still the entry that was found damaged
    /// (`identity`), then rotates. Returns the quarantined file name, or nil when the entry was
    /// already gone or replaced (another writer fixed it meanwhile).
    static func move(
        _ fileName: String, in directory: String, expected identity: PosixFileSystem.EntryStatus?, limit: Int,
        directoryPermissions: UInt16
    ) -> Result<String?, SystemCallFailure> {
        let path = directory + "/" + fileName
        switch PosixFileSystem.status(path) {
        case .failure(let failure) where failure.isNotFound: return .success(nil)
        case .failure(let failure): return .failure(failure)
        case .success(let now):
            if let identity, !identity.isSameFile(as: now) { return .success(nil) }
        }
        let folder = directory + "/" + folderName
        let millis = UInt64(max(0, Date().timeIntervalSince1970 * 1000))
        let target = String(format: "%015llu-%08x-", millis, UInt32.random(in: 0...UInt32.max)) + fileName
        let moved = PosixFileSystem.makeDirectory(folder, permissions: directoryPermissions)
            .flatMap { PosixFileSystem.rename(path, folder + "/" + target) }
        if case .failure(let failure) = moved { return .failure(failure) }
        _ = PosixFileSystem.syncDirectory(directory)
        rotate(folder, limit: limit)
        return .success(target)
    }

    /// Deletes the oldest entries beyond `limit`. Best effort: a concurrent rotation may
    /// already have deleted some.
    static func rotate(_ folder: String, limit: Int) {
        guard case .success(let names) = PosixFileSystem.entries(of: folder) else { return }
        for name in names.sorted().dropLast(max(0, limit)) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// The quarantined entries, oldest first.
    static func entries(in directory: String) -> [CacheDirectoryReport.QuarantinedFile] {
        let folder = directory + "/" + folderName
        guard case .success(let names) = PosixFileSystem.entries(of: folder) else { return [] }
        return names.sorted().map { name in
            let size = (try? PosixFileSystem.status(folder + "/" + name).get())?.size ?? 0
            let millis = name.split(separator: "-", maxSplits: 1).first.flatMap { UInt64($0) }
            return CacheDirectoryReport.QuarantinedFile(
                fileName: name, byteCount: Int(clamping: size),
                quarantinedAt: millis.map { Date(timeIntervalSince1970: Double($0) / 1000) })
        }
    }
}
