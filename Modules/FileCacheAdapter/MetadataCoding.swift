import ConfigDomain
import Foundation

/// The compact binary encoding of the metadata section (see FORMAT.md): the configuration name
/// and every field of ``SnapshotMetadata``, in a fixed order.
///
/// - string: UInt32 byte count, then that many UTF-8 bytes (any bytes a Swift `String` holds,
///   NUL included)
/// - optional: one byte, 0 (absent) or 1 (present), then the value when present
/// - date and time interval: the IEEE 754 bit pattern of a `Double` as UInt64 (a date as its
///   seconds since 2001-01-01 00:00:00 UTC, so it round-trips exactly)
/// - integers: big-endian, `Int` as a two's-complement Int64
///
/// Fields: name (string), fetchedAt (date), etag (optional string), lastModified (optional
/// string), contentHash.value (UInt64), contentHash.byteCount (Int64), source (string),
/// ttlHint (optional double), and from format version 3 on, signature (optional string). The
/// section must be consumed exactly.
enum MetadataCoding {
    /// Encodes `name` and `metadata` in the current format version's layout.
    static func encode(name: String, metadata: SnapshotMetadata) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + name.utf8.count + metadata.source.utf8.count)
        appendString(name, to: &bytes)
        ByteOrder.append(metadata.fetchedAt.timeIntervalSinceReferenceDate.bitPattern, to: &bytes)
        appendOptionalString(metadata.validators.etag, to: &bytes)
        appendOptionalString(metadata.validators.lastModified, to: &bytes)
        ByteOrder.append(metadata.contentHash.value, to: &bytes)
        ByteOrder.append(Int64(metadata.contentHash.byteCount), to: &bytes)
        appendString(metadata.source, to: &bytes)
        if let ttl = metadata.ttlHint {
            bytes.append(1)
            ByteOrder.append(ttl.bitPattern, to: &bytes)
        } else {
            bytes.append(0)
        }
        appendOptionalString(metadata.signature, to: &bytes)
        return bytes
    }

    /// Decodes a metadata section written in format `version` (2 has no signature field), or
    /// explains in a few words why it does not decode.
    static func decode(
        _ bytes: [UInt8], version: UInt16 = EnvelopeHeader.currentVersion
    ) -> Result<(name: String, metadata: SnapshotMetadata), MetadataDecodingFailure> {
        var reader = Reader(bytes: bytes)
        do throws(MetadataDecodingFailure) {
            let name = try reader.string("name")
            let fetchedAt = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.integer(UInt64.self, "fetchedAt")))
            let etag = try reader.optionalString("etag")
            let lastModified = try reader.optionalString("lastModified")
            let hashValue = try reader.integer(UInt64.self, "contentHash")
            let hashCount = try reader.integer(Int64.self, "contentHash byte count")
            let source = try reader.string("source")
            let ttl: TimeInterval?
            switch try reader.integer(UInt8.self, "ttlHint") {
            case 0: ttl = nil
            case 1: ttl = Double(bitPattern: try reader.integer(UInt64.self, "ttlHint"))
            case let flag: throw MetadataDecodingFailure(detail: "ttlHint presence byte is \(flag), not 0 or 1")
            }
            let signature = version >= 3 ? try reader.optionalString("signature") : nil
            guard reader.offset == bytes.count else {
                throw MetadataDecodingFailure(detail: "\(bytes.count - reader.offset) unexpected bytes after the last field")
            }
            guard let byteCount = Int(exactly: hashCount) else {
                throw MetadataDecodingFailure(detail: "contentHash byte count \(hashCount) does not fit this platform's Int")
            }
            let metadata = SnapshotMetadata(
                fetchedAt: fetchedAt, validators: Validators(etag: etag, lastModified: lastModified),
                contentHash: ContentHash(value: hashValue, byteCount: byteCount), source: source, ttlHint: ttl,
                signature: signature)
            return .success((name, metadata))
        } catch {
            return .failure(error)
        }
    }

    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        ByteOrder.append(UInt32(truncatingIfNeeded: utf8.count), to: &bytes)
        bytes += utf8
    }

    private static func appendOptionalString(_ string: String?, to bytes: inout [UInt8]) {
        if let string {
            bytes.append(1)
            appendString(string, to: &bytes)
        } else {
            bytes.append(0)
        }
    }

    /// A cursor over the section's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type, _ field: String) throws(MetadataDecodingFailure) -> T {
            let width = T.bitWidth / 8
            guard bytes.count - offset >= width else {
                throw MetadataDecodingFailure(detail: "the section ends inside \(field)")
            }
            defer { offset += width }
            return ByteOrder.read(T.self, bytes, at: offset)
        }

        mutating func string(_ field: String) throws(MetadataDecodingFailure) -> String {
            guard let count = Int(exactly: try integer(UInt32.self, field)) else {
                throw MetadataDecodingFailure(detail: "\(field) declares more bytes than this platform can address")
            }
            guard bytes.count - offset >= count else {
                throw MetadataDecodingFailure(detail: "\(field) declares \(count) bytes but the section ends first")
            }
            let slice = bytes[offset..<(offset + count)]
            offset += count
            let text = String(decoding: slice, as: UTF8.self)
            guard text.utf8.elementsEqual(slice) else {
                throw MetadataDecodingFailure(detail: "\(field) is not valid UTF-8")
            }
            return text
        }

        mutating func optionalString(_ field: String) throws(MetadataDecodingFailure) -> String? {
            switch try integer(UInt8.self, field) {
            case 0: return nil
            case 1: return try string(field)
            case let flag: throw MetadataDecodingFailure(detail: "\(field) presence byte is \(flag), not 0 or 1")
            }
        }
    }
}

/// Why a metadata section did not decode.
struct MetadataDecodingFailure: Error, Sendable {
    /// A few words for the error message.
    var detail: String
}
