/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm), as Unleash's and
/// flagd's bucketing use it.
///
/// Written out plainly from the published algorithm; `Tests/TargetingLibraryTests/Murmur3Tests.swift`
/// checks it against the published test vectors. Strings are hashed as their UTF-8 bytes.
public enum Murmur3 {
    /// The 32-bit hash of `text`'s UTF-8 bytes under `seed`.
    public static func hash32(_ text: String, seed: UInt32 = 0) -> UInt32 {
        var text = text
        return text.withUTF8 { hash32(bytes: UnsafeRawBufferPointer($0), seed: seed) }
    }

    /// The 32-bit hash of `bytes` under `seed`.
    public static func hash32(bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { hash32(bytes: $0, seed: seed) }
    }

    /// The 32-bit hash of the bytes in `bytes` under `seed`.
    public static func hash32(bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var hash = seed
        let blockCount = bytes.count / 4

        // The body: each full 4-byte block, read little-endian, is mixed into the hash.
        for index in 0..<blockCount {
            let block = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            hash ^= mixBlock(block, c1, c2)
            hash = rotateLeft(hash, by: 13)
            hash = hash &* 5 &+ 0xe654_6b64
        }

        // The tail: the 1 to 3 bytes left over, mixed in without the rotate-and-add step.
        var tail: UInt32 = 0
        for offset in stride(from: bytes.count - 1, through: blockCount * 4, by: -1) {
            tail = (tail << 8) | UInt32(bytes[offset])
        }
        if bytes.count % 4 != 0 { hash ^= mixBlock(tail, c1, c2) }

        // Finalisation: fold in the length, then avalanche the bits.
        hash ^= UInt32(truncatingIfNeeded: bytes.count)
        hash ^= hash >> 16
        hash = hash &* 0x85eb_ca6b
        hash ^= hash >> 13
        hash = hash &* 0xc2b2_ae35
        hash ^= hash >> 16
        return hash
    }

    private static func mixBlock(_ block: UInt32, _ c1: UInt32, _ c2: UInt32) -> UInt32 {
        rotateLeft(block &* c1, by: 15) &* c2
    }

    private static func rotateLeft(_ value: UInt32, by count: UInt32) -> UInt32 {
        (value << count) | (value >> (32 - count))
    }
}
