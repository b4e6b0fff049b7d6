import Foundation

/// A strict RFC 8259 JSON parser from UTF-8 bytes to ``ConfigValue``.
///
/// Strict means it refuses, with a byte offset and a ``JSONParseError/Reason``:
/// duplicate keys, invalid UTF-8 (overlong forms, encoded surrogates), unpaired `\u` surrogates,
/// unescaped control characters, trailing data, a byte-order mark, nesting deeper than
/// ``maxDepth``, and numbers that fit neither a 64-bit integer nor a finite double.
///
/// Numbers keep their written form: `1` is ``ConfigValue/int(_:)``, `1.0` and `1e0` are
/// ``ConfigValue/double(_:)``. `-0` is the integer `0`; `-0.0` is the double `-0.0`. A double
/// too small to represent (`1e-400`) reads as zero; one too large (`1e400`) is refused.
/// It never goes through `NSNumber`, so `1` never becomes `true`.
///
/// Object keys are Swift strings, which compare by Unicode canonical equivalence: `"\u00e9"` and
/// `"e\u0301"` are the same key, so an object holding both is refused as a duplicate. A repeated
/// key is reported once its object is complete, so a syntax error later in that object comes first.
///
/// Offsets: a malformed number is reported at its first byte, a bad escape at its backslash,
/// invalid UTF-8 at the first byte of the sequence, a duplicate key at the second key's quote,
/// nesting too deep at the bracket that opens one level too many.
///
/// Parsing, comparing, rendering and releasing a ``ConfigValue`` go one level of recursion per
/// level of nesting: raise ``maxDepth`` only as far as your payloads need (hundreds, not
/// hundreds of thousands).
public struct JSONParser: Sendable, Hashable {
    /// The deepest nesting of arrays and objects accepted (a top-level array is depth 1).
    public var maxDepth: Int

    /// Creates a parser; the default depth limit is 64.
    public init(maxDepth: Int = 64) {
        self.maxDepth = maxDepth
    }

    /// Parses one JSON value from `data`.
    public func parse(_ data: Data) throws(JSONParseError) -> ConfigValue {
        try parse(bytes: [UInt8](data))
    }

    /// Parses one JSON value from `text`.
    public func parse(_ text: String) throws(JSONParseError) -> ConfigValue {
        try parse(bytes: Array(text.utf8))
    }

    private func parse(bytes: [UInt8]) throws(JSONParseError) -> ConfigValue {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        reader.skipWhitespace()
        guard reader.index < bytes.count else { throw JSONParseError(offset: reader.index, reason: .emptyInput) }
        let value = try reader.parseValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw JSONParseError(offset: reader.index, reason: .trailingData) }
        return value
    }
}

/// A recursive-descent reader over UTF-8 bytes: one method per JSON construct, each leaving
/// `index` just past what it read.
private struct Reader {
    let bytes: [UInt8]
    let maxDepth: Int
    /// The offset of the next byte to read.
    var index = 0
    /// The members of the objects being read, innermost last, each with its key's offset: an object's
    /// dictionary is made once its members are counted, at its final size.
    var members: [(key: String, value: ConfigValue, offset: Int)] = []

    // MARK: Bytes

    /// The byte at the cursor; the input ending here is an error.
    func peek() throws(JSONParseError) -> UInt8 {
        guard index < bytes.count else { throw error(.unexpectedEnd) }
        return bytes[index]
    }

