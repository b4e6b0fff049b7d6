/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm), as Unleash uses it.
///
/// Written out plainly from the published algorithm; `Tests/UnleashFormatTests/Murmur3Tests.swift`
/// checks it against the published test vectors. Strings are hashed as their UTF-8 bytes.
public enum Murmur3 {
    /// The 32-bit hash of `text`'s UTF-8 bytes under `seed`.
    public static func hash32(_ text: String, seed: UInt32 = 0) -> UInt32 {
        var text = text
        return text.withUTF8 { hash32(bytes: $0, seed: seed) }
    }

    /// The 32-bit hash of `bytes` under `seed`.
    public static func hash32<Bytes: Collection<UInt8>>(bytes: Bytes, seed: UInt32 = 0) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var hash = seed
        var block: UInt32 = 0
        var filled = 0
        var length: UInt32 = 0

        // The body: each full 4-byte little-endian block is mixed into the hash.
        for byte in bytes {
            block |= UInt32(byte) << (8 * UInt32(filled))
            filled += 1
            length &+= 1
            if filled == 4 {
                hash ^= mixBlock(block, c1, c2)
                hash = rotateLeft(hash, by: 13)
                hash = hash &* 5 &+ 0xe654_6b64
                block = 0
                filled = 0
            }
        }
        // The tail: the 1 to 3 bytes left over, mixed in without the rotate-and-add step.
        if filled > 0 { hash ^= mixBlock(block, c1, c2) }

        // Finalisation: fold in the length, then avalanche the bits.
        hash ^= length
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
