import ConfigDomain
import Foundation

/// Why a rule could not be evaluated for a context: flagd answers `ERROR` with `GENERAL`.
struct LogicFailure: Error, Sendable {
    /// What went wrong, in words.
    var message: String
}

/// Evaluates ``Logic`` for one context as flagd's in-process evaluator does (flagd-core on the
/// JsonLogic library its Python provider uses), and remembers what a decision explains: the
/// context attributes read and where `fractional` placed the context.
struct LogicEvaluator {
    /// The flag being evaluated.
    let flagKey: String
    /// How `fractional` hashes.
    let hashing: FlagdFormat.FractionalHashing
    /// The top-level context paths `var` read, without repeats, in order.
    private(set) var attributesRead: [String] = []
    /// The last `fractional` that chose a bucket: what it returned and where the context landed.
    private(set) var lastSplit: FractionalSplit?

    init(flagKey: String, hashing: FlagdFormat.FractionalHashing) {
        self.flagKey = flagKey
        self.hashing = hashing
    }

    /// The value of `logic` over `data` (the context object at the top, an element inside `map` and the like).
    mutating func evaluate(_ logic: Logic, data: ConfigValue, atTop: Bool = true) throws(LogicFailure) -> ConfigValue {
        switch logic {
        case .literal(let value):
            return value
        case .array(let elements):
            var values: [ConfigValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try evaluate(element, data: data, atTop: atTop)) }
            return .array(values)
        case .operation(let operation, let arguments):
            return try apply(operation, arguments, data: data, atTop: atTop)
        }
    }

    // MARK: Operators

    private mutating func apply(
        _ operation: LogicOperator, _ arguments: [Logic], data: ConfigValue, atTop: Bool
    ) throws(LogicFailure) -> ConfigValue {
        switch operation {
        case .if, .ternary:
            // Pairs of condition and value, then an optional value for when no condition holds.
            var index = 0
            while index < arguments.count - 1 {
                if LogicValues.isTruthy(try evaluate(arguments[index], data: data, atTop: atTop)) {
                    return try evaluate(arguments[index + 1], data: data, atTop: atTop)
                }
                index += 2
            }
            return index < arguments.count ? try evaluate(arguments[index], data: data, atTop: atTop) : .null
        case .and:
            var current = ConfigValue.null
            for argument in arguments {
                current = try evaluate(argument, data: data, atTop: atTop)
                if !LogicValues.isTruthy(current) { return current }
            }
            return current
        case .or:
            var current = ConfigValue.null
            for argument in arguments {
                current = try evaluate(argument, data: data, atTop: atTop)
                if LogicValues.isTruthy(current) { return current }
            }
            return current
        case .filter:
            guard arguments.count >= 2, case .array(let items) = try evaluate(arguments[0], data: data, atTop: atTop) else {
                return .array([])
            }
            var kept: [ConfigValue] = []
            for item in items where LogicValues.isTruthy(try evaluate(arguments[1], data: item, atTop: false)) {
                kept.append(item)
            }
            return .array(kept)
        case .map:
            guard let first = arguments.first, case .array(let items) = try evaluate(first, data: data, atTop: atTop) else {
                return .array([])
            }
            var mapped: [ConfigValue] = []
            for item in items {
                mapped.append(arguments.count > 1 ? try evaluate(arguments[1], data: item, atTop: false) : .null)
            }
            return .array(mapped)
        case .reduce:
            guard let first = arguments.first else { return .null }
            let items = try evaluate(first, data: data, atTop: atTop)
            // The initial value as written (read as a literal), never evaluated.
            var accumulator: ConfigValue =
                if arguments.count > 2, case .literal(let initial) = arguments[2] { initial } else { .null }
            guard case .array(let elements) = items else { return accumulator }
            for element in elements {
                let scope = ConfigValue.object(["accumulator": accumulator, "current": element])
                accumulator = arguments.count > 1 ? try evaluate(arguments[1], data: scope, atTop: false) : .null
            }
            return accumulator
        case .all:
            guard arguments.count >= 2, case .array(let items) = try evaluate(arguments[0], data: data, atTop: atTop),
                !items.isEmpty
            else { return .bool(false) }
            for item in items where !LogicValues.isTruthy(try evaluate(arguments[1], data: item, atTop: false)) {
                return .bool(false)
            }
            return .bool(true)
        case .some, .none:
            let found: Bool
            if arguments.count >= 2, case .array(let items) = try evaluate(arguments[0], data: data, atTop: atTop) {
                var any = false
                for item in items where LogicValues.isTruthy(try evaluate(arguments[1], data: item, atTop: false)) {
                    any = true
                    break
                }
                found = any
            } else {
                found = false
            }
            return .bool(operation == .some ? found : !found)
        default:
            var values: [ConfigValue] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments { values.append(try evaluate(argument, data: data, atTop: atTop)) }
            return try compute(operation, values, data: data, atTop: atTop)
        }
    }

    /// An operator whose arguments are all evaluated first.
    private mutating func compute(
        _ operation: LogicOperator, _ values: [ConfigValue], data: ConfigValue, atTop: Bool
    ) throws(LogicFailure) -> ConfigValue {
        func argument(_ index: Int) -> ConfigValue { index < values.count ? values[index] : .null }
        switch operation {
        case .var:
            guard values.count <= 2 else {
                throw LogicFailure(message: "\"var\" takes a path and a default, not \(values.count) arguments")
            }
            if atTop, case .string(let path) = argument(0), !path.isEmpty, !attributesRead.contains(path) {
                attributesRead.append(path)
            }
            return try Self.variable(data, argument(0), default: argument(1))
        case .missing:
            let keys = values.first?.arrayValue ?? values
            return .array(try Self.missing(keys, in: data))
        case .missingSome:
            guard case .array(let keys) = argument(1) else { return .array([]) }
            let missing = try Self.missing(keys, in: data)
            let found = LogicValues.Number.int(Int64(keys.count - missing.count))
            let needed = LogicValues.number(argument(0))
            return LogicValues.Ordering.greaterOrEqual.holds(LogicValues.compare(found, needed)) ? .array([]) : .array(missing)
        case .looseEqual: return .bool(LogicValues.looseEquals(argument(0), argument(1)))
        case .looseNotEqual: return .bool(!LogicValues.looseEquals(argument(0), argument(1)))
        case .strictEqual: return .bool(LogicValues.strictEquals(argument(0), argument(1)))
        case .strictNotEqual: return .bool(!LogicValues.strictEquals(argument(0), argument(1)))
        case .less: return .bool(Self.between(values, .less))
        case .lessOrEqual: return .bool(Self.between(values, .lessOrEqual))
        case .greater: return .bool(Self.between(values, .greater))
        case .greaterOrEqual: return .bool(Self.between(values, .greaterOrEqual))
        case .not: return .bool(!LogicValues.isTruthy(argument(0)))
        case .truthy: return .bool(LogicValues.isTruthy(argument(0)))
        case .plus: return values.reduce(LogicValues.Number.int(0)) { Arithmetic.add($0, LogicValues.number($1)) }.value
        case .times: return values.reduce(LogicValues.Number.int(1)) { Arithmetic.multiply($0, LogicValues.number($1)) }.value
        case .minus:
            if argument(1).isNull { return Arithmetic.negate(LogicValues.number(argument(0))).value }
            return Arithmetic.subtract(LogicValues.number(argument(0)), LogicValues.number(argument(1))).value
        case .divide: return try Arithmetic.divide(LogicValues.number(argument(0)), LogicValues.number(argument(1))).value
        case .remainder: return try Arithmetic.remainder(LogicValues.number(argument(0)), LogicValues.number(argument(1))).value
        case .min, .max:
            // The first of the smallest (largest) numbers, as it was: a Boolean stays a Boolean.
            guard var best = values.first.map(LogicValues.toNumber) else { return .double(.nan) }
            let wanted: LogicValues.Ordering = operation == .min ? .less : .greater
            for value in values.dropFirst() {
                let number = LogicValues.toNumber(value)
                if wanted.holds(LogicValues.compare(LogicValues.number(number), LogicValues.number(best))) { best = number }
            }
            return best
        case .in:
            switch argument(1) {
            case .array(let haystack): return .bool(haystack.contains { LogicValues.strictEquals(argument(0), $0) })
            case .string(let haystack): return .bool(Self.contains(haystack, LogicValues.toText(argument(0))))
            default: return .bool(false)
            }
        case .cat:
            return .string(values.map(LogicValues.toText).joined())
        case .substr:
            return .string(try Self.substring(argument(0), argument(1), length: argument(2)))
        case .merge:
            var merged: [ConfigValue] = []
            for value in values {
                if case .array(let elements) = value { merged.append(contentsOf: elements) } else { merged.append(value) }
            }
            return .array(merged)
        case .startsWith, .endsWith:
            guard values.count == 2, case .string(let text) = values[0], case .string(let affix) = values[1] else { return .null }
            let scalars = Array(text.unicodeScalars)
            let part = Array(affix.unicodeScalars)
            return .bool(operation == .startsWith ? scalars.starts(with: part) : scalars.reversed().starts(with: part.reversed()))
        case .semVer:
            return FlagdSemVer.compare(values)
        case .fractional:
            let split = try Fractional(hashing: hashing).evaluate(values, data: data)
            if let split { lastSplit = split }
            return split?.variant ?? .null
        case .if, .ternary, .and, .or, .filter, .map, .reduce, .all, .some, .none:
            // Evaluated lazily in `apply`; never reached.
            return .null
        }
    }

    // MARK: Data

    /// `var`: the value at `key` in `data` (a dot path, or an index into an array or string), else `fallback`.
    static func variable(_ data: ConfigValue, _ key: ConfigValue, default fallback: ConfigValue) throws(LogicFailure)
        -> ConfigValue
    {
        if key.isNull || key == .string("") { return data }
        if LogicValues.isNumeric(key) {
            // A number indexes an array or a string; an object's members are never numbers.
            let count: Int
            switch data {
            case .array(let elements): count = elements.count
            case .string(let text): count = text.unicodeScalars.count
            default: return fallback
            }
            guard let index = try integerIndex(key), index >= 0, index < count else { return fallback }
            return element(of: data, at: index) ?? fallback
        }
        var current = data
        for step in LogicValues.toText(key).split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .array, .string:
                if step == "length" {
                    if case .array(let elements) = current { return .int(Int64(elements.count)) }
                    if case .string(let text) = current { return .int(Int64(text.unicodeScalars.count)) }
                }
                guard isCanonicalIndex(step), let index = Int(step), let next = element(of: current, at: index) else {
                    return fallback
                }
                current = next
            case .object(let members):
                current = LogicValues.member(members, String(step)) ?? .null
            default:
                return fallback
            }
        }
        return current.isNull ? fallback : current
    }

    /// The index a number key names, as Python's `int()` makes it: nil when it is not whole; a failure when it is infinite.
    private static func integerIndex(_ key: ConfigValue) throws(LogicFailure) -> Int? {
        switch key {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let number): return Int(exactly: number)
        case .double(let number):
            if number.isNaN { return nil }
            guard number.isFinite else { throw LogicFailure(message: "\"var\" cannot index by an infinite number") }
            guard number == number.rounded(.towardZero) else { return nil }
            return Int(exactly: number) ?? -1
        default: return nil
        }
    }

    /// `0`, or digits without a leading zero: the only steps that index an array.
    private static func isCanonicalIndex(_ step: Substring) -> Bool {
        guard let first = step.first, step.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return first != "0" || step.count == 1
    }

    /// The element at `index` of an array, or the code point there of a string as a one-character string.
    private static func element(of value: ConfigValue, at index: Int) -> ConfigValue? {
        switch value {
        case .array(let elements): return index < elements.count ? elements[index] : nil
        case .string(let text):
            let scalars = text.unicodeScalars
            guard index < scalars.count else { return nil }
            return .string(String(scalars[scalars.index(scalars.startIndex, offsetBy: index)]))
        default: return nil
        }
    }

    /// The keys among `keys` whose value in `data` is missing, `null` or `""`.
    private static func missing(_ keys: [ConfigValue], in data: ConfigValue) throws(LogicFailure) -> [ConfigValue] {
        var missing: [ConfigValue] = []
        for key in keys {
            let value = try variable(data, key, default: .null)
            if value.isNull || value == .string("") { missing.append(key) }
        }
        return missing
    }
}

