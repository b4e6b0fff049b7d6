import ConfigDomain
import Foundation

/// LaunchDarkly's clause operators, each comparing one context value with one clause value, as its
/// Python SDK's `operators` module does.
enum LDOperators {
    /// Whether `value` (the context's) meets `op` with `expected` (the clause's), `prepared` being the clause
    /// value read for the operator when the payload was decoded.
    static func test(_ op: LDOperator, _ value: ConfigValue, _ expected: ConfigValue, _ prepared: LDPreparedValue?) -> Bool {
        switch op {
        case .in:
            // A Boolean never equals a number here, though Python's `True == 1`.
            if isBool(value) != isBool(expected) { return false }
            return PythonEquality.equal(value, expected)
        case .startsWith:
            guard case .string(let text) = value, case .string(let part) = expected else { return false }
            return text.startsExactly(with: part)
        case .endsWith:
            guard case .string(let text) = value, case .string(let part) = expected else { return false }
            return text.endsExactly(with: part)
        case .contains:
            guard case .string(let text) = value, case .string(let part) = expected else { return false }
            return text.containsExactly(part)
        case .matches:
            guard case .regex(let regex?)? = prepared, case .string(let text) = value else { return false }
            return regex.search(text)
        case .lessThan: return numbers(value, expected) { $0 < $1 }
        case .lessThanOrEqual: return numbers(value, expected) { $0 <= $1 }
        case .greaterThan: return numbers(value, expected) { $0 > $1 }
        case .greaterThanOrEqual: return numbers(value, expected) { $0 >= $1 }
        case .before: return times(value, prepared) { $0 < $1 }
        case .after: return times(value, prepared) { $0 > $1 }
        case .semVerEqual: return versions(value, prepared) { $0 == 0 }
        case .semVerLessThan: return versions(value, prepared) { $0 < 0 }
        case .semVerGreaterThan: return versions(value, prepared) { $0 > 0 }
        case .segmentMatch, .unknown: return false
        }
    }

    private static func isBool(_ value: ConfigValue) -> Bool {
        if case .bool = value { true } else { false }
    }

    /// A number (not a Boolean) as a double, as Python's `float()` makes it.
    static func number(_ value: ConfigValue) -> Double? {
        switch value {
        case .int(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }

    private static func numbers(_ value: ConfigValue, _ expected: ConfigValue, _ compare: (Double, Double) -> Bool) -> Bool {
        guard let a = number(value), let b = number(expected) else { return false }
        return compare(a, b)
    }

    private static func times(_ value: ConfigValue, _ prepared: LDPreparedValue?, _ compare: (Double, Double) -> Bool) -> Bool {
        guard case .time(let moment?)? = prepared, let context = LDTime.milliseconds(value) else { return false }
        return compare(context, moment)
    }

    private static func versions(_ value: ConfigValue, _ prepared: LDPreparedValue?, _ compare: (Int) -> Bool) -> Bool {
        guard case .version(let version?)? = prepared, case .string(let text) = value,
            let context = LDSemanticVersion(text)
        else { return false }
        return compare(context.compare(version))
    }
}
