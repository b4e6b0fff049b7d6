import Foundation

/// The 32-bit FNV-1a hash (Fowler–Noll–Vo), over the UTF-8 bytes of a string.
///
/// Offset basis 2166136261, prime 16777619: for each byte, `hash = (hash ^ byte) &* 16777619`.
/// It is the hash GrowthBook documents for bucketing; the same text gives the same number on
/// every platform and every run. `FNV1a.hash("a") == 0xE40C292C`.
public enum FNV1a {
    /// The offset basis: the hash of no bytes.
    public static let offsetBasis: UInt32 = 2_166_136_261
    /// The FNV prime for 32 bits.
    public static let prime: UInt32 = 16_777_619

    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt32 { hash(text, continuing: offsetBasis) }

    /// Continues `hash` over `text`'s UTF-8 bytes: `hash(b, continuing: hash(a))` is the hash of `a + b`.
    public static func hash(_ text: String, continuing hash: UInt32) -> UInt32 {
        let contiguous = text.utf8.withContiguousStorageIfAvailable { bytes in
            var hash = hash
            for byte in bytes { hash = (hash ^ UInt32(byte)) &* prime }
            return hash
        }
        if let contiguous { return contiguous }
        var hash = hash
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* prime }
        return hash
    }

    /// Continues `hash` over the decimal digits of `number` (the hash of `String(number)`, without making the string).
    public static func hash(decimalDigitsOf number: UInt32, continuing hash: UInt32) -> UInt32 {
        // The digits, least significant first, four bits each (at most ten), then hashed most significant first.
        var digits: UInt64 = 0
        var count = 0
        var rest = number
        repeat {
            digits |= UInt64(rest % 10) << (4 * count)
            rest /= 10
            count += 1
        } while rest > 0
        var hash = hash
        for position in stride(from: count - 1, through: 0, by: -1) {
            hash = (hash ^ (UInt32(truncatingIfNeeded: digits >> (4 * position)) & 0xF | 0x30)) &* prime
        }
        return hash
    }
}
