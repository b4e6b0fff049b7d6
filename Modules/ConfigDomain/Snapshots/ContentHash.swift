import Foundation

/// A 64-bit hash of a payload's bytes plus its length, so "unchanged" is cheap to decide.
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

    /// Hashes `bytes`.
    public init(of bytes: some Sequence<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var count = 0
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
            count += 1
        }
        self.value = hash
        self.byteCount = count
    }

    /// Hashes `data`.
    public init(of data: Data) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { raw in
            for byte in raw {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        self.value = hash
        self.byteCount = data.count
    }

    /// `fnv1a:0123456789abcdef/1234`.
    public var description: String {
        let hex = String(value, radix: 16)
        return "fnv1a:" + String(repeating: "0", count: 16 - hex.count) + hex + "/\(byteCount)"
    }
}
