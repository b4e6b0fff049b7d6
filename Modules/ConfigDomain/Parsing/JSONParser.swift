import Foundation

/// A strict RFC 8259 JSON parser from UTF-8 bytes to ``ConfigValue``.
///
/// Strict means it refuses, with a byte offset and a ``JSONParseError/Reason``:
/// duplicate keys, invalid UTF-8 (overlong forms, encoded surrogates), unpaired `\u` surrogates,
/// unescaped control characters, trailing data, a byte-order mark, nesting deeper than
/// ``maxDepth``, and numbers that fit neither a 64-bit integer nor a finite double.
///
/// Numbers keep their written form: `1` is ``ConfigValue/int(_:)``, `1.0` and `1e0` are
/// ``ConfigValue/double(_:)``. `-0` is the integer `0`; `-0.0` is the double `-0.0`.
/// It never goes through `NSNumber`, so `1` never becomes `true`.
public struct JSONParser: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted (a top-level array is depth 1).
    public var maxDepth: Int

    /// Creates a parser; the default depth limit is 64.
    public init(maxDepth: Int = 64) {
        self.maxDepth = maxDepth
    }

    /// Parses one JSON value from `data`.
    public func parse(_ data: Data) throws(JSONParseError) -> ConfigValue {
        let result: Result<ConfigValue, JSONParseError> = data.withUnsafeBytes { raw in
            parse(buffer: raw)
        }
        return try result.get()
    }

    /// Parses one JSON value from `text`.
    public func parse(_ text: String) throws(JSONParseError) -> ConfigValue {
        try parse(Data(text.utf8))
    }

    /// Parses one JSON value from raw bytes.
    public func parse(buffer raw: UnsafeRawBufferPointer) -> Result<ConfigValue, JSONParseError> {
        var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
        do throws(JSONParseError) {
            reader.skipWhitespace()
            guard reader.index < reader.count else {
                throw JSONParseError(offset: reader.index, reason: .emptyInput)
            }
            let value = try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            if reader.index < reader.count {
                throw JSONParseError(offset: reader.index, reason: .trailingData)
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let count: Int
    let maxDepth: Int
    var index = 0
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.count = bytes.count
        self.maxDepth = maxDepth
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func fail(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason)
    }

    func unexpected() -> JSONParseError {
        index < count ? fail(.unexpectedByte(bytes[index])) : fail(.unexpectedEnd)
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> ConfigValue {
        guard index < count else { throw fail(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected()
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let length = literal.utf8CodeUnitCount
        let chars = literal.utf8Start
        for offset in 0..<length {
            guard start + offset < count else { throw fail(.unexpectedEnd, at: start + offset) }
            guard bytes[start + offset] == chars[offset] else {
                throw fail(.unexpectedByte(bytes[start + offset]), at: start + offset)
            }
        }
        index = start + length
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> ConfigValue {
        if depth > maxDepth { throw fail(.tooDeep(limit: maxDepth)) }
        index += 1  // {
        var members: [String: ConfigValue] = [:]
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            if members.updateValue(value, forKey: key) != nil {
                throw fail(.duplicateKey(key), at: keyOffset)
            }
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw unexpected()
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> ConfigValue {
        if depth > maxDepth { throw fail(.tooDeep(limit: maxDepth)) }
        index += 1  // [
        var items: [ConfigValue] = []
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw unexpected()
            }
        }
    }

    /// Parses a string starting at the opening quote; leaves `index` after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail(.controlCharacterInString) }
            if byte >= 0x80 {
                try validateUTF8Sequence()
            } else {
                index += 1
            }
        }
        guard index < count else { throw fail(.unexpectedEnd) }
        // Slow path: copy what we have, then decode escapes.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw fail(.controlCharacterInString)
            case 0x80...:
                let seqStart = index
                try validateUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[seqStart..<index]))
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw fail(.unexpectedEnd)
    }

    mutating func parseEscape() throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < count else { throw fail(.unexpectedEnd) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHex4(escapeStart: escapeStart)
            var scalarValue = UInt32(first)
            if (0xD800...0xDBFF).contains(first) {
                guard index + 1 < count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw fail(.invalidUnicodeEscape, at: escapeStart)
                }
                index += 2
                let second = try parseHex4(escapeStart: escapeStart)
                guard (0xDC00...0xDFFF).contains(second) else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw fail(.invalidUnicodeEscape, at: escapeStart)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
            appendUTF8(scalar.value)
        default:
            throw fail(.invalidEscape, at: escapeStart)
        }
    }

    mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | (v >> 6)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | (v >> 12)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        default:
            scratch.append(UInt8(0xF0 | (v >> 18)))
            scratch.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            scratch.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            scratch.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        guard index + 4 <= count else { throw fail(.unexpectedEnd) }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidUnicodeEscape, at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence at `index` (first byte >= 0x80) and advances past it.
    mutating func validateUTF8Sequence() throws(JSONParseError) {
        let start = index
        let lead = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F  // no UTF-8-encoded surrogates
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: throw fail(.invalidUTF8, at: start)
        }
        guard start + length <= count else { throw fail(.invalidUTF8, at: start) }
        let second = bytes[start + 1]
        guard second >= lowerBound && second <= upperBound else { throw fail(.invalidUTF8, at: start) }
        var offset = 2
        while offset < length {
            let continuation = bytes[start + offset]
            guard continuation & 0xC0 == 0x80 else { throw fail(.invalidUTF8, at: start) }
            offset += 1
        }
        index = start + length
    }

    mutating func parseNumber() throws(JSONParseError) -> ConfigValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < count else { throw fail(.unexpectedEnd) }
        }
        guard isDigit(bytes[index]) else { throw fail(.invalidNumber, at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, isDigit(bytes[index]) { throw fail(.invalidNumber, at: start) }
        } else {
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count, isDigit(bytes[index]) else { throw fail(.invalidNumber, at: start) }
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count, isDigit(bytes[index]) else { throw fail(.invalidNumber, at: start) }
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger {
            var negative = false
            var value: Int64 = 0
            var overflow = false
            for byte in slice {
                if byte == UInt8(ascii: "-") { negative = true; continue }
                let digit = Int64(byte - UInt8(ascii: "0"))
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
                if o1 || o2 { overflow = true; break }
                value = next
            }
            if overflow {
                throw fail(.numberOutOfRange(String(decoding: slice, as: UTF8.self)), at: start)
            }
            return .int(value)
        }
        let text = String(decoding: slice, as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw fail(.numberOutOfRange(text), at: start)
        }
        return .double(double)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