    /// Whether the byte at the cursor is a decimal digit (false at the end of the input).
    var atDigit: Bool { index < bytes.count && isDigit(bytes[index]) }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func error(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason)
    }

    /// The error for the byte at the cursor, which cannot start or continue anything here.
    func unexpected() -> JSONParseError {
        index < bytes.count ? error(.unexpectedByte(bytes[index])) : error(.unexpectedEnd)
    }

    /// Skips JSON's four white-space bytes: space, tab, line feed and carriage return.
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Reads exactly `literal` (`true`, `false` or `null`).
    mutating func expectLiteral(_ literal: String) throws(JSONParseError) {
        for expected in literal.utf8 {
            guard try peek() == expected else { throw unexpected() }
            index += 1
        }
    }

    // MARK: Values

    /// Parses the value at the cursor, which sits inside `depth` arrays and objects.
    mutating func parseValue(depth: Int) throws(JSONParseError) -> ConfigValue {
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected()
        }
    }

    /// Steps over the bracket that opens a container at `depth`, refusing it beyond `maxDepth`.
    mutating func open(depth: Int) throws(JSONParseError) {
        guard depth <= maxDepth else { throw error(.tooDeep(limit: maxDepth)) }
        index += 1
    }

    /// Steps over the comma at `index`, refusing one that `closing` follows (a trailing comma).
    private mutating func stepOverComma(closing: Character) throws(JSONParseError) {
        let comma = index
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == closing.asciiValue {
            throw error(.trailingComma(closing: closing), at: comma)
        }
    }

    /// Parses `[ value, … ]`.
    mutating func parseArray(depth: Int) throws(JSONParseError) -> ConfigValue {
        try open(depth: depth)
        var items: [ConfigValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                try stepOverComma(closing: "]")
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw unexpected()
            }
        }
    }

    /// Parses `{ "key": value, … }`, refusing a repeated key at its quote.
    mutating func parseObject(depth: Int) throws(JSONParseError) -> ConfigValue {
        try open(depth: depth)
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        let first = members.count
        do throws(JSONParseError) {
            try readMembers(depth: depth)
        } catch {
            // A repeated key read before the error is reported, as it would be in a valid object.
            throw firstRepeat(since: first) ?? error
        }
        var object = [String: ConfigValue](minimumCapacity: members.count - first)
        for member in members[first...] {
            if object.updateValue(member.value, forKey: member.key) != nil {
                throw error(.duplicateKey(member.key), at: member.offset)
            }
        }
        members.removeSubrange(first...)
        return .object(object)
    }

    /// Reads an object's members onto `members`, through its closing brace.
    private mutating func readMembers(depth: Int) throws(JSONParseError) {
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw unexpected() }
            index += 1
            members.append((key, try parseValue(depth: depth), keyOffset))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","):
                try stepOverComma(closing: "}")
            case UInt8(ascii: "}"):
                index += 1
                return
            default: throw unexpected()
            }
        }
    }

    /// The error for the first key repeated among the members from `first` on, if one is.
    private func firstRepeat(since first: Int) -> JSONParseError? {
        var seen = Set<String>()
        for member in members[first...] {
            if seen.contains(member.key) { return error(.duplicateKey(member.key), at: member.offset) }
            seen.insert(member.key)
        }
        return nil
    }

    // MARK: Strings

    /// Parses a string from its opening quote to past its closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var runStart = index
        // The decoded bytes up to the last escape; empty while there has been none, since
        // every escape adds at least one byte.
        var decoded: [UInt8] = []
        while true {
            switch try peek() {
            case UInt8(ascii: "\""):
                let run = bytes[runStart..<index]
                index += 1
                if decoded.isEmpty { return String(decoding: run, as: UTF8.self) }
                decoded.append(contentsOf: run)
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &decoded)
                runStart = index
            case 0x00..<0x20:
                throw error(.controlCharacterInString)
            case 0x80...:
                try skipUTF8Sequence()
            default:
                index += 1
            }
        }
    }

    /// Decodes the escape at the cursor (its backslash) and appends its UTF-8 bytes to `decoded`.
    mutating func parseEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1
        let letter = try peek()
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var value = try parseHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(value) {
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard try peek() == UInt8(ascii: "\\") else { throw error(.invalidUnicodeEscape, at: escapeStart) }
                let lowStart = index
                index += 1
                guard try peek() == UInt8(ascii: "u") else { throw error(.invalidUnicodeEscape, at: escapeStart) }
                index += 1
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw error(.invalidUnicodeEscape, at: escapeStart) }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            }
            // A lone low surrogate is no Unicode scalar.
            guard let scalar = Unicode.Scalar(value) else { throw error(.invalidUnicodeEscape, at: escapeStart) }
            decoded.append(contentsOf: scalar.utf8)
        default:
            throw error(.invalidEscape, at: escapeStart)
        }
    }

    /// Reads the four hex digits of the `\u` escape that starts at `escapeStart`.
    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try peek()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape, at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// Steps over the multi-byte UTF-8 sequence at the cursor, refusing overlong forms, encoded
    /// surrogates, scalars beyond U+10FFFF and truncated sequences.
    mutating func skipUTF8Sequence() throws(JSONParseError) {
        let start = index
        // The sequence's length, and the range its second byte must be in (The Unicode Standard, table 3-7).
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[start] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw error(.invalidUTF8)
        }
        guard start + length <= bytes.count, second.contains(bytes[start + 1]),
            bytes[start + 2..<start + length].allSatisfy({ $0 & 0xC0 == 0x80 })
        else { throw error(.invalidUTF8) }
        index = start + length
    }

    // MARK: Numbers

    /// Parses a number: `.int` when written without fraction or exponent, `.double` otherwise.
    mutating func parseNumber() throws(JSONParseError) -> ConfigValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(try peek()) else { throw error(.invalidNumber, at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if atDigit { throw error(.invalidNumber, at: start) }  // no leading zeros
        } else {
            skipDigits()
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard atDigit else { throw error(.invalidNumber, at: start) }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard atDigit else { throw error(.invalidNumber, at: start) }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            guard let integer = Int64(text) else { throw error(.numberOutOfRange(text), at: start) }
            return .int(integer)
        }
        guard let double = Double(text), double.isFinite else { throw error(.numberOutOfRange(text), at: start) }
        return .double(double)
    }

    mutating func skipDigits() {
        while atDigit { index += 1 }
    }
}
