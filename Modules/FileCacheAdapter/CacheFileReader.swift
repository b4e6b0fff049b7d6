import ConfigDomain
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A cache file read whole and verified.
struct VerifiedCacheFile: Sendable {
    /// The fixed header.
    var header: EnvelopeHeader
    /// The configuration name stored in the file.
    var name: String
    /// The metadata stored in the file.
    var metadata: SnapshotMetadata
    /// The payload (snapshot files only; empty for a renewal file).
    var payload: Data
    /// The file's identity when it was read.
    var identity: PosixFileSystem.EntryStatus
}

/// What reading one cache file found.
indirect enum CacheFileReadOutcome: Sendable {
    /// No file at the path.
    case absent
    /// A whole, verified file.
    case intact(VerifiedCacheFile)
    /// Damaged or foreign data at the path: quarantine it (if it is still the same entry) and
    /// report the error. `identity` is nil when the entry could not even be examined.
    case damaged(CacheError, identity: PosixFileSystem.EntryStatus?)
    /// The file could not be read (permissions, I/O) or is valid but over this cache's size
    /// limit: report the error, leave the file alone.
    case failed(CacheError)
}

/// Reads and verifies cache files in the order FORMAT.md gives, never reading more than the
/// header declares and never trusting a length before the header check has vouched for it.
enum CacheFileReader {
    /// Reads the file at `path` as a `kind` file.
    static func read(_ path: String, kind: CacheFileKind, maxPayloadSize: Int) -> CacheFileReadOutcome {
        // O_NOFOLLOW: a symbolic link is refused rather than followed out of the directory;
        // O_NONBLOCK: a FIFO planted at the path cannot block the open.
        let file: OpenFile
        switch OpenFile.open(path, flags: O_RDONLY | O_NONBLOCK | O_NOFOLLOW) {
        case .success(let opened): file = opened
        case .failure(let failure) where failure.isNotFound: return .absent
        case .failure(let failure) where failure.code == ELOOP:
            return .damaged(
                damage(.notAFile, path, kind, "it is a symbolic link, which the cache never creates"),
                identity: try? PosixFileSystem.status(path).get())
        case .failure(let failure): return .failed(failure.cacheError(path: path))
        }
        let identity: PosixFileSystem.EntryStatus
        switch file.status() {
        case .success(let status): identity = status
        case .failure(let failure): return .failed(failure.cacheError(path: path))
        }
        guard identity.isRegularFile else {
            let what = identity.isDirectory ? "a directory" : "not a regular file"
            return .damaged(damage(.notAFile, path, kind, "it is \(what)"), identity: identity)
        }
        switch verify(file, identity: identity, path: path, kind: kind, maxPayloadSize: maxPayloadSize) {
        case .success(let verified): return .intact(verified)
        case .failure(.damaged(let error)): return .damaged(error, identity: identity)
        case .failure(.failed(let error)): return .failed(error)
        }
    }

