import Foundation

/// Bytes that are not the strict JSON ``JSONParser`` accepts: where (byte offset) and why.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the bytes were refused.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// There were no bytes, or only whitespace.
        case emptyInput
        /// The input ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedByte(UInt8)
        /// A byte sequence that is not valid UTF-8.
        case invalidUTF8
        /// An unescaped control character (below U+0020) inside a string.
        case controlCharacterInString
        /// A backslash escape that JSON does not define.
        case invalidEscape
        /// A `\u` escape that is malformed or an unpaired surrogate.
        case invalidUnicodeEscape
        /// A number that breaks JSON's number grammar (leading zeros, a lone minus, `1.`).
        case invalidNumber
        /// A number too large for a 64-bit integer or a finite double.
        case numberOutOfRange(String)
        /// The same key twice in one object.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// Bytes after the top-level value.
        case trailingData
        /// A comma just before the `]` or `}` that closes an array or object (the error's offset is the comma's).
        case trailingComma(closing: Character)

        /// The reason in words.
        public var description: String {
            switch self {
            case .emptyInput: "the input is empty"
            case .unexpectedEnd: "the input ends in the middle of a value"
            case .unexpectedByte(let b):
                if b >= 0x20 && b < 0x7F {
                    "unexpected character '\(Character(Unicode.Scalar(b)))'"
                } else {
                    "unexpected byte 0x\(String(b, radix: 16, uppercase: true))"
                }
            case .invalidUTF8: "the bytes are not valid UTF-8"
            case .controlCharacterInString: "a control character must be escaped inside a string"
            case .invalidEscape: "invalid escape sequence in a string"
            case .invalidUnicodeEscape: "invalid \\u escape or unpaired surrogate"
            case .invalidNumber: "malformed number"
            case .numberOutOfRange(let text): "the number \(text) does not fit in a 64-bit integer or a finite double"
            case .duplicateKey(let key): "duplicate key \"\(key)\" in an object"
            case .tooDeep(let limit): "arrays and objects nest deeper than the limit of \(limit)"
            case .trailingData: "unexpected data after the end of the JSON value"
            case .trailingComma(let closing):
                "a comma before the closing '\(closing)'; JSON allows no trailing comma, so remove it"
            }
        }
    }

    /// The byte offset (from zero) where the problem was found.
    public var offset: Int
    /// Why.
    public var reason: Reason

    /// Creates a parse error.
    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// `invalid JSON at byte 12: duplicate key "a" in an object`.
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
