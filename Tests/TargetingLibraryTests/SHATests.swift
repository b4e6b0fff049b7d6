import Targeting
import Testing

/// SHA-1 and SHA-256 against FIPS 180-4's examples ("abc", the two-block message), the empty text, a
/// long one, non-ASCII text and the padding boundaries (55, 56 and 64 bytes); each digest checked with
/// Python's `hashlib`.
@Suite("SHA-1 and SHA-256")
struct SHATests {
    static let vectors: [(String, String, String)] = [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        ),
        (
            String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba",
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        ),
        (
            "ππππ user-42.salt", "416803e8950a73288d5cc2ee3149cceb39a42791",
            "e91e2c22a822c520f39246670b3cf3791ad669175de286538d658a9445710def"
        ),
        (
            String(repeating: "x", count: 55), "cef734ba81a024479e09eb5a75b6ddae62e6abf1",
            "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"
        ),
        (
            String(repeating: "x", count: 56), "901305367c259952f4e7af8323f480d59f81335b",
            "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"
        ),
        (
            String(repeating: "x", count: 64), "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163",
            "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"
        ),
    ]

    @Test("known digests", arguments: 0..<vectors.count)
    func digest(index: Int) {
        let (text, sha1, sha256) = Self.vectors[index]
        #expect(SHA.hex(SHA.sha1(text)) == sha1)
        #expect(SHA.hex(SHA.sha256(text)) == sha256)
        #expect(SHA.sha1(text).count == 20 && SHA.sha256(text).count == 32)
    }
}
