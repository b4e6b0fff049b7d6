import Foundation
import Testing

@testable import FileCacheAdapter

@Suite("CRC-32C and SHA-256")
struct ChecksumAndDigestTests {
    /// The byte-at-a-time definition, to check the sliced implementation against.
    private func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test("CRC-32C of \"123456789\" is the standard check value 0xE3069283")
    func crcCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
    }

    @Test("the sliced CRC-32C equals the bitwise definition for every length 0...300 and in pieces")
    func crcMatchesReference() {
        var generator = SeededGenerator(seed: 42)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for length in 0...300 {
            let slice = Array(data.prefix(length))
            #expect(CRC32C.checksum(slice) == referenceCRC(slice), "length \(length)")
        }
        var incremental = CRC32C()
        data.withUnsafeBytes { raw in
            incremental.update(UnsafeRawBufferPointer(rebasing: raw[0..<13]))
            incremental.update(UnsafeRawBufferPointer(rebasing: raw[13..<200]))
            incremental.update(UnsafeRawBufferPointer(rebasing: raw[200..<300]))
        }
        #expect(incremental.value == referenceCRC(data))
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { CacheFileNames.hex(UInt64($0), digits: 2) }.joined() }

    @Test("SHA-256 matches the FIPS 180-4 test vectors")
    func sha256Vectors() {
        #expect(hex(SHA256Digest.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(SHA256Digest.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(SHA256Digest.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(SHA256Digest.hash([UInt8](repeating: 0x61, count: 1_000)))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test(
        "SHA-256 pads at the block boundaries: the length fits after 55 bytes, not after 56 or 63",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
            (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        ])
    func sha256BlockBoundaries(length: Int, expected: String) {
        #expect(hex(SHA256Digest.hash([UInt8](repeating: 0x61, count: length))) == expected)
    }
}
