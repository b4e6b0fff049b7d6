import Foundation

/// The 32-bit FNV-1a hash (Fowler–Noll–Vo), over the UTF-16 code units of a string, as GrowthBook's SDKs hash.
///
/// Offset basis 2166136261, prime 16777619: for each code unit, `hash = (hash ^ unit) &* 16777619`,
/// the whole 16-bit unit XORed in (JavaScript's `charCodeAt`). An ASCII text's code units are its
/// bytes, so it hashes as over its UTF-8; `é` is the one unit `0xE9` and `🙂` the two units
/// `0xD83D 0xDE42`. The same text gives the same number on every platform and every run.
/// `FNV1a.hash("a") == 0xE40C292C`.
public enum FNV1a {
    /// The offset basis: the hash of no code units.
    public static let offsetBasis: UInt32 = 2_166_136_261
    /// The FNV prime for 32 bits.
    public static let prime: UInt32 = 16_777_619

    /// The hash of `text`'s UTF-16 code units.
    public static func hash(_ text: String) -> UInt32 { hash(text, continuing: offsetBasis) }

    /// Continues `hash` over `text`'s UTF-16 code units: `hash(b, continuing: hash(a))` is the hash of `a + b`.
    public static func hash(_ text: String, continuing hash: UInt32) -> UInt32 {
        // ASCII text, the usual id, is hashed from its UTF-8 bytes: those are its code units.
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> UInt32? in
            var hash = hash
            var seen: UInt8 = 0
            for byte in bytes {
                seen |= byte
                hash = (hash ^ UInt32(byte)) &* prime
            }
            return seen < 0x80 ? hash : nil
        }
        if let ascii, let ascii { return ascii }
        // Otherwise by Unicode scalar: one code unit below U+10000, else its two surrogates (faster than `utf16`).
        var hash = hash
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x1_0000 {
                hash = (hash ^ value) &* prime
            } else {
                hash = (hash ^ (0xD800 | (value - 0x1_0000) >> 10)) &* prime
                hash = (hash ^ (0xDC00 | value & 0x3FF)) &* prime
            }
        }
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
