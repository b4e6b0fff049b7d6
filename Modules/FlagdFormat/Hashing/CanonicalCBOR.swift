import ConfigDomain
import Foundation

/// The deterministic CBOR encoding (RFC 8949, section 4.2.1) of a JSON value, which flagd's
/// `fractional` hashes (flagd's decision "fractional-non-string-rand-units"): the same value gives
/// the same bytes in every provider, whatever its language.
///
/// - A number without a fraction in [-2^63, 2^64 - 1] is an integer (`2.0` is `2`, `-0.0` is `0`),
///   in its shortest head; any other number is the shortest float that holds it exactly (half,
///   single or double precision).
/// - Strings are UTF-8 text (major type 3), arrays major type 4, objects major type 5 with their
///   members sorted by the bytes of their encoded names, `true`/`false`/`null` simple values.
enum CanonicalCBOR {
    /// The encoding of `value`.
    static func encode(_ value: ConfigValue) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    private static func append(_ value: ConfigValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(0xF6)
        case .bool(let flag): bytes.append(flag ? 0xF5 : 0xF4)
        case .int(let number): appendInteger(number, to: &bytes)
        case .double(let number): appendNumber(number, to: &bytes)
        case .string(let text):
            appendHead(major: 3, UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        case .array(let elements):
            appendHead(major: 4, UInt64(elements.count), to: &bytes)
            for element in elements { append(element, to: &bytes) }
        case .object(let members):
            appendHead(major: 5, UInt64(members.count), to: &bytes)
            let sorted = members.map { name, member -> (key: [UInt8], value: ConfigValue) in
                var key: [UInt8] = []
                append(.string(name), to: &key)
                return (key, member)
            }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
            for member in sorted {
                bytes.append(contentsOf: member.key)
                append(member.value, to: &bytes)
            }
        }
    }

    private static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
        if number >= 0 {
            appendHead(major: 0, UInt64(number), to: &bytes)
        } else {
            // Major type 1 holds -1 - n: for n = -1 - number, which never overflows as ~number.
            appendHead(major: 1, UInt64(bitPattern: ~number), to: &bytes)
        }
    }

    private static func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        if number.isFinite, number == number.rounded(.towardZero) {
            if number >= 0, number < 18_446_744_073_709_551_616 {  // 2^64
                appendHead(major: 0, UInt64(number), to: &bytes)
                return
            }
            if number < 0, number >= -9_223_372_036_854_775_808 {  // -2^63
                appendInteger(Int64(number), to: &bytes)
                return
            }
        }
        if number.isNaN {
            bytes.append(contentsOf: [0xF9, 0x7E, 0x00])
        } else if let half = halfBits(number) {
            bytes.append(0xF9)
            bytes.append(contentsOf: [UInt8(half >> 8), UInt8(half & 0xFF)])
        } else if Double(Float(number)) == number {
            bytes.append(0xFA)
            let bits = Float(number).bitPattern
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((bits >> UInt32(shift)) & 0xFF)) }
        } else {
            bytes.append(0xFB)
            let bits = number.bitPattern
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((bits >> UInt64(shift)) & 0xFF)) }
        }
    }

    /// The IEEE half-precision bits of `number` when it holds `number` exactly (infinities included), else nil.
    static func halfBits(_ number: Double) -> UInt16? {
        let sign: UInt16 = number.sign == .minus ? 0x8000 : 0
        let magnitude = abs(number)
        if magnitude.isInfinite { return sign | 0x7C00 }
        if magnitude == 0 { return sign }
        // Subnormal halves are multiples of 2^-24 below 2^-14.
        if magnitude < 0x1p-14 {
            let units = magnitude * 0x1p24
            guard units == units.rounded(.towardZero) else { return nil }
            return sign | UInt16(units)
        }
        let exponent = magnitude.exponent
        guard exponent <= 15 else { return nil }
        let significand = magnitude.significand * 1024  // 1.xxxx × 2^10: 11 bits when exact
        guard significand == significand.rounded(.towardZero) else { return nil }
        let fraction = UInt16(significand) - 1024
        return sign | UInt16(exponent + 15) << 10 | fraction
    }

    /// A head: the major type in the top three bits, then the argument in the shortest form.
    private static func appendHead(major: UInt8, _ argument: UInt64, to bytes: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            bytes.append(type | UInt8(argument))
        case 24...0xFF:
            bytes.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF:
            bytes.append(contentsOf: [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)])
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((argument >> UInt64(shift)) & 0xFF)) }
        default:
            bytes.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((argument >> UInt64(shift)) & 0xFF)) }
        }
    }
}
