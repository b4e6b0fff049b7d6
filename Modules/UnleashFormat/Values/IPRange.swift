import Targeting

/// An IPv4 or IPv6 address with a prefix length: `10.0.0.0/8`, `2001:db8::/32`, or one address.
///
/// Parsed by hand, so that it behaves the same on every platform, and as Unleash's engine parses
/// (Rust's `IpAddr` and the `ipnetwork` crate): dotted quads without leading zeros; hexadecimal
/// groups with one `::` and an optional dotted-quad tail; a prefix length, or for IPv4 a netmask
/// (`10.0.0.0/255.0.0.0`); no surrounding spaces. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`)
/// is an IPv6 address: it lies in IPv6 ranges such as `::ffff:10.0.0.0/104`, not in `10.0.0.0/8`.
struct IPRange: Sendable, Equatable, CustomStringConvertible {
    /// The address bytes: 4 for IPv4, 16 for IPv6.
    let bytes: [UInt8]
    /// How many leading bits must match.
    let prefixLength: Int
    /// The text it was parsed from.
    let description: String

    /// Parses `address` or `address/prefix`; nil when it is neither.
    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = IPRange.address(String(parts[0])) else { return nil }
        var prefixLength = bytes.count * 8
        if parts.count == 2 {
            guard let length = IPRange.prefixLength(parts[1], of: bytes.count) else { return nil }
            prefixLength = length
        }
        self.bytes = bytes
        self.prefixLength = prefixLength
        self.description = text
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

    /// The bytes of an IPv4 (4) or IPv6 (16) address written as text.
    static func address(_ text: String) -> [UInt8]? {
        text.contains(":") ? ipv6(text) : ipv4(Substring(text))
    }

    /// A prefix length up to the address's bits: a number (`8`, `08`, `+8`), or for IPv4 a netmask.
    private static func prefixLength(_ text: Substring, of byteCount: Int) -> Int? {
        if byteCount == 4, let mask = ipv4(text) {
            let bits = mask.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let length = (~bits).leadingZeroBitCount
            return length == 32 || bits << length == 0 ? length : nil
        }
        let digits = text.first == "+" ? text.dropFirst() : text
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let length = UInt8(digits), Int(length) <= byteCount * 8
        else { return nil }
        return Int(length)
    }

    /// Four decimal numbers 0 … 255 without leading zeros, separated by dots.
    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit), part == "0" || part.first != "0",
                let value = UInt8(part)
            else { return nil }
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
            guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit), let value = UInt16(part, radix: 16) else {
                return nil
            }
            bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        return bytes
    }
}