/// Python's arithmetic on JsonLogic's numbers: integers stay integers (`+`, `-`, `*`, `%`), `/` always
/// gives a double, `%` takes the sign of the divisor, and dividing by zero fails.
enum Arithmetic {
    typealias Number = LogicValues.Number

    static func add(_ a: Number, _ b: Number) -> Number {
        if case .int(let x) = a, case .int(let y) = b {
            let (sum, overflow) = x.addingReportingOverflow(y)
            if !overflow { return .int(sum) }
        }
        return .double(a.double + b.double)
    }

    static func subtract(_ a: Number, _ b: Number) -> Number {
        if case .int(let x) = a, case .int(let y) = b {
            let (difference, overflow) = x.subtractingReportingOverflow(y)
            if !overflow { return .int(difference) }
        }
        return .double(a.double - b.double)
    }

    static func multiply(_ a: Number, _ b: Number) -> Number {
        if case .int(let x) = a, case .int(let y) = b {
            let (product, overflow) = x.multipliedReportingOverflow(by: y)
            if !overflow { return .int(product) }
        }
        return .double(a.double * b.double)
    }

    static func negate(_ a: Number) -> Number {
        if case .int(let x) = a, x != .min { return .int(-x) }
        return .double(-a.double)
    }

    static func divide(_ a: Number, _ b: Number) throws(LogicFailure) -> Number {
        guard b.double != 0 else { throw LogicFailure(message: "division by zero") }
        return .double(a.double / b.double)
    }

    static func remainder(_ a: Number, _ b: Number) throws(LogicFailure) -> Number {
        guard b.double != 0 else { throw LogicFailure(message: "modulo by zero") }
        if case .int(let x) = a, case .int(let y) = b {
            guard !(x == .min && y == -1) else { return .int(0) }
            let rest = x % y
            return .int(rest != 0 && (rest < 0) != (y < 0) ? rest + y : rest)
        }
        let x = a.double
        let y = b.double
        var rest = fmod(x, y)
        if rest != 0 {
            if (y < 0) != (rest < 0) { rest += y }
        } else {
            rest = copysign(0, y)
        }
        return .double(rest)
    }
}
