import ConfigDomain
import Foundation

/// How flagd's in-process evaluator (flagd-core, on the JsonLogic library its Python provider uses)
/// converts, compares and prints the values a rule computes with: truthiness, numbers from text,
/// text from numbers, loose and strict equality, and ordering.
///
/// Every rule is written out here once, so that the operators read as JsonLogic's documentation
/// reads. Strings compare and index by Unicode scalars (code points), never by Swift's grapheme
/// clusters or canonical equivalence: `"e\u{301}"` is two code points and differs from `"é"`.
enum LogicValues {
    // MARK: Truthiness

    /// JsonLogic's truthiness: `null`, `false`, `0`, NaN, `""` and `[]` are false; an object, even `{}`, is true.
    static func isTruthy(_ value: ConfigValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let flag): flag
        case .int(let number): number != 0
        case .double(let number): !number.isNaN && number != 0
        case .string(let text): !text.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object: true
        }
    }

    // MARK: Numbers

    /// A number as arithmetic sees it: an integer or a double (a Boolean counts as 0 or 1).
    enum Number {
        case int(Int64)
        case double(Double)

        /// The number as a double.
        var double: Double {
            switch self {
            case .int(let number): Double(number)
            case .double(let number): number
            }
        }

        /// The number as a ``ConfigValue`` (`.int` or `.double`).
        var value: ConfigValue {
            switch self {
            case .int(let number): .int(number)
            case .double(let number): .double(number)
            }
        }

        /// Whether this is NaN.
        var isNaN: Bool { if case .double(let number) = self { number.isNaN } else { false } }
    }

    /// Whether `value` is a number to the comparisons: an integer, a double or a Boolean.
    static func isNumeric(_ value: ConfigValue) -> Bool {
        switch value {
        case .bool, .int, .double: true
        default: false
        }
    }

    /// `value` as a number: numbers and Booleans as they are, `null` and `[]` as 0, a one-element
    /// array as its element's number, text as Python's `float` reads it, anything else NaN.
    /// Booleans stay Booleans (`min` and `max` return them so); ``number(_:)`` reads them as 0 or 1.
    static func toNumber(_ value: ConfigValue) -> ConfigValue {
        switch value {
        case .bool, .int, .double: return value
        case .null: return .int(0)
        case .array(let elements):
            if elements.isEmpty { return .int(0) }
            return elements.count == 1 ? toNumber(elements[0]) : .double(.nan)
        case .object: return .double(.nan)
        case .string(let text): return .double(parseFloat(text) ?? .nan)
        }
    }

    /// A value ``toNumber(_:)`` returned, for arithmetic: a Boolean as the integer 0 or 1.
    static func number(_ value: ConfigValue) -> Number {
        switch toNumber(value) {
        case .bool(let flag): .int(flag ? 1 : 0)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        default: .double(.nan)
        }
    }

    /// Text as Python's `float()` reads it, or nil: white space around, a sign, digits with single
    /// underscores between them, a fraction, an exponent, `inf`, `infinity` and `nan` in any letter
    /// case, and decimal digits of any script. `inf`, `+inf` and `-inf` alone read as NaN, as the
    /// JsonLogic library has it (JavaScript would not read them).
    static func parseFloat(_ text: String) -> Double? {
        // Digits of any script become ASCII digits and any white space a space, as Python does first.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                bytes.append(UInt8(scalar.value))
            } else if scalar.properties.numericType == .decimal, let digit = scalar.properties.numericValue {
                bytes.append(48 + UInt8(digit))
            } else if scalar.properties.isWhitespace {
                bytes.append(32)
            } else {
                return nil
            }
        }
        // Python's white space: space, tab, line feed, vertical tab, form feed, carriage return, and 0x1C to 0x1F.
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) || (28...31).contains(byte) }
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        let lowered = String(decoding: bytes[lower..<upper], as: UTF8.self).lowercased()
        if lowered == "inf" || lowered == "+inf" || lowered == "-inf" { return .nan }
        var body = Substring(lowered)
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        if body == "infinity" { return negative ? -.infinity : .infinity }
        if body == "nan" { return .nan }
        guard let digits = decimalLiteral(body), let magnitude = Double(digits) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// A decimal literal's text without its underscores, or nil when it is not one:
    /// `digits [. [digits]] [e [sign] digits]` or `. digits [e …]`, with single underscores only between digits.
    private static func decimalLiteral(_ text: Substring) -> String? {
        var result = ""
        var index = text.startIndex
        func digitRun() -> Bool {
            var sawDigit = false
            var lastWasUnderscore = false
            while index < text.endIndex {
                let character = text[index]
                if character.isASCII, character.isNumber {
                    result.append(character)
                    sawDigit = true
                    lastWasUnderscore = false
                } else if character == "_" {
                    guard sawDigit, !lastWasUnderscore else { return false }
                    lastWasUnderscore = true
                } else {
                    break
                }
                index = text.index(after: index)
            }
            return sawDigit && !lastWasUnderscore
        }
        let startsWithDigit = index < text.endIndex && text[index].isASCII && text[index].isNumber
        if startsWithDigit {
            guard digitRun() else { return nil }
            if index < text.endIndex, text[index] == "." {
                result.append(".")
                index = text.index(after: index)
                if index < text.endIndex, text[index].isASCII, text[index].isNumber {
                    guard digitRun() else { return nil }
                }
            }
        } else {
            guard index < text.endIndex, text[index] == "." else { return nil }
            result.append("0.")
            index = text.index(after: index)
            guard digitRun() else { return nil }
        }
        if index < text.endIndex, text[index] == "e" {
            result.append("e")
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "+" || text[index] == "-" {
                result.append(text[index])
                index = text.index(after: index)
            }
            guard digitRun() else { return nil }
        }
        return index == text.endIndex ? result : nil
    }

    // MARK: Text

    /// `value` as text, as the JsonLogic library's `to_string` makes it: a double with 15 significant
    /// digits (`%.15g`: `0.1 + 0.2` is `0.3`), an integer in decimal, a Boolean as Python prints it
    /// (`True`, `False`), `null` as `null`, an array as its elements' texts joined by commas, an
    /// object as `[object Object]`.
    static func toText(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): text
        case .double(let number): significant15(number)
        case .int(let number): String(number)
        case .bool(let flag): flag ? "True" : "False"
        case .null: "null"
        case .array(let elements): elements.map(toText).joined(separator: ",")
        case .object: "[object Object]"
        }
    }

    /// `%.15g`, with Python's `nan`, `inf` and `-inf`.
    static func significant15(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        return String(format: "%.15g", number)
    }

    /// A double as Python's `str` prints it: the shortest text that reads back as the same double
    /// (`2.0`, `0.1`, `1e+16`, `1.5e-05`), `nan`, `inf` or `-inf`.
    static func shortest(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        // Swift prints the shortest round-trip digits with Python's choice of notation.
        return number.description
    }

    /// The name `value` selects among a flag's variants, as flagd-core makes it: a string as it is,
    /// a Boolean as `true` or `false`, a number as Python prints it (`2`, `2.5`, `2.0`); nil for an
    /// array or object (flagd-core would look up its Python text, such as `['a']`, which no variant is named).
    static func variantName(_ value: ConfigValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): shortest(number)
        case .null, .array, .object: nil
        }
    }

    /// `value` as Python's `str` prints a scalar (for the version operator): nil for `null`, an array or an object.
    static func pythonText(_ value: ConfigValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "True" : "False"
        case .int(let number): String(number)
        case .double(let number): shortest(number)
        case .null, .array, .object: nil
        }
    }

    // MARK: Equality

    /// Python's `==` on JSON values: numbers and Booleans by value (`1 == 1.0 == true`), strings by
    /// code points, arrays and objects member by member.
    static func strictEquals(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.string(let x), .string(let y)): return sameText(x, y)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { strictEquals($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && x.allSatisfy { name, value in member(y, name).map { strictEquals(value, $0) } ?? false }
        default:
            guard isNumeric(a), isNumeric(b) else { return false }
            return compare(number(a), number(b)) == .orderedSame
        }
    }

    /// JsonLogic's `==` as the library flagd-core uses has it: values of one type compare as Python's
    /// `==` (two arrays, or two objects, are equal only when they are the same value in memory, which
    /// this port never sees: false); a number with anything else compares with that thing's number
    /// (`0 == null` and `1 == "1"` are true, `0 == ""` is false); `null` with a non-number is false;
    /// a string with an array or object compares with its text.
    static func looseEquals(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
        if a.kind == b.kind {
            switch a {
            case .array, .object: return false
            default: return strictEquals(a, b)
            }
        }
        if isNumeric(a) || isNumeric(b) { return compare(number(a), number(b)) == .orderedSame }
        switch (a, b) {
        case (.null, _), (_, .null): return false
        case (.string(let text), .array), (.string(let text), .object): return sameText(text, toText(b))
        case (.array, .string(let text)), (.object, .string(let text)): return sameText(toText(a), text)
        default: return false
        }
    }

    /// Whether two strings have the same code points.
    static func sameText(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    /// The member of `object` named exactly `name` (code point by code point; Swift's dictionary
    /// alone would also find a canonically equivalent name).
    static func member(_ object: [String: ConfigValue], _ name: String) -> ConfigValue? {
        guard let index = object.index(forKey: name) else { return nil }
        let entry = object[index]
        return sameText(entry.key, name) ? entry.value : nil
    }

    // MARK: Ordering

    /// How two numbers compare; nil when either is NaN.
    static func compare(_ a: Number, _ b: Number) -> ComparisonResult? {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        default:
            let x = a.double
            let y = b.double
            if x.isNaN || y.isNaN { return nil }
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        }
    }

    /// How two strings compare by their code points.
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        if sameText(a, b) { return .orderedSame }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? .orderedAscending : .orderedDescending
    }

    /// An ordering operator: `<`, `<=`, `>` or `>=`.
    enum Ordering {
        case less, lessOrEqual, greater, greaterOrEqual

        /// Whether `result` satisfies this operator (false for an unordered NaN).
        func holds(_ result: ComparisonResult?) -> Bool {
            guard let result else { return false }
            switch self {
            case .less: return result == .orderedAscending
            case .lessOrEqual: return result != .orderedDescending
            case .greater: return result == .orderedDescending
            case .greaterOrEqual: return result != .orderedAscending
            }
        }
    }

    /// `a <op> b` as JsonLogic's library orders mixed values: numbers when either side is one (the
    /// other converted), else text when either side is a string (the other as its text), else numbers.
    static func ordered(_ a: ConfigValue, _ ordering: Ordering, _ b: ConfigValue) -> Bool {
        if isNumeric(a) || isNumeric(b) { return ordering.holds(compare(number(a), number(b))) }
        if case .string(let x) = a { return ordering.holds(compare(x, toText(b))) }
        if case .string(let y) = b { return ordering.holds(compare(toText(a), y)) }
        return ordering.holds(compare(number(a), number(b)))
    }
}
