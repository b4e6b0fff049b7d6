/// SHA-256 (FIPS 180-4) of a short byte string, used only to derive file names from configuration
/// names (see ``CacheFileNames``). Not used for integrity (that is ``CRC32C``) nor for security.
///
/// It works in stack buffers and reads its constants from a tuple: a cache derives a file name
/// before it reads its first file at launch, where each heap array (and the first array of a new
/// element type, whose metadata the runtime builds) costs microseconds.
enum SHA256Digest {
    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants:
        (
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
            UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32
        ) = (
            0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
            0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
            0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
            0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
            0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
            0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
            0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
            0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2
        )

    /// The digest's length in bytes.
    static let length = 32

    /// The 32-byte digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: length)
        message.withUnsafeBytes { bytes in
            digest.withUnsafeMutableBytes { hash(bytes, into: $0) }
        }
        return digest
    }

    /// Writes the digest of `message` to the first 32 bytes of `digest` (which must have room for
    /// them), allocating nothing.
    static func hash(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer) {
        assert(digest.count >= length, "a SHA-256 digest takes 32 bytes")
        // Words 0–63: the message schedule; 64–71: the state.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 72) { words in
            // The initial state: the first 32 bits of the fractional parts of the square roots of the first 8 primes.
            words[64] = 0x6a09_e667
            words[65] = 0xbb67_ae85
            words[66] = 0x3c6e_f372
            words[67] = 0xa54f_f53a
            words[68] = 0x510e_527f
            words[69] = 0x9b05_688c
            words[70] = 0x1f83_d9ab
            words[71] = 0x5be0_cd19
            let fullBlocks = message.count / 64
            for block in 0..<fullBlocks {
                compress(UnsafeRawBufferPointer(rebasing: message[(block * 64)..<(block * 64 + 64)]), words)
            }
            // The rest of the message, a 1 bit, zeros up to 56 mod 64, then the bit length as a
            // 64-bit big-endian number: one block, or two when the rest leaves no room for the length.
            withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
                let rest = message.count - fullBlocks * 64
                tail.initializeMemory(as: UInt8.self, repeating: 0)
                for i in 0..<rest { tail[i] = message[fullBlocks * 64 + i] }
                tail[rest] = 0x80
                let tailLength = rest < 56 ? 64 : 128
                let bitLength = UInt64(message.count) &* 8
                for i in 0..<8 { tail[tailLength - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * i)) }
                let bytes = UnsafeRawBufferPointer(tail)
                compress(UnsafeRawBufferPointer(rebasing: bytes[0..<64]), words)
                if tailLength == 128 { compress(UnsafeRawBufferPointer(rebasing: bytes[64..<128]), words) }
            }
            for i in 0..<8 {
                let word = words[64 + i]
                for j in 0..<4 { digest[4 * i + j] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * j)) }
            }
        }
    }

    /// Mixes one 64-byte block into the state (`words[64..<72]`), using `words[0..<64]` for the schedule.
    private static func compress(_ block: UnsafeRawBufferPointer, _ words: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<16 {
            words[i] =
                UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8
                | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotr(words[i - 15], 7) ^ rotr(words[i - 15], 18) ^ (words[i - 15] >> 3)
            let s1 = rotr(words[i - 2], 17) ^ rotr(words[i - 2], 19) ^ (words[i - 2] >> 10)
            words[i] = words[i - 16] &+ s0 &+ words[i - 7] &+ s1
        }
        var a = words[64]
        var b = words[65]
        var c = words[66]
        var d = words[67]
        var e = words[68]
        var f = words[69]
        var g = words[70]
        var h = words[71]
        withUnsafeBytes(of: roundConstants) { constants in
            for i in 0..<64 {
                let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ sum1 &+ choice &+ constants.load(fromByteOffset: 4 * i, as: UInt32.self) &+ words[i]
                let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = sum0 &+ majority
                h = g
                g = f
                f = e
                e = d &+ t1
                d = c
                c = b
                b = a
                a = t1 &+ t2
            }
        }
        words[64] &+= a
        words[65] &+= b
        words[66] &+= c
        words[67] &+= d
        words[68] &+= e
        words[69] &+= f
        words[70] &+= g
        words[71] &+= h
    }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
