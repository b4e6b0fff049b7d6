import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import FileCacheAdapter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("FileCacheAdapterTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The path of `fileName` inside the directory.
    func file(_ fileName: String) -> String { url.appendingPathComponent(fileName).path }

    /// The names in the directory, sorted.
    func contents(_ subfolder: String? = nil) -> [String] {
        let path = subfolder.map { url.appendingPathComponent($0).path } ?? url.path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}

/// Runs `body` with a fresh temporary directory that is removed afterwards.
func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}

/// Metadata with every field set to something recognisable.
func fullMetadata(_ seed: Int = 1, payload: Data = Data("{}".utf8)) -> SnapshotMetadata {
    SnapshotMetadata(
        fetchedAt: Date(timeIntervalSinceReferenceDate: 700_000_000.123_456_7 + Double(seed)),
        validators: Validators(etag: "W/\"etag-\(seed)\"", lastModified: "Tue, 15 Nov 1994 12:45:26 GMT"),
        contentHash: ContentHash(of: payload), source: "https://example.com/config/\(seed).json?é=✓", ttlHint: 300.5)
}

/// A snapshot whose payload is a small JSON object derived from `seed`.
func sampleSnapshot(_ seed: Int = 1, size: Int? = nil) -> CachedSnapshot {
    var text = "{\"seed\":\(seed),\"flag\":true"
    if let size, size > text.count + 1 {
        text += ",\"pad\":\"" + String(repeating: "x", count: max(0, size - text.count - 10)) + "\""
    }
    text += "}"
    let payload = Data(text.utf8)
    return CachedSnapshot(payload: payload, metadata: fullMetadata(seed, payload: payload))
}

/// Writes `bytes` over `path` (test setup of damaged files).
func overwrite(_ path: String, with bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// The bytes of the file at `path`.
func bytes(of path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// The inode, size and modification time of `path`.
func fileIdentity(_ path: String) throws -> (inode: UInt64, size: Int64, modified: Date) {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
    let modified = attributes[.modificationDate] as? Date ?? .distantPast
    return (inode, size, modified)
}

/// The permission bits of `path`.
func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// The corruption reason of an unreadable load, if that is what it is.
func corruption(_ result: CacheLoadResult) -> CacheError.CorruptionReason? {
    if case .unreadable(let error) = result, case .corrupt(let reason) = error.kind { return reason }
    return nil
}

/// SplitMix64: a small seeded generator, so a failing mutation can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Holds `flock(LOCK_EX)` on `path` through a descriptor of its own, like another process would.
final class ForeignLockHolder {
    private let descriptor: Int32

    init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    func release() {
        flock(descriptor, LOCK_UN)
    }

    deinit { close(descriptor) }
}
