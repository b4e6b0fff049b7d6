import Targeting
import Testing

/// MurmurHash3 x86 32-bit against the published test vectors (the reference implementation's
/// widely reproduced vectors; each also checked with the Python `mmh3` package).
@Suite("Murmur3")
struct Murmur3Tests {
    static let vectors: [(String, UInt32, UInt32)] = [
        ("", 0, 0),
        ("", 1, 0x514E_28B7),
        ("", 0xFFFF_FFFF, 0x81F1_6F39),
        ("\0\0\0\0", 0, 0x2362_F9DE),
        ("a", 0x9747_B28C, 0x7FA0_9EA6),
        ("ab", 0x9747_B28C, 0x7487_5592),
        ("abc", 0x9747_B28C, 0xC84A_62DD),
        ("abcd", 0x9747_B28C, 0xF047_8627),
        ("aa", 0x9747_B28C, 0x5D21_1726),
        ("aaa", 0x9747_B28C, 0x283E_0130),
        ("aaaa", 0x9747_B28C, 0x5A97_808A),
        ("Hello, world!", 0x9747_B28C, 0x2488_4CBA),
        ("ππππππππ", 0x9747_B28C, 0xD580_63C1),
        ("The quick brown fox jumps over the lazy dog", 0x9747_B28C, 0x2FA8_26CD),
        ("The quick brown fox jumps over the lazy dog", 0, 0x2E4F_F723),
    ]

    @Test("published vectors", arguments: 0..<vectors.count)
    func vector(index: Int) {
        let (text, seed, expected) = Self.vectors[index]
        #expect(Murmur3.hash32(text, seed: seed) == expected, "murmur3(\(text.debugDescription), \(seed))")
    }

    @Test("bytes and strings hash alike; the tail of 1 to 3 bytes is mixed in")
    func bytesAndTails() {
        #expect(Murmur3.hash32(bytes: Array("abc".utf8), seed: 0x9747_B28C) == 0xC84A_62DD)
        #expect(Murmur3.hash32(bytes: [UInt8](), seed: 1) == 0x514E_28B7)
    }
}
