import ConfigDomain
import Foundation

/// JavaScript's loose comparisons over ``ConfigValue``s, which GrowthBook's conditions are defined by.
///
/// A missing attribute is `nil` here and behaves as JavaScript's `null`. These rules explain the
/// surprises: `{"n": {"$gt": 5}}` matches `"8"` (the string converts to a number), and a missing
/// attribute compares as 0 (`{"age": {"$lt": 10}}` matches a context without `age`).
enum LooseValue {
    /// `String(value)`: numbers as JavaScript writes them, arrays joined with commas, objects as `[object Object]`.
    static func text(of value: ConfigValue?) -> String {
        switch value {
        case nil, .null?: "null"
        case .bool(let flag)?: flag ? "true" : "false"
        case .int(let number)?: integerText(number)
        case .double(let number)?: numberText(number)
        case .string(let text)?: text
        case .array(let elements)?:
            elements.map { element in element.isNull ? "" : text(of: element) }.joined(separator: ",")
        case .object?: "[object Object]"
        }
    }

    /// An integer as JavaScript prints it: JavaScript has doubles only, so beyond 2^53 it is the nearest double's text.
    static func integerText(_ number: Int64) -> String {
        number.magnitude <= 1 << 53 ? String(number) : numberText(Double(number))
    }

    /// A double as JavaScript's `String(number)` prints it (ECMAScript's Number::toString): the
    /// shortest digits that read back as the number, in plain notation from 1e-7 to below 1e21
    /// (`0.000001`, `10000000000000000`) and in exponent notation beyond (`2.5e-7`, `1e+21`).
    static func numberText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        if number == 0 { return "0" }
        if number < 0 { return "-" + numberText(-number) }
        if number == number.rounded(), number < 9_007_199_254_740_992 { return String(Int64(number)) }
        // Swift's description has the same shortest digits: "1.5e-07", "0.0001", "1e+16", "123.25".
        let description = String(number)
        let parts = description.split(separator: "e", maxSplits: 1)
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = String(mantissa[0])
        let fraction = mantissa.count > 1 ? String(mantissa[1]) : ""
        let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        // number = 0.d1 d2 ... dk × 10^n, with the digits d without leading or trailing zeros.
        let padded = String((whole + fraction).drop { $0 == "0" })
        let digits = String(padded.reversed().drop { $0 == "0" }.reversed())
        let k = digits.count
        let n = exponent - fraction.count + padded.count
        if k <= n, n <= 21 { return digits + String(repeating: "0", count: n - k) }
        if 0 < n, n <= 21 { return String(digits.prefix(n)) + "." + String(digits.dropFirst(n)) }
        if -6 < n, n <= 0 { return "0." + String(repeating: "0", count: -n) + digits }
        let rest = digits.dropFirst()
        let sign = n > 0 ? "+" : "-"
        return String(digits.prefix(1)) + (rest.isEmpty ? "" : "." + rest) + "e" + sign + String(abs(n - 1))
    }

    /// `Number(value)`: null and false are 0, true is 1, a blank string is 0, text that is not a number is NaN.
    static func number(of value: ConfigValue?) -> Double {
        switch value {
        case nil, .null?: 0
        case .bool(let flag)?: flag ? 1 : 0
        case .int(let number)?: Double(number)
        case .double(let number)?: number
        case .string(let text)?: number(ofText: text)
        case .array?: number(ofText: text(of: value))
        case .object?: .nan
        }
    }

    /// The white space `Number(text)` trims in JavaScript: Unicode's, less U+0085, and U+FEFF.
    private static let numberSpace = CharacterSet.whitespacesAndNewlines.subtracting(CharacterSet(charactersIn: "\u{85}"))
        .union(CharacterSet(charactersIn: "\u{FEFF}"))

    private static func number(ofText text: String) -> Double {
        let trimmed = text.trimmingCharacters(in: numberSpace)
        if trimmed.isEmpty { return 0 }
        for (prefixes, radix) in [(["0x", "0X"], 16), (["0o", "0O"], 8), (["0b", "0B"], 2)]
        where prefixes.contains(where: trimmed.hasPrefix) {
            // Not `.map(Double.init)`: that picks `Double(bitPattern:)`.
            return UInt64(trimmed.dropFirst(2), radix: radix).map { Double($0) } ?? .nan
        }
        if trimmed == "Infinity" || trimmed == "+Infinity" { return .infinity }
        if trimmed == "-Infinity" { return -.infinity }
        let allowed = trimmed.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46 || byte == 101 || byte == 69
        }
        guard allowed, let number = Double(trimmed) else { return .nan }
        return number
    }

    /// `!!value`: false for null, false, 0 and the empty string; true otherwise.
    static func isTruthy(_ value: ConfigValue?) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let flag)?: flag
        case .int(let number)?: number != 0
        case .double(let number)?: number != 0 && !number.isNaN
        case .string(let text)?: !text.isEmpty
        case .array?, .object?: true
        }
    }

    /// `a === b`: the same primitive (numbers by value, as doubles); arrays and objects are never identical.
    static func strictlyEqual(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a, b) {
        case (nil, nil), (nil, .null?), (.null?, nil), (.null?, .null?): true
        case (.bool(let x)?, .bool(let y)?): x == y
        case (.string(let x)?, .string(let y)?): sameText(x, y)
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double): number(of: a) == number(of: b)
        default: false
        }
    }

    /// `a === b` for two strings: the same code points. Swift's `==` also equates canonically
    /// equivalent strings (`é` and `e` with a combining accent), which JavaScript does not.
    static func sameText(_ a: String, _ b: String) -> Bool {
        // The same bytes are the same code points: compare the two contiguous UTF-8 buffers.
        guard a.utf8.count == b.utf8.count else { return false }
        var (a, b) = (a, b)
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    /// `JSON.stringify(a) === JSON.stringify(b)`, with numbers by value and object members in any order.
    static func sameJSON(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a ?? .null, b ?? .null) {
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { name, value in y[name].map { sameJSON(value, $0) } ?? false }
        case (let x, let y):
            return strictlyEqual(x, y)
        }
    }

    /// The relation `a op b` for `<`, `<=`, `>`, `>=`: two strings compare by UTF-16 code units,
    /// anything else as numbers (false when either is NaN).
    static func compare(_ a: ConfigValue?, _ relation: Relation, _ b: ConfigValue?) -> Bool {
        let primitiveA = primitive(a)
        let primitiveB = primitive(b)
        if case .string(let x)? = primitiveA, case .string(let y)? = primitiveB {
            let order = codeUnitOrder(x, y)
            return relation.holds(for: order)
        }
        let x = number(of: primitiveA)
        let y = number(of: primitiveB)
        if x.isNaN || y.isNaN { return false }
        return relation.holds(for: x < y ? -1 : (x > y ? 1 : 0))
    }

    /// The orderings `<`, `<=`, `>`, `>=`.
    enum Relation: Sendable, Equatable {
        case less, lessOrEqual, greater, greaterOrEqual

        /// Whether the relation holds for an ordering (-1, 0, 1).
        func holds(for order: Int) -> Bool {
            switch self {
            case .less: order < 0
            case .lessOrEqual: order <= 0
            case .greater: order > 0
            case .greaterOrEqual: order >= 0
            }
        }
    }

    /// Arrays and objects become their string form; primitives stay.
    private static func primitive(_ value: ConfigValue?) -> ConfigValue? {
        switch value {
        case .array?, .object?: .string(text(of: value))
        default: value
        }
    }

    /// -1, 0 or 1 comparing UTF-16 code units, as JavaScript orders strings.
    static func codeUnitOrder(_ x: String, _ y: String) -> Int {
        var left = x.utf16.makeIterator()
        var right = y.utf16.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?) where a != b: return a < b ? -1 : 1
            default: continue
            }
        }
    }

    /// The member `name` of `value` as JavaScript's `name in value` finds it: an object's member,
    /// an array's element by its canonical index (`0`, not `00` or `+0`) or its `length`; nil otherwise.
    static func member(_ name: String, of value: ConfigValue) -> ConfigValue? {
        switch value {
        case .object(let members):
            return members[name]
        case .array(let elements):
            if name == "length" { return .int(Int64(elements.count)) }
            guard let index = Int(name), index >= 0, index < elements.count, String(index) == name else { return nil }
            return elements[index]
        default:
            return nil
        }
    }

    /// `typeof`-like names: `null`, `array`, `string`, `number`, `boolean`, `object`.
    /// Whether two values have the same JavaScript type (``typeName(of:)``), without naming it.
    static func sameType(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a, b) {
        case (nil, nil), (nil, .null?), (.null?, nil), (.null?, .null?), (.array?, .array?), (.string?, .string?),
            (.bool?, .bool?), (.object?, .object?):
            true
        case (.int?, .int?), (.int?, .double?), (.double?, .int?), (.double?, .double?): true
        default: false
        }
    }

    static func typeName(of value: ConfigValue?) -> String {
        switch value {
        case nil, .null?: "null"
        case .array?: "array"
        case .string?: "string"
        case .int?, .double?: "number"
        case .bool?: "boolean"
        case .object?: "object"
        }
    }
}
