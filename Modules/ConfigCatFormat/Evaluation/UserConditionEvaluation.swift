import ConfigDomain
import Foundation
import Targeting

extension SettingEvaluator {
    /// A user condition, its confidential comparisons salted with `contextSalt` (the setting's key,
    /// or the segment's name): a match or not, or why it cannot be evaluated (no User Object, the
    /// attribute missing or not of a kind the comparator reads). A comparator or comparison value
    /// the config lacks throws.
    mutating func evaluate(_ condition: UserCondition, contextSalt: String) throws(ConfigModelError) -> ConditionResult {
        guard let user else { return .cannotEvaluate(Self.missingUser) }
        let name = condition.attribute
        note(name)
        guard let value = user.attribute(name), value != .string("") else {
            return .cannotEvaluate("cannot evaluate, the User.\(name) attribute is missing")
        }
        guard let comparator = Comparator(rawValue: condition.comparator) else {
            throw ConfigModelError("Comparison operator is invalid.")
        }
        let negated = comparator.isNegated
        switch comparator {
        case .equals, .notEquals:
            return .of(CodePoints.same(AttributeConversion.text(of: value), try Self.required(condition.text)) != negated)
        case .isOneOf, .isNotOneOf:
            let text = AttributeConversion.text(of: value)
            return .of(try Self.required(condition.list).contains { CodePoints.same(text, $0) } != negated)
        case .containsAnyOf, .notContainsAnyOf:
            let text = AttributeConversion.text(of: value)
            return .of(try Self.required(condition.list).contains { CodePoints.contains(text, $0) } != negated)
        case .startsWithAnyOf, .notStartsWithAnyOf:
            let text = AttributeConversion.text(of: value)
            return .of(try Self.required(condition.list).contains { CodePoints.hasPrefix(text, $0) } != negated)
        case .endsWithAnyOf, .notEndsWithAnyOf:
            let text = AttributeConversion.text(of: value)
            return .of(try Self.required(condition.list).contains { CodePoints.hasSuffix(text, $0) } != negated)
        case .sensitiveEquals, .sensitiveNotEquals:
            let text = AttributeConversion.text(of: value)
            let expected = try Self.required(condition.text)
            let hash = ConfigCatHash.confidential(text.utf8, salt: try salt(), contextSalt: contextSalt)
            return .of(CodePoints.same(hash, expected) != negated)
        case .sensitiveIsOneOf, .sensitiveIsNotOneOf:
            let text = AttributeConversion.text(of: value)
            let list = try Self.required(condition.list)
            let hash = ConfigCatHash.confidential(text.utf8, salt: try salt(), contextSalt: contextSalt)
            return .of(list.contains { CodePoints.same(hash, $0) } != negated)
        case .sensitiveStartsWithAnyOf, .sensitiveNotStartsWithAnyOf, .sensitiveEndsWithAnyOf, .sensitiveNotEndsWithAnyOf:
            let text = AttributeConversion.text(of: value)
            let list = try Self.required(condition.list)
            let fromStart = comparator == .sensitiveStartsWithAnyOf || comparator == .sensitiveNotStartsWithAnyOf
            return .of(try sliceMatches(text, list, fromStart: fromStart, contextSalt: contextSalt) != negated)
        case .arrayContainsAnyOf, .arrayNotContainsAnyOf, .sensitiveArrayContainsAnyOf, .sensitiveArrayNotContainsAnyOf:
            guard let array = AttributeConversion.stringArray(of: value) else {
                return invalid(name, value, expected: "string array", reason: "is not a valid string array")
            }
            let list = try Self.required(condition.list)
            if comparator.isSensitive {
                let salt = try salt()
                let hashes = array.map { ConfigCatHash.confidential($0.utf8, salt: salt, contextSalt: contextSalt) }
                return .of(hashes.contains { hash in list.contains { CodePoints.same(hash, $0) } } != negated)
            }
            return .of(array.contains { item in list.contains { CodePoints.same(item, $0) } } != negated)
        case .semVerIsOneOf, .semVerIsNotOneOf:
            guard let version = AttributeConversion.version(of: value) else {
                return invalid(name, value, expected: "semantic version", reason: "is not a valid semantic version")
            }
            return Self.versionIsOneOf(version, try Self.required(condition.list), negated: negated)
        case .semVerLess, .semVerLessOrEqual, .semVerGreater, .semVerGreaterOrEqual:
            guard let version = AttributeConversion.version(of: value) else {
                return invalid(name, value, expected: "semantic version", reason: "is not a valid semantic version")
            }
            // A comparison value that is not a version matches nothing.
            guard let other = SemanticVersion(JavaScriptText.trimmed(try Self.required(condition.text))) else { return .noMatch }
            switch comparator {
            case .semVerLess: return .of(version < other)
            case .semVerLessOrEqual: return .of(version < other || version == other)
            case .semVerGreater: return .of(other < version)
            default: return .of(other < version || version == other)
            }
        case .numberEquals, .numberNotEquals, .numberLess, .numberLessOrEqual, .numberGreater, .numberGreaterOrEqual:
            guard let number = AttributeConversion.number(of: value) else {
                return invalid(name, value, expected: "number", reason: "is not a valid decimal number")
            }
            let other = try Self.required(condition.number)
            switch comparator {
            case .numberEquals: return .of(number == other)
            case .numberNotEquals: return .of(number != other)
            case .numberLess: return .of(number < other)
            case .numberLessOrEqual: return .of(number <= other)
            case .numberGreater: return .of(number > other)
            default: return .of(number >= other)
            }
        case .before, .after:
            guard let seconds = AttributeConversion.number(of: value) else {
                return invalid(
                    name, value, expected: "Unix time in seconds",
                    reason: "is not a valid Unix timestamp (number of seconds elapsed since Unix epoch)")
            }
            let other = try Self.required(condition.number)
            return .of(comparator == .before ? seconds < other : seconds > other)
        }
    }

