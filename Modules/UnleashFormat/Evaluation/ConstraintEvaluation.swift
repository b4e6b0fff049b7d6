import ConfigDomain
import Foundation
import Targeting

extension UnleashConstraint {
    /// What a constraint gave for one context.
    enum Outcome: Equatable {
        /// It holds or not (after inversion).
        case value(Bool)
        /// The field has a type the operator cannot compare: the strategy is skipped and this is reported.
        case wrongType(expected: String, found: ConfigValue.Kind)
    }

    /// Evaluates the constraint, reading its field through `reader`; `now` stands in for a missing `currentTime`.
    ///
    /// As in Unleash's engine, a missing field, or a string that does not convert to the operator's
    /// type, makes the operator false (so `NOT_IN` true, and an inverted constraint true). Strings
    /// convert as the engine converts them: not trimmed, numbers as Rust writes them.
    func evaluate(_ reader: inout ContextReader, now: Date) -> Outcome {
        let result: Bool
        switch operand {
        case .members(let members):
            // IN and NOT_IN; a missing field is in no list. Unleash's engine ignores caseInsensitive here.
            switch reader.field(contextName) {
            case .missing: result = op == .notIn
            case .text(let text): result = members.contains(text) == (op == .in)
            case .unusable(let kind): return .wrongType(expected: "a string", found: kind)
            }
        case .texts(let values):
            switch reader.field(contextName) {
            case .missing: result = false
            case .text(let text): result = compareTexts(text, values)
            case .unusable(let kind): return .wrongType(expected: "a string", found: kind)
            }
        case .number(let target):
            let number: Double?
            switch reader.value(contextName) {
            case nil: number = nil
            case .int(let value)?: number = Double(value)
            case .double(let value)?: number = value
            case .string(let text)?: number = DecimalNumber.parse(text)
            case let other?: return .wrongType(expected: "a number", found: other.kind)
            }
            // NUM_EQ holds within Double.ulpOfOne, as in Unleash's engine.
            result = number.map { op == .numberEqual ? abs($0 - target) < Double.ulpOfOne : compare($0, target) } ?? false
        case .date(let target):
            let date: Date?
            switch reader.value(contextName) {
            case nil: date = contextName == "currentTime" ? now : nil
            case .string(let text)?: date = UnleashDate.parse(text)
            case let other?: return .wrongType(expected: "an ISO 8601 date-time string", found: other.kind)
            }
            result = date.map { op == .dateAfter ? $0 > target : $0 < target } ?? false
        case .version(let target):
            let version: SemanticVersion?
            switch reader.value(contextName) {
            case nil: version = nil
            case .string(let text)?: version = SemanticVersion(text)
            case let other?: return .wrongType(expected: "a version string", found: other.kind)
            }
            result = version.map { compare($0, target) } ?? false
        case .pattern(let pattern):
            switch reader.field(contextName) {
            case .missing: result = false
            case .text(let text): result = RegexPattern.matches(text, pattern: pattern, caseInsensitive: caseInsensitive)
            case .unusable(let kind): return .wrongType(expected: "a string", found: kind)
            }
        case .ranges(let ranges):
            switch reader.field(contextName) {
            case .missing: result = false
            case .text(let text):
                result = IPRange.address(text).map { address in ranges.contains { $0.contains(address) } } ?? false
            case .unusable(let kind): return .wrongType(expected: "an IP address string", found: kind)
            }
        case .unmatchable:
            result = false
        }
        return .value(inverted ? !result : result)
    }

    /// The `STR_` operators, on UTF-8 bytes; with `caseInsensitive` the field is lower-cased (the
    /// values already are, by the parser).
    private func compareTexts(_ text: String, _ values: [String]) -> Bool {
        let field = caseInsensitive ? UnleashText.lowercased(text) : text
        switch op {
        case .stringStartsWith: return values.contains { UnleashText.hasPrefix(field, $0) }
        case .stringEndsWith: return values.contains { UnleashText.hasSuffix(field, $0) }
        case .stringContains: return values.contains { UnleashText.contains(field, $0) }
        default: return false
        }
    }

    /// The `NUM_` and `SEMVER_` comparisons of `value` (the context's) with `target` (the constraint's).
    private func compare<T: Comparable>(_ value: T, _ target: T) -> Bool {
        switch op {
        case .numberEqual, .semverEqual: value == target
        case .numberGreater, .semverGreater: value > target
        case .numberGreaterOrEqual, .semverGreaterOrEqual: value >= target
        case .numberLess, .semverLess: value < target
        case .numberLessOrEqual, .semverLessOrEqual: value <= target
        default: false
        }
    }
}