    private static func verify(
        _ file: OpenFile, identity: PosixFileSystem.EntryStatus, path: String, kind: CacheFileKind, maxPayloadSize: Int
    ) -> Result<VerifiedCacheFile, ReadProblem> {
        func damaged(_ reason: CacheError.CorruptionReason, _ detail: String) -> Result<VerifiedCacheFile, ReadProblem> {
            .failure(.damaged(damage(reason, path, kind, detail)))
        }
        func read(_ count: Int) -> Result<Data, ReadProblem> {
            file.read(count: count).mapError { .failed($0.cacheError(path: path)) }
        }
        let size = identity.size
        if size == 0 { return damaged(.empty, "it has no bytes") }

        // Magic.
        let head: [UInt8]
        switch read(Int(min(size, Int64(EnvelopeHeader.size)))) {
        case .success(let bytes): head = [UInt8](bytes)
        case .failure(let failure): return .failure(failure)
        }
        let magicLength = kind.magic.count
        let magicPart = Array(head.prefix(magicLength))
        if magicPart != Array(kind.magic.prefix(magicPart.count)) {
            let other: CacheFileKind = kind == .snapshot ? .renewal : .snapshot
            if magicPart == other.magic {
                return damaged(.badMagic, "it holds \(other.label), not \(kind.label)")
            }
            return damaged(.badMagic, "it does not start with the cache's magic bytes (not a cache file)")
        }
        if head.count < magicLength + 2 {
            return damaged(.truncated, "it ends after \(head.count) bytes, inside the header")
        }

        // Version, before anything else: another version may lay out the rest differently.
        let version = ByteOrder.read(UInt16.self, head, at: magicLength)
        guard EnvelopeHeader.readableVersions.contains(version) else {
            let supported = Int(EnvelopeHeader.currentVersion)
            let message =
                "\(path) was written in cache format version \(version); this build reads version \(supported) "
                + "(and \(EnvelopeHeader.readableVersions.lowerBound), its predecessor) only. "
                + "It is treated as a miss and replaced by the next successful fetch"
            return .failure(
                .damaged(CacheError(.unsupportedVersion(found: Int(version), supported: supported), message: message)))
        }
        guard let header = EnvelopeHeader(parsing: head) else {
            return damaged(.truncated, "it ends after \(head.count) bytes, inside the \(EnvelopeHeader.size)-byte header")
        }

        // Metadata section, then the header check over both.
        let declaredMetadataLength = header.metadataLength
        if Int64(EnvelopeHeader.size) + Int64(declaredMetadataLength) > size {
            return damaged(
                .truncated,
                "its header declares \(declaredMetadataLength) bytes of metadata but the file has \(size) bytes in all")
        }
        if declaredMetadataLength > EnvelopeHeader.maxMetadataLength {
            return damaged(
                .badMetadata,
                "its header declares \(declaredMetadataLength) bytes of metadata, over the \(EnvelopeHeader.maxMetadataLength)-byte bound"
            )
        }
        let metadataLength = Int(declaredMetadataLength)  // at most 1 MiB, so it fits any Int
        let metadataBytes: [UInt8]
        switch read(metadataLength) {
        case .success(let bytes) where bytes.count == metadataLength: metadataBytes = [UInt8](bytes)
        case .success: return damaged(.truncated, "it ended while its metadata was being read")
        case .failure(let failure): return .failure(failure)
        }
        let expectedCheck = EnvelopeHeader.check(headerBytes: head, metadata: metadataBytes)
        guard expectedCheck == header.headerCheck else {
            return damaged(
                .badChecksum,
                "its header check is \(hex(header.headerCheck)) but the header and metadata hash to \(hex(expectedCheck))")
        }
        guard header.reserved == 0 else {
            return damaged(
                .badMetadata,
                "reserved header flags \(header.reserved) are set, which version \(version) never sets")
        }
        let decoded: (name: String, metadata: SnapshotMetadata)
        switch MetadataCoding.decode(metadataBytes, version: version) {
        case .success(let value): decoded = value
        case .failure(let failure): return damaged(.badMetadata, "its metadata does not decode: \(failure.detail)")
        }

        // Payload (snapshot files only), checked against the content hash in the metadata.
        let payloadLength = kind == .snapshot ? header.payloadLength : 0
        if payloadLength > UInt64(max(0, maxPayloadSize)) {
            return .failure(
                .failed(
                    CacheError(
                        .payloadTooLarge(size: Int(clamping: payloadLength), limit: maxPayloadSize),
                        message:
                            "\(path) holds a payload of \(payloadLength) bytes, over this cache's limit of \(maxPayloadSize) bytes; "
                            + "it is left in place and treated as a miss. Raise Options.maxPayloadSize to read it")))
        }
        let expectedSize = Int64(EnvelopeHeader.size + metadataLength) + Int64(payloadLength)
        if size < expectedSize {
            return damaged(.truncated, "it has \(size) bytes but its header declares \(expectedSize)")
        }
        if size > expectedSize {
            return damaged(.trailingBytes, "it has \(size - expectedSize) bytes after the declared end (\(expectedSize) bytes)")
        }
        var payload = Data()
        if kind == .snapshot {
            switch read(Int(payloadLength)) {
            case .success(let bytes) where bytes.count == Int(payloadLength): payload = bytes
            case .success: return damaged(.truncated, "it ended while its payload was being read")
            case .failure(let failure): return .failure(failure)
            }
            let computed = ContentHash(of: payload)
            guard computed == decoded.metadata.contentHash else {
                return damaged(
                    .badChecksum,
                    "its metadata gives content hash \(decoded.metadata.contentHash) but the payload hashes to \(computed)")
            }
        }
        return .success(
            VerifiedCacheFile(
                header: header, name: decoded.name, metadata: decoded.metadata, payload: payload, identity: identity))
    }

    /// Why verification stopped.
    private enum ReadProblem: Error {
        /// Damaged or foreign data: quarantine.
        case damaged(CacheError)
        /// Unreadable or over the limit: leave alone.
        case failed(CacheError)
    }

    /// A corruption error for `path` with a readable explanation.
    static func damage(_ reason: CacheError.CorruptionReason, _ path: String, _ kind: CacheFileKind, _ detail: String)
        -> CacheError
    {
        CacheError(.corrupt(reason), message: "the \(kind.label) file \(path) is damaged (\(reason.rawValue)): \(detail)")
    }

    /// `0x0123456789abcdef`.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
