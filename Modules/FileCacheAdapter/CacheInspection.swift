import ConfigDomain
import ConfigPorts
import Foundation

extension CacheDirectory {
    /// Reads and verifies every file in the directory without changing anything.
    func inspect() -> Result<CacheDirectoryReport, CacheError> {
        let directoryURL = URL(fileURLWithPath: path, isDirectory: true)
        guard FileManager.default.fileExists(atPath: path) else {
            return .success(CacheDirectoryReport(directory: directoryURL, configurations: [], quarantined: [], otherFiles: []))
        }
        let entries: Set<String>
        switch PosixFileSystem.entries(of: path) {
        case .success(let names): entries = Set(names)
        case .failure(let failure): return .failure(failure.cacheError(path: path))
        }
        // A file is the cache's when its name is a stem followed by one of the known suffixes.
        var configurations: [String: CacheFileNames] = [:]
        var other: [String] = []
        for entry in entries where entry != Quarantine.folderName {
            let stem = String(entry.prefix { $0 != "." })
            if CacheFileNames.suffixes.contains(String(entry.dropFirst(stem.count))),
                let name = CacheFileNames.name(fromStem: stem)
            {
                configurations[stem] = CacheFileNames(name: name)
            } else {
                other.append(entry)
            }
        }
        let reports = configurations.sorted { $0.key < $1.key }
            .map { inspectConfiguration($0.value, present: entries) }
            .filter { $0.active != nil || $0.pending != nil || $0.lastGood != nil || $0.renewal != nil }
        return .success(
            CacheDirectoryReport(
                directory: directoryURL, configurations: reports, quarantined: Quarantine.entries(in: path),
                otherFiles: other.sorted()))
    }

    /// The report of the files of one configuration.
    private func inspectConfiguration(_ files: CacheFileNames, present: Set<String>) -> CacheDirectoryReport.Configuration {
        var configuration = CacheDirectoryReport.Configuration(
            stem: files.stem, name: nil, active: nil, pending: nil, renewal: nil)
        var activeFile: VerifiedCacheFile?
        for slot in CacheSlot.allCases {
            let fileName = files.snapshot(slot)
            guard present.contains(fileName) else { continue }
            var report = CacheDirectoryReport.Snapshot(
                fileName: fileName, fileSize: fileSize(fileName), integrity: .intact, payloadSize: nil, metadata: nil,
                isRenewed: false)
            switch CacheFileReader.read(file(fileName), kind: .snapshot, maxPayloadSize: options.maxPayloadSize) {
            case .absent:
                continue
            case .failed(let error), .damaged(let error, _):
                report.integrity = .damaged(error)
            case .intact(let stored):
                if let error = nameMismatch(stored, expected: files.name, fileName: fileName, kind: .snapshot) {
                    report.integrity = .damaged(error)
                } else {
                    configuration.name = stored.name
                    if slot == .active { activeFile = stored }
                    report.payloadSize = stored.payload.count
                    report.metadata = stored.metadata
                }
            }
            switch slot {
            case .active: configuration.active = report
            case .pending: configuration.pending = report
            case .lastGood: configuration.lastGood = report
            }
        }
        let renewalName = files.renewedMetadata
        guard present.contains(renewalName) else { return configuration }
        var state: CacheDirectoryReport.RenewalState = .stale
        if let activeFile {
            let effective = effectiveMetadata(of: activeFile, files: files, quarantining: false)
            state = effective.renewal ?? .stale
            if state == .current {
                configuration.active?.metadata = effective.metadata
                configuration.active?.isRenewed = true
            }
        } else {
            switch CacheFileReader.read(file(renewalName), kind: .renewal, maxPayloadSize: options.maxPayloadSize) {
            case .failed(let error), .damaged(let error, _):
                state = .damaged(error)
            case .intact(let renewal):
                if configuration.name == nil, renewal.name == files.name { configuration.name = renewal.name }
            case .absent:
                break
            }
        }
        configuration.renewal = .init(fileName: renewalName, fileSize: fileSize(renewalName), state: state)
        return configuration
    }

    /// The size of `fileName` in bytes (0 when it cannot be examined).
    private func fileSize(_ fileName: String) -> Int {
        Int(clamping: (try? PosixFileSystem.status(file(fileName)).get())?.size ?? 0)
    }
}
