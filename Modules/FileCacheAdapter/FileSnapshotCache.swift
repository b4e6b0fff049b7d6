import ConfigDomain
import ConfigPorts
import Foundation

/// A ``SnapshotCache`` in a directory of files: crash-safe, self-verifying, shared safely by
/// several processes (an app and its extensions, several server workers).
///
/// - One directory holds any number of configuration names; each name gets its own files,
///   named safely whatever the name (see ``CacheFileNames``).
/// - Every file is a versioned envelope whose header and metadata are checked by a hash, and
///   whose payload is checked against the content hash in its metadata (see `FORMAT.md` in this
///   module). The payload is stored byte for byte as fetched.
/// - Every write replaces a whole file atomically (temporary file, `fsync`, `rename`, directory
///   `fsync`) under an advisory `flock` with a bounded wait, so a crash at any moment leaves the
///   previous snapshot or the new one, and writers in different processes never interleave.
/// - A renewal (after a 304) writes only a small metadata file bound to the payload it renews;
///   the payload file is not touched.
/// - A damaged, foreign or other-version file never crashes a load and is never thrown at a
///   reader: the load returns ``CacheLoadResult/unreadable(_:)`` with the typed reason, moves the
///   file to `quarantine/` (keeping the newest ``Options/quarantineLimit``), and the next load is
///   a clean miss.
/// - Every call does its file work on the calling thread: a load reads one snapshot file (and a
///   small renewal file, when there is one); a write may wait for the lock up to ``Options/lockTimeout``.
///
/// ```swift
/// let cache = FileSnapshotCache(directory: applicationSupport.appendingPathComponent("RemoteConfig"))
/// let serverCache = FileSnapshotCache(directoryPath: "/var/cache/my-service/remote-config")
/// ```
public final class FileSnapshotCache: SnapshotCache {
    /// The directory holding the files; created (mode 0700 by default) on the first store.
    public let directory: URL
    /// The directory's absolute file-system path, without a trailing slash.
    public let directoryPath: String
    /// Limits and file attributes.
    public let options: Options

    private let engine: CacheDirectory

    /// Creates a cache over `directory`. Nothing is read or created until the first call.
    public init(directory: URL, options: Options = .init()) {
        self.directory = directory
        directoryPath = directory.path
        self.options = options
        engine = CacheDirectory(path: directoryPath, options: options)
    }

    /// Creates a cache over the directory at `path`: absolute, or relative to the current
    /// directory now. Nothing is read or created until the first call.
    public convenience init(directoryPath path: String, options: Options = .init()) {
        self.init(directory: URL(fileURLWithPath: path, isDirectory: true), options: options)
    }

    /// Loads the snapshot of `name` in `slot`. Never throws: damaged data is
    /// ``CacheLoadResult/unreadable(_:)`` (and moved to quarantine), absent data a miss.
    public func load(_ name: String, slot: CacheSlot) -> CacheLoadResult {
        engine.load(name, slot: slot)
    }

    /// Stores `snapshot` as `name` in `slot`, replacing the previous one atomically.
    ///
    /// Throws `payloadTooLarge` (nothing written), `corrupt(.badChecksum)` when the metadata's
    /// content hash is not the payload's, `lockTimeout` (another writer held the lock for longer
    /// than ``Options/lockTimeout``), or `io` (the file system refused, or the name is too long
    /// for a file name: see ``CacheFileNames``).
    public func store(_ snapshot: CachedSnapshot, as name: String, slot: CacheSlot) async throws(CacheError) {
        try engine.store(snapshot, as: name, slot: slot).get()
    }

    /// Replaces the metadata of the active snapshot of `name` by writing only a small renewal
    /// file; the payload file is not rewritten.
    ///
    /// Throws `notFound` when no intact active snapshot is stored (none, or a damaged one, which is
    /// moved to quarantine), or when its content hash is not `metadata.contentHash` (another
    /// process replaced the payload since it was loaded). Storing the payload again repairs both.
    public func renew(_ metadata: SnapshotMetadata, for name: String) async throws(CacheError) {
        try engine.renew(metadata, for: name).get()
    }

    /// Makes the pending snapshot of `name` active with one atomic rename; `false` when there was
    /// none. A damaged pending snapshot is quarantined and thrown as `corrupt`. It may wait for
    /// the write lock, up to ``Options/lockTimeout``.
    public func promotePending(_ name: String) throws(CacheError) -> Bool {
        try engine.promotePending(name).get()
    }

    /// Moves the pending snapshot of `name`, if any, to `quarantine/` (where ``inspect()`` lists it),
    /// so the next launch does not promote it. It may wait for the write lock, up to ``Options/lockTimeout``.
    public func discardPending(_ name: String) throws(CacheError) {
        try engine.discardPending(name).get()
    }

    /// Removes the active and pending snapshots of `name` (the lock file stays).
    public func clear(_ name: String) async throws(CacheError) {
        try engine.clear(name).get()
    }

    /// Lists what the directory holds (every configuration with its metadata, sizes, integrity
    /// and pending snapshot, the quarantined files, stray files) without changing anything.
    /// A missing directory is an empty report; an unreadable one throws `io`.
    public func inspect() async throws(CacheError) -> CacheDirectoryReport {
        try engine.inspect().get()
    }

    /// The names of the files `name` uses in ``directory``.
    public func fileNames(for name: String) -> CacheFileNames { CacheFileNames(name: name) }
}
