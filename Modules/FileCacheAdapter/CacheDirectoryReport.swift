import ConfigDomain
import ConfigPorts
import Foundation

/// What a cache directory holds, as ``FileSnapshotCache/inspect()`` found it: every stored
/// configuration with its metadata, sizes and integrity, the quarantined files, and any file the
/// cache did not expect. Inspecting reads and verifies every file but changes nothing.
public struct CacheDirectoryReport: Sendable, Hashable {
    /// The inspected directory.
    public var directory: URL
    /// One entry per configuration with at least one file, ordered by file stem.
    public var configurations: [Configuration]
    /// Files moved aside as damaged, oldest first.
    public var quarantined: [QuarantinedFile]
    /// Temporary files of interrupted writes and files the cache does not recognise.
    public var otherFiles: [String]

    /// Creates a report.
    public init(directory: URL, configurations: [Configuration], quarantined: [QuarantinedFile], otherFiles: [String]) {
        self.directory = directory
        self.configurations = configurations
        self.quarantined = quarantined
        self.otherFiles = otherFiles
    }

    /// The files of one configuration name.
    public struct Configuration: Sendable, Hashable {
        /// The stem shared by the configuration's files (see ``CacheFileNames``).
        public var stem: String
        /// The configuration name as stored in its files; nil when no file of it was readable.
        public var name: String?
        /// The active snapshot, if a file for it exists.
        public var active: Snapshot?
        /// The pending snapshot (waiting for the next launch), if a file for it exists.
        public var pending: Snapshot?
        /// The client's record of last good values, if a file for it exists.
        public var lastGood: Snapshot?
        /// The renewal metadata file of the active snapshot, if one exists.
        public var renewal: Renewal?

        /// Whether a pending snapshot file exists (intact or not).
        public var hasPending: Bool { pending != nil }

        /// Creates an entry.
        public init(
            stem: String, name: String?, active: Snapshot?, pending: Snapshot?, lastGood: Snapshot? = nil, renewal: Renewal?
        ) {
            self.stem = stem
            self.name = name
            self.active = active
            self.pending = pending
            self.lastGood = lastGood
            self.renewal = renewal
        }
    }

    /// One snapshot file.
    public struct Snapshot: Sendable, Hashable {
        /// The file's name in the directory.
        public var fileName: String
        /// The file's size in bytes.
        public var fileSize: Int
        /// Whether the file verified.
        public var integrity: Integrity
        /// The payload's size in bytes, when the file verified.
        public var payloadSize: Int?
        /// The metadata a load returns (with a current renewal applied), when the file verified.
        public var metadata: SnapshotMetadata?
        /// Whether ``metadata`` comes from a renewal file rather than from the snapshot file.
        public var isRenewed: Bool

        /// Creates an entry.
        public init(
            fileName: String, fileSize: Int, integrity: Integrity, payloadSize: Int?, metadata: SnapshotMetadata?,
            isRenewed: Bool
        ) {
            self.fileName = fileName
            self.fileSize = fileSize
            self.integrity = integrity
            self.payloadSize = payloadSize
            self.metadata = metadata
            self.isRenewed = isRenewed
        }
    }

    /// The renewal metadata file of an active snapshot.
    public struct Renewal: Sendable, Hashable {
        /// The file's name in the directory.
        public var fileName: String
        /// The file's size in bytes.
        public var fileSize: Int
        /// Whether the file verified and applies to the active snapshot.
        public var state: RenewalState

        /// Creates an entry.
        public init(fileName: String, fileSize: Int, state: RenewalState) {
            self.fileName = fileName
            self.fileSize = fileSize
            self.state = state
        }
    }

    /// Whether a renewal file applies.
    public enum RenewalState: Sendable, Hashable {
        /// It verified and names the active snapshot's payload: loads use its metadata.
        case current
        /// It verified but names another payload (left by an interrupted store): loads ignore it.
        case stale
        /// It did not verify: loads ignore it (and move it to quarantine).
        case damaged(CacheError)
    }

    /// Whether a file verified.
    public enum Integrity: Sendable, Hashable {
        /// Magic, version, header check, lengths, content hash and name all check out.
        case intact
        /// The file would be reported unreadable by a load, for this reason.
        case damaged(CacheError)
    }

    /// A file in the `quarantine/` folder.
    public struct QuarantinedFile: Sendable, Hashable {
        /// The file's name inside `quarantine/` (`<ms>-<random>-<original name>`).
        public var fileName: String
        /// Its size in bytes (0 for a quarantined directory).
        public var byteCount: Int
        /// When it was moved aside, read from its name.
        public var quarantinedAt: Date?

        /// Creates an entry.
        public init(fileName: String, byteCount: Int, quarantinedAt: Date?) {
            self.fileName = fileName
            self.byteCount = byteCount
            self.quarantinedAt = quarantinedAt
        }
    }
}
