import Foundation

extension FileSnapshotCache {
    /// Limits and file attributes of a ``FileSnapshotCache``.
    public struct Options: Sendable, Hashable {
        /// The largest payload a store accepts and a load reads, in bytes (default 5 MiB).
        /// A larger store fails with `payloadTooLarge` and writes nothing.
        public var maxPayloadSize: Int
        /// How long a write waits for another writer's lock before failing with `lockTimeout`, in
        /// seconds (default 5).
        public var lockTimeout: TimeInterval
        /// How many damaged files the `quarantine/` folder keeps, newest first (default 3; 0
        /// deletes damaged files).
        public var quarantineLimit: Int
        /// The permission bits of every file the cache writes (default `0o600`: owner only).
        public var filePermissions: UInt16
        /// The permission bits of the cache directory and `quarantine/` when the cache creates
        /// them (default `0o700`); an existing directory keeps its own.
        public var directoryPermissions: UInt16

        #if canImport(Darwin)
            /// The data-protection class of every file the cache writes (Apple platforms only;
            /// default `nil`: the container's default class).
            public var fileProtection: DataProtection?
        #endif

        /// Creates options.
        public init(
            maxPayloadSize: Int = 5 * 1024 * 1024, lockTimeout: TimeInterval = 5, quarantineLimit: Int = 3,
            filePermissions: UInt16 = 0o600, directoryPermissions: UInt16 = 0o700
        ) {
            self.maxPayloadSize = maxPayloadSize
            self.lockTimeout = lockTimeout
            self.quarantineLimit = quarantineLimit
            self.filePermissions = filePermissions
            self.directoryPermissions = directoryPermissions
        }

        #if canImport(Darwin)
            /// Creates options whose files get the data-protection class `fileProtection`.
            public init(
                maxPayloadSize: Int = 5 * 1024 * 1024, lockTimeout: TimeInterval = 5, quarantineLimit: Int = 3,
                filePermissions: UInt16 = 0o600, directoryPermissions: UInt16 = 0o700, fileProtection: DataProtection?
            ) {
                self.init(
                    maxPayloadSize: maxPayloadSize, lockTimeout: lockTimeout, quarantineLimit: quarantineLimit,
                    filePermissions: filePermissions, directoryPermissions: directoryPermissions)
                self.fileProtection = fileProtection
            }
        #endif
    }
}