    /// IS ONE OF for versions: empty comparison values are ignored; one that is not a version makes the
    /// condition false, negated or not (as ConfigCat's evaluators always have).
    private static func versionIsOneOf(_ version: SemanticVersion, _ list: [String], negated: Bool) -> ConditionResult {
        var found = false
        for item in list where !item.isEmpty {
            guard let other = SemanticVersion(JavaScriptText.trimmed(item)) else { return .noMatch }
            if other == version { found = true }
        }
        return .of(found != negated)
    }

    /// Whether the first (or last) bytes of `text` hash to one of the `N_hash` comparison values, N
    /// the number of UTF-8 bytes hashed.
    private func sliceMatches(_ text: String, _ list: [String], fromStart: Bool, contextSalt: String) throws(ConfigModelError)
        -> Bool
    {
        let bytes = Array(text.utf8)
        let salt = try salt()
        for item in list {
            guard let underscore = item.firstIndex(of: "_"), let length = Self.integer(item[..<underscore]), length >= 0 else {
                throw ConfigModelError("Comparison value is invalid.")
            }
            let hash = item[item.index(after: underscore)...]
            guard !hash.isEmpty else { throw ConfigModelError("Comparison value is invalid.") }
            guard bytes.count >= length else { continue }
            let slice = fromStart ? bytes[..<length] : bytes[(bytes.count - length)...]
            if CodePoints.same(ConfigCatHash.confidential(slice, salt: salt, contextSalt: contextSalt), String(hash)) {
                return true
            }
        }
        return false
    }

    /// An integer written as ASCII digits with an optional sign and white space around it.
    private static func integer(_ text: Substring) -> Int? {
        let trimmed = JavaScriptText.trimmed(String(text))
        let digits = trimmed.first == "+" || trimmed.first == "-" ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(trimmed.first == "+" ? String(digits) : trimmed)
    }

    /// The config's salt, or `Config JSON salt is missing.`
    private func salt() throws(ConfigModelError) -> String {
        guard let salt = config.salt else { throw ConfigModelError("Config JSON salt is missing.") }
        return salt
    }

    /// A comparison value the comparator needs, or `Comparison value is missing.`
    private static func required<Value>(_ value: Value?) throws(ConfigModelError) -> Value {
        guard let value else { throw ConfigModelError("Comparison value is missing.") }
        return value
    }

    /// An attribute the comparator cannot read: the rule is skipped, and the problem reported.
    private mutating func invalid(_ name: String, _ value: ConfigValue, expected: String, reason: String) -> ConditionResult {
        invalidAttribute(name, expected: expected, found: value)
        let text = AttributeConversion.javaScriptString(value)
        return .cannotEvaluate("cannot evaluate, the User.\(name) attribute is invalid ('\(text)' \(reason))")
    }
}
