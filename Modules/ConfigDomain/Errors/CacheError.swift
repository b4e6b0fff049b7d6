import Foundation

/// A cache that could not read or write, with a typed reason. A failed load is a miss, never a crash.
public struct CacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public indirect enum Kind: Sendable, Hashable {
        /// The stored data is damaged or foreign (truncated, bad checksum, garbage, empty, not a file).
        case corrupt(CorruptionReason)
        /// The stored data was written by a newer (or unknown) format version.
        case unsupportedVersion(found: Int, supported: Int)
        /// The payload is over the cache's size limit; nothing was written.
        case payloadTooLarge(size: Int, limit: Int)
        /// Another process held the write lock for longer than the bounded wait.
        case lockTimeout(seconds: Double)
        /// The file system refused an operation (permissions, disk full).
        case io(operation: String, code: Int32)
        /// There is nothing to act on (for example renewing metadata of an absent snapshot).
        case notFound
        /// The client's `PayloadVerifier` refused the stored payload (altered on disk, unsigned, signed
        /// for another configuration or by a key no longer trusted); the client did not parse it.
        case untrusted(SignatureError)
    }

    /// How stored data was found damaged.
    public enum CorruptionReason: String, Sendable, Hashable {
        /// The file has no bytes.
        case empty
        /// The file does not start with the expected magic bytes.
        case badMagic
        /// The file ends before its declared length.
        case truncated
        /// The payload's checksum does not match.
        case badChecksum
        /// The metadata section does not decode.
        case badMetadata
        /// A directory or other non-file stands where the file should be.
        case notAFile
        /// Bytes follow the declared end.
        case trailingBytes
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened and what to do, for a person.
    public var message: String

    /// Creates a cache error.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// `cache error: <message>`.
    public var description: String { "cache error: \(message)" }
}
