import ConfigDomain
import Foundation

/// JsonLogic's comparisons and string operators, as flagd evaluates them.
extension LogicEvaluator {
    /// `a < b`, or `a < b < c` when a third argument is given and not `null`.
    static func between(_ values: [ConfigValue], _ ordering: LogicValues.Ordering) -> Bool {
        func argument(_ index: Int) -> ConfigValue { index < values.count ? values[index] : .null }
        guard !argument(2).isNull else { return LogicValues.ordered(argument(0), ordering, argument(1)) }
        return LogicValues.ordered(argument(0), ordering, argument(1)) && LogicValues.ordered(argument(1), ordering, argument(2))
    }

    /// Whether `text` contains `part`, code point by code point.
    static func contains(_ text: String, _ part: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        let needle = Array(part.unicodeScalars)
        if needle.isEmpty { return true }
        guard needle.count <= scalars.count else { return false }
        for start in 0...(scalars.count - needle.count) where scalars[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// `substr`: from `start` (from the end when negative) for `length` code points (all but the last
    /// `-length` when negative), as the JsonLogic library flagd-core uses computes it.
    static func substring(_ value: ConfigValue, _ start: ConfigValue, length: ConfigValue) throws(LogicFailure) -> String
    {
        let scalars = Array(LogicValues.toText(value).unicodeScalars)
        let count = scalars.count
        let startNumber = LogicValues.number(start).double
        var lower: Int
        if startNumber.isNaN {
            lower = 0
        } else if startNumber < 0 {
            let back = -startNumber
            lower = back >= Double(count) ? 0 : count - Int(back)
        } else {
            guard startNumber.isFinite else { throw LogicFailure(message: "\"substr\" cannot start at an infinite index") }
            lower = startNumber >= Double(count) ? count : Int(startNumber)
        }
        var upper: Int
        if length.isNull {
            upper = count
        } else {
            let lengthNumber = LogicValues.number(length).double
            if lengthNumber.isNaN {
                upper = lower
            } else {
                guard lengthNumber.isFinite else { throw LogicFailure(message: "\"substr\" cannot take an infinite length") }
                let whole = lengthNumber.rounded(.towardZero)
                if whole < 0 {
                    let end = Double(count) + whole
                    upper = end < Double(lower) ? lower : Int(end)
                } else {
                    let end = Double(lower) + whole
                    upper = end >= Double(count) ? count : Int(end)
                }
            }
        }
        lower = Swift.min(lower, count)
        upper = Swift.min(Swift.max(upper, lower), count)
        return String(String.UnicodeScalarView(scalars[lower..<upper]))
    }
}
