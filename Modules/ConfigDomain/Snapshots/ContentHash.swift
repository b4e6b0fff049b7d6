import Foundation

/// A 64-bit hash of a payload's bytes plus its length, to tell whether a payload changed.
///
/// FNV-1a, stable across platforms and releases: it is persisted in cache files. It detects
/// change; it is not a cryptographic digest and must not be used to authenticate content.
public struct ContentHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The hash of the bytes.
    public let value: UInt64
    /// The number of bytes hashed.
    public let byteCount: Int

    /// Creates a hash from stored parts.
    public init(value: UInt64, byteCount: Int) {
        self.value = value
        self.byteCount = byteCount
    }

    /// Hashes `bytes` (a `Data`, an array of bytes, a string's `utf8`).
    public init(of bytes: some Sequence<UInt8>) {
        // Over contiguous memory when the bytes have it (`Data`, arrays), in a loop that is not
        // generic: iterating a sequence through its protocol is many times slower.
        self =
            bytes.withContiguousStorageIfAvailable { Self.hash(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes(Self.hash)
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> ContentHash {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // the FNV-1a 64 offset basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3  // the FNV-1a 64 prime
        }
        return ContentHash(value: hash, byteCount: bytes.count)
    }

    /// `fnv1a:0123456789abcdef/1234`.
    public var description: String {
        let hex = String(value, radix: 16)
        return "fnv1a:" + String(repeating: "0", count: 16 - hex.count) + hex + "/\(byteCount)"
    }
}
