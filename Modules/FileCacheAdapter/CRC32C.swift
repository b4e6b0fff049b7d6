/// CRC-32C (Castagnoli), the checksum of every cache file's header and payload.
///
/// Parameters: reflected polynomial `0x82F63B78`, initial value `0xFFFFFFFF`, final XOR
/// `0xFFFFFFFF` (the iSCSI / ext4 / SSE4.2 `crc32` variant). The check value of the nine ASCII
/// bytes `123456789` is `0xE3069283`. Computed eight bytes at a time with eight 256-entry tables
/// ("slicing by 8"); the tables are built once, on first use.
struct CRC32C: Sendable {
    /// The running register, already inverted (the value before the final XOR).
    private var register: UInt32 = 0xFFFF_FFFF

    /// Starts an empty checksum.
    init() {}

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// The checksum of everything passed to ``update(_:)`` so far.
    var value: UInt32 { register ^ 0xFFFF_FFFF }

    /// Feeds more bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let tables = CRC32CTables.shared.words
        var crc = register
        var index = 0
        let count = bytes.count
        tables.withUnsafeBufferPointer { t in
            // Eight bytes per round: the low four are folded into the register, the high four
            // are looked up directly, each in the table that shifts it by its distance to the end.
            while count - index >= 8 {
                let b0 = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                let b1 = UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
                let low = crc ^ (b0 | b1)
                crc =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(bytes[index + 4])] ^ t[2 * 256 + Int(bytes[index + 5])]
                    ^ t[1 * 256 + Int(bytes[index + 6])] ^ t[Int(bytes[index + 7])]
                index += 8
            }
            while index < count {
                crc = t[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
        }
        register = crc
    }
}

/// The eight lookup tables of ``CRC32C``, flattened (table `k` holds the effect of a byte
/// followed by `k` zero bytes).
private final class CRC32CTables: Sendable {
    /// Built on first use; `static let` initialisation is thread-safe.
    static let shared = CRC32CTables()

    /// `words[k * 256 + b]`.
    let words: [UInt32]

    private init() {
        var words = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
            }
            words[byte] = crc
        }
        for byte in 0..<256 {
            var crc = words[byte]
            for table in 1..<8 {
                crc = words[Int(crc & 0xFF)] ^ (crc >> 8)
                words[table * 256 + byte] = crc
            }
        }
        self.words = words
    }
}
