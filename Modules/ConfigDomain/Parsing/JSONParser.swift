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
/// `"e\u0301"` are the same key, so an object holding both is refused as a duplicate.
///
/// Offsets: a malformed number is reported at its first byte, a bad escape at its backslash,
/// invalid UTF-8 at the first byte of the sequence, a duplicate key at the second key's quote.
///
/// The parser itself does not recurse, so its own stack use does not grow with ``maxDepth``.
/// Comparing, rendering and releasing a ``ConfigValue`` do recurse, though: raise the limit
/// only as far as your payloads need (hundreds, not hundreds of thousands).
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
        var text = text
        let result = text.withUTF8 { utf8 in parse(buffer: UnsafeRawBufferPointer(utf8)) }
        return try result.get()
    }

    /// Parses one JSON value from raw bytes.
    public func parse(buffer raw: UnsafeRawBufferPointer) -> Result<ConfigValue, JSONParseError> {
        var reader = Reader(bytes: raw.assumingMemoryBound(to: UInt8.self), maxDepth: maxDepth)
        do throws(JSONParseError) {
            reader.skipWhitespace()
            guard reader.index < reader.count else {
                throw JSONParseError(offset: reader.index, reason: .emptyInput)
            }
            let value = try reader.parseDocument()
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

/// The parser's state: the input, a cursor, and the stack of open arrays and objects.
///
/// Open containers keep their contents on two flat stacks, so a container is allocated once,
/// at its final size, when it closes (and objects check for duplicate keys then).
///
/// The outermost object, a configuration's thousand keys, is the exception: a quick scan counts
/// its members first, and they go straight into a dictionary of that size. On the stack they
/// would be written twice, and at launch every page of new memory costs 3–5 µs here (the stack
/// of 1,000 members is 12 pages).
private struct Reader {
    /// An open array or object: its kind and where its contents start on their stack.
    struct Frame {
        let isObject: Bool
        let start: Int
    }

    /// A member of an open object: its key, the offset of the key's quote, and its value.
    struct Member {
        var key: String
        let offset: Int
        var value: ConfigValue
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let raw: UnsafeRawBufferPointer
    let count: Int
    let maxDepth: Int
    var index = 0
    /// Bytes of a string being unescaped.
    var scratch: [UInt8] = []
    /// The open containers, outermost first; its count is the current depth.
    var frames: [Frame] = []
    /// The elements of every open array, outermost first.
    var elements: [ConfigValue] = []
    /// The members of every open object, outermost first; the last one's value may be pending.
    var members: [Member] = []
    /// Open containers outside ``frames`` (the outermost object, while its members are parsed),
    /// counted in the depth limit.
    var outerDepth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.raw = UnsafeRawBufferPointer(bytes)
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

    /// Parses the document's value, at `index`.
    mutating func parseDocument() throws(JSONParseError) -> ConfigValue {
        guard index < count, bytes[index] == UInt8(ascii: "{"), maxDepth > 0,
            let capacity = outermostMemberCount(from: index + 1)
        else { return try parseValue() }
        index += 1
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        return .object(try parseOutermostMembers(capacity: capacity))
    }

    /// The members of the outermost object, whose `{` was read (`index` is at its first key), into
    /// a dictionary made at its final size; leaves `index` after the object's `}`.
    ///
    /// Errors are those of the member stack, at the same offsets: a repeated key is reported when
    /// the object closes, so a later syntax error comes first, as it would there.
    mutating func parseOutermostMembers(capacity: Int) throws(JSONParseError) -> [String: ConfigValue] {
        // Returned, never destroyed on success: destroying a dictionary of this type goes through
        // its metadata, whose first use costs a run-time conformance scan (see `NormalisedNameTable` in RemoteConfig).
        var object = [String: ConfigValue](minimumCapacity: capacity)
        var repeated: (key: String, offset: Int)?
        outerDepth = 1
        while true {
            let (key, keyOffset) = try readKey()
            let value = try parseValue()
            if object.updateValue(value, forKey: key) != nil, repeated == nil { repeated = (key, keyOffset) }
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw unexpected() }
            index += 1
            outerDepth = 0
            if let repeated { throw fail(.duplicateKey(repeated.key), at: repeated.offset) }
            return object
        }
    }

    /// Parses the value at `index` and everything nested in it, with an explicit stack instead of recursion.
    mutating func parseValue() throws(JSONParseError) -> ConfigValue {
        var value: ConfigValue
        while true {
            // 1. Read the start of a value: a scalar, or an empty or newly opened container.
            skipWhitespace()
            guard index < count else { throw fail(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                if frames.count + outerDepth >= maxDepth { throw fail(.tooDeep(limit: maxDepth)) }
                index += 1
                skipWhitespace()
                if index < count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    value = .object([:])
                } else {
                    frames.append(Frame(isObject: true, start: members.count))
                    try readKeyAndColon()
                    continue
                }
            case UInt8(ascii: "["):
                if frames.count + outerDepth >= maxDepth { throw fail(.tooDeep(limit: maxDepth)) }
                index += 1
                skipWhitespace()
                if index < count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    value = .array([])
                } else {
                    frames.append(Frame(isObject: false, start: elements.count))
                    continue
                }
            case UInt8(ascii: "\""): value = .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
            default: throw unexpected()
            }

            // 2. A value is complete: add it to the innermost open container, closing containers as they end.
            while let frame = frames.last {
                skipWhitespace()
                if frame.isObject {
                    members[members.count - 1].value = value
                    guard index < count else { throw fail(.unexpectedEnd) }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        try readKeyAndColon()
                        break
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw unexpected() }
                    index += 1
                    frames.removeLast()
                    value = .object(try closeObject(from: frame.start))
                } else {
                    elements.append(value)
                    guard index < count else { throw fail(.unexpectedEnd) }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        break
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw unexpected() }
                    index += 1
                    frames.removeLast()
                    value = .array(Array(elements[frame.start...]))
                    elements.removeSubrange(frame.start...)
                }
            }
            if frames.isEmpty { return value }
        }
    }

    /// Builds the object whose members start at `start` on the member stack, refusing a repeated key.
    mutating func closeObject(from start: Int) throws(JSONParseError) -> [String: ConfigValue] {
        let count = members.count - start
        var object = [String: ConfigValue](minimumCapacity: count)
        for index in start..<members.count {
            // Moved out, not copied (no retain now and release below): what is left behind is free to release.
            var key = ""
            var value = ConfigValue.null
            swap(&key, &members[index].key)
            swap(&value, &members[index].value)
            if object.updateValue(value, forKey: key) != nil {
                throw fail(.duplicateKey(key), at: members[index].offset)
            }
        }
        // One at a time: for an object's few members, cheaper than the generic removeLast(_:).
        for _ in 0..<count { members.removeLast() }
        return object
    }

    /// How many members the object whose members start at `start` (just past its `{`) has,
    /// counted by a quick scan of the bytes that notes only strings, nesting and commas: a
    /// capacity for its dictionary, exact for a well-formed object (the parse that follows
    /// reports anything else).
    ///
    /// Nil when the members are large (past the first kilobyte, more than 64 bytes each on
    /// average), as in a Firebase template, whose few top-level members hold everything: there
    /// the scan would cost more than writing the members twice, so it stops and the object goes
    /// through the member stack like any other.
    func outermostMemberCount(from start: Int) -> Int? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var position = start
        var depth = 0
        var commas = 0
        while position < count {
            // Most bytes here are none of the kinds below: four tests each. The budget is checked
            // at each string, comma and opening bracket, which every large member has often enough.
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: ",") || byte | 0x20 == UInt8(ascii: "{") {
                let scanned = position &- start
                if scanned > 1_024, scanned > 64 &* (commas &+ 1) { return nil }
                if byte == UInt8(ascii: ",") {
                    if depth == 0 { commas += 1 }
                } else if byte != UInt8(ascii: "\"") {
                    depth += 1  // `{` or `[`
                } else {
                    position += 1
                    // Eight bytes at a time to the closing quote or a backslash, then byte by byte.
                    while position &+ 8 <= count {
                        let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                        let quote = word ^ (ones &* 0x22)
                        let backslash = word ^ (ones &* 0x5C)
                        if (((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highBits != 0 { break }
                        position &+= 8
                    }
                    while position < count, bytes[position] != UInt8(ascii: "\"") {
                        position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                    }
                }
            } else if byte | 0x20 == UInt8(ascii: "}") {  // `}` or `]`
                if depth == 0 { return commas + 1 }
                depth -= 1
            }
            position += 1
        }
        return commas + 1
    }

    /// Reads `"key" :` inside an object and pushes the member, its value pending.
    mutating func readKeyAndColon() throws(JSONParseError) {
        if members.capacity == 0 {
            // Made by the first nested object's first member, not before: the outermost object's
            // members go straight into their dictionary, so a flat payload never needs this stack.
            // A member takes at least 5 bytes (`"":0,`) and usually 15–30: room for one per 12
            // bytes left means a large nested object (a Firebase template's parameters) fills the
            // stack without regrowing it (each regrowth copies every member so far and touches new
            // pages). Reserved pages that are never written cost nothing.
            members.reserveCapacity(min((count - index) / 12 + 1, 1 << 16))
        }
        let (key, keyOffset) = try readKey()
        members.append(Member(key: key, offset: keyOffset, value: .null))
    }

    /// Reads `"key" :` inside an object; returns the key and the offset of its opening quote.
    mutating func readKey() throws(JSONParseError) -> (key: String, offset: Int) {
        skipWhitespace()
        guard index < count else { throw fail(.unexpectedEnd) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
        let keyOffset = index
        let key = try parseString()
        skipWhitespace()
        guard index < count else { throw fail(.unexpectedEnd) }
        guard bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
        index += 1
        return (key, keyOffset)
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

    /// Parses a string starting at the opening quote; leaves `index` after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes. Plain ASCII is skipped eight bytes at a time.
        while true {
            skipPlainASCII()
            guard index < count else { throw fail(.unexpectedEnd) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail(.controlCharacterInString) }
            try validateUTF8Sequence()  // byte >= 0x80: plain ASCII was skipped
        }
        // Slow path: copy what we have, then decode escapes.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            let runStart = index
            skipPlainASCII()
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            guard index < count else { throw fail(.unexpectedEnd) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape()
                continue
            }
            if byte < 0x20 { throw fail(.controlCharacterInString) }
            let sequenceStart = index
            try validateUTF8Sequence()
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[sequenceStart..<index]))
        }
    }

    /// Advances over bytes that need no attention inside a string: ASCII from 0x20 up, except `"` and `\`.
    @inline(__always)
    mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index &+ 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Each term has a high bit set in a byte that is a quote, a backslash, below 0x20,
            // or 0x80 and above (the classic "has zero byte" and "has byte less than" tricks).
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word
            if special & highBits != 0 { break }
            index &+= 8
        }
        while index < count {
            let byte = bytes[index]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { return }
            index &+= 1
        }
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
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard index < count else { throw fail(.unexpectedEnd) }
                guard bytes[index] == UInt8(ascii: "\\") else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
                guard index + 1 < count else { throw fail(.unexpectedEnd, at: index + 1) }
                guard bytes[index + 1] == UInt8(ascii: "u") else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
                let secondStart = index
                index += 2
                let second = try parseHex4(escapeStart: secondStart)
                guard (0xDC00...0xDFFF).contains(second) else { throw fail(.invalidUnicodeEscape, at: escapeStart) }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw fail(.invalidUnicodeEscape, at: escapeStart)
            }
            appendUTF8(scalarValue)
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

    /// Reads the four hex digits of a `\u` escape that started at `escapeStart`.
    mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < count else { throw fail(.unexpectedEnd) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
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

    /// Parses a number: `.int` when written without fraction or exponent, `.double` otherwise.
    mutating func parseNumber() throws(JSONParseError) -> ConfigValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
            guard index < count else { throw fail(.unexpectedEnd) }
        }
        guard isDigit(bytes[index]) else { throw fail(.invalidNumber, at: start) }
        // The digits, integer and fraction, as one integer while they fit in 64 bits.
        var significand: UInt64 = 0
        var significandOverflowed = false
        @inline(__always) func accumulate(_ byte: UInt8) {
            let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
            if o1 || o2 { significandOverflowed = true } else { significand = sum }
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, isDigit(bytes[index]) { throw fail(.invalidNumber, at: start) }
        } else {
            while index < count, isDigit(bytes[index]) {
                if !significandOverflowed { accumulate(bytes[index]) }
                index += 1
            }
        }
        var isInteger = true
        var fractionDigits = 0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count, isDigit(bytes[index]) else { throw fail(.invalidNumber, at: start) }
            while index < count, isDigit(bytes[index]) {
                if !significandOverflowed {
                    accumulate(bytes[index])
                    fractionDigits += 1
                }
                index += 1
            }
        }
        var exponent = 0
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count, isDigit(bytes[index]) else { throw fail(.invalidNumber, at: start) }
            while index < count, isDigit(bytes[index]) {
                // Saturate: beyond this the slow path decides between zero and out of range.
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if isInteger {
            let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
            guard !significandOverflowed, significand <= limit else {
                throw fail(.numberOutOfRange(text(start)), at: start)
            }
            return .int(negative ? Int64(bitPattern: 0 &- significand) : Int64(significand))
        }
        // Fast path (Clinger): a significand and a power of ten that are both exact doubles give
        // a correctly rounded result with one multiplication or division.
        let scale = exponent - fractionDigits
        if !significandOverflowed, significand <= 1 << 53, scale >= -22, scale <= 22 {
            let magnitude =
                scale < 0 ? Double(significand) / Self.powersOfTen[-scale] : Double(significand) * Self.powersOfTen[scale]
            return .double(negative ? -magnitude : magnitude)
        }
        let written = text(start)
        guard let double = Double(written), double.isFinite else {
            throw fail(.numberOutOfRange(written), at: start)
        }
        return .double(double)
    }

    /// The input from `start` to the cursor, as text.
    func text(_ start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// 1e0 … 1e22, every one exact as a double.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
