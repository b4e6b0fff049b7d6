/// An IPv4 or IPv6 address with a prefix length: `10.0.0.0/8`, `2001:db8::/32`, or one address.
///
/// Parsed by hand (dotted quads; hexadecimal groups with `::` and an optional dotted-quad tail)
/// so that it behaves the same on every platform. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`)
/// is treated as its IPv4 address.
struct IPRange: Sendable, Equatable, CustomStringConvertible {
    /// The address bytes: 4 for IPv4, 16 for IPv6.
    let bytes: [UInt8]
    /// How many leading bits must match.
    let prefixLength: Int
    /// The text it was parsed from.
    let description: String

    /// Parses `address` or `address/prefix`; nil when it is neither.
    init?(_ text: String) {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = IPRange.address(String(parts[0])) else { return nil }
        var prefixLength = bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), parts[1].allSatisfy(\.isASCIIDigit), (0...bytes.count * 8).contains(length)
            else { return nil }
            prefixLength = length
        }
        self.bytes = bytes
        self.prefixLength = prefixLength
        self.description = trimmed
    }

    /// Whether `address` (an address without a prefix) lies in this range.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var bitsLeft = prefixLength
        for (mine, theirs) in zip(bytes, address) where bitsLeft > 0 {
            let bits = min(8, bitsLeft)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            bitsLeft -= bits
        }
        return true
    }

    /// The bytes of an IPv4 or IPv6 address written as text (an IPv4-mapped IPv6 address as its 4 IPv4 bytes).
    static func address(_ text: String) -> [UInt8]? {
        let text = text.trimmingSpaces
        if !text.contains(":") { return ipv4(Substring(text)) }
        guard let bytes = ipv6(text) else { return nil }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        return Array(bytes.prefix(12)) == mappedPrefix ? Array(bytes.suffix(4)) : bytes
    }

    /// Four decimal numbers 0 … 255 separated by dots.
    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// Eight groups of 1 … 4 hexadecimal digits; `::` stands for one or more zero groups, and the
    /// last 32 bits may be written as a dotted quad.
    private static func ipv6(_ text: String) -> [UInt8]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        guard let head = groups(halves[0]) else { return nil }
        var bytes = head
        if halves.count == 2 {
            guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
            bytes += Array(repeating: 0, count: 16 - head.count - tail.count) + tail
        }
        return bytes.count == 16 ? bytes : nil
    }

    /// The bytes of colon-separated groups (empty text: none); the last group may be a dotted quad.
    private static func groups(_ text: String) -> [UInt8]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var bytes: [UInt8] = []
        for (index, part) in parts.enumerated() {
            if index == parts.count - 1, part.contains(".") {
                guard let quad = ipv4(part) else { return nil }
                bytes += quad
                continue
            }
            guard (1...4).contains(part.count), let value = UInt16(part, radix: 16) else { return nil }
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        return bytes
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
