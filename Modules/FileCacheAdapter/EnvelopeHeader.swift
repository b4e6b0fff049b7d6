import ConfigDomain

/// The fixed 40-byte header that starts every cache file (see FORMAT.md).
///
/// All integers are big-endian. The header check is the ``ContentHash`` value of bytes 0..<32
/// followed by the metadata section, so every byte of a file but the payload is covered by it.
/// The payload is covered by the content hash stored in the metadata.
struct EnvelopeHeader: Sendable {
    /// Bytes in the fixed header.
    static let size = 40
    /// The bytes the header check covers before the metadata (the check itself follows them).
    static let checkedSize = 32
    /// The format version this build writes.
    static let currentVersion: UInt16 = 3
    /// The format versions this build reads: 3, and 2, whose metadata has no signature field (so a
    /// cache written before signatures still starts the app with its last good values).
    static let readableVersions: ClosedRange<UInt16> = 2...3
    /// The largest metadata section a reader accepts (a sanity bound, far above real metadata).
    static let maxMetadataLength = 1 << 20

    /// The format version (offset 8).
    var version: UInt16 = EnvelopeHeader.currentVersion
    /// Reserved flags, zero in versions 2 and 3 (offset 10).
    var reserved: UInt16 = 0
    /// The length of the metadata section that follows the header (offset 12).
    var metadataLength: UInt32
    /// A random number identifying one stored payload (offset 16). A renewal file repeats the
    /// generation of the snapshot file it renews.
    var generation: UInt64
    /// The payload's length in bytes (offset 24).
    var payloadLength: UInt64
    /// The ``ContentHash`` value of bytes 0..<32 and the metadata section (offset 32).
    var headerCheck: UInt64 = 0

    /// Creates a header; the header check is filled in by ``sealed(kind:metadata:)``.
    init(metadataLength: UInt32, generation: UInt64, payloadLength: UInt64) {
        self.metadataLength = metadataLength
        self.generation = generation
        self.payloadLength = payloadLength
    }

    /// Parses the fields of a 40-byte header (the magic is checked by the caller).
    init?(parsing bytes: [UInt8]) {
        guard bytes.count >= Self.size else { return nil }
        version = ByteOrder.read(UInt16.self, bytes, at: 8)
        reserved = ByteOrder.read(UInt16.self, bytes, at: 10)
        metadataLength = ByteOrder.read(UInt32.self, bytes, at: 12)
        generation = ByteOrder.read(UInt64.self, bytes, at: 16)
        payloadLength = ByteOrder.read(UInt64.self, bytes, at: 24)
        headerCheck = ByteOrder.read(UInt64.self, bytes, at: 32)
    }

    /// The 40 header bytes for `kind`, with ``headerCheck`` as stored.
    func encoded(kind: CacheFileKind) -> [UInt8] {
        var bytes = kind.magic
        ByteOrder.append(version, to: &bytes)
        ByteOrder.append(reserved, to: &bytes)
        ByteOrder.append(metadataLength, to: &bytes)
        ByteOrder.append(generation, to: &bytes)
        ByteOrder.append(payloadLength, to: &bytes)
        ByteOrder.append(headerCheck, to: &bytes)
        return bytes
    }

    /// The header check of `headerBytes` (only the first 32 count) followed by `metadata`.
    static func check(headerBytes: [UInt8], metadata: [UInt8]) -> UInt64 {
        ContentHash(of: headerBytes.prefix(checkedSize) + metadata).value
    }

    /// Header plus metadata, ready to write, with the header check computed over both.
    func sealed(kind: CacheFileKind, metadata: [UInt8]) -> [UInt8] {
        var header = self
        header.metadataLength = UInt32(metadata.count)
        header.headerCheck = Self.check(headerBytes: header.encoded(kind: kind), metadata: metadata)
        return header.encoded(kind: kind) + metadata
    }
}

/// The two kinds of cache file, told apart by their magic bytes.
enum CacheFileKind: Sendable, Hashable {
    /// `<stem>.<slot>.snap`: header, metadata, payload.
    case snapshot
    /// `<stem>.active.meta`: header and metadata only; the header names the payload it renews.
    case renewal

    /// `89 52 43 53 0D 0A 1A 0A` (`\x89RCS\r\n\x1a\n`) or `89 52 43 4D 0D 0A 1A 0A` (`\x89RCM…`).
    var magic: [UInt8] {
        switch self {
        case .snapshot: [0x89, 0x52, 0x43, 0x53, 0x0D, 0x0A, 0x1A, 0x0A]
        case .renewal: [0x89, 0x52, 0x43, 0x4D, 0x0D, 0x0A, 0x1A, 0x0A]
        }
    }

    /// `snapshot` or `renewal metadata`, for messages.
    var label: String {
        switch self {
        case .snapshot: "snapshot"
        case .renewal: "renewal metadata"
        }
    }
}

/// Big-endian integer encoding.
enum ByteOrder {
    /// Appends `value` big-endian.
    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Reads a big-endian `T` at `offset`; the caller has checked the bounds.
    static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        bytes[offset..<(offset + T.bitWidth / 8)].reduce(0) { $0 << 8 | T($1) }
    }
}
