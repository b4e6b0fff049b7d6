import Foundation

/// A rule a key's value must pass; a failing value is rejected alone and falls through to the next layer.
///
/// Rules run once per value at activation; a read runs them only when it evaluates a key for another
/// context (a key whose value a payload's rules target), or when `details` asks.
public struct ValidationRule<Value: Sendable>: Sendable {
    /// The rule's name in messages, for example `range(1...10)`.
    public let name: String
    /// A problem with the rule itself (an invalid pattern), reported as a configuration error at build time.
    public let configurationProblem: String?
    @usableFromInline let check: @Sendable (Value) -> String?

    /// Creates a rule from a check that returns `nil` to accept or the reason to reject.
    public init(name: String, configurationProblem: String? = nil, check: @escaping @Sendable (Value) -> String?) {
        self.name = name
        self.configurationProblem = configurationProblem
        self.check = check
    }

    /// Runs the rule: `nil` when the value passes, otherwise the reason it does not.
    @inlinable
    public func evaluate(_ value: Value) -> String? {
        if let configurationProblem { return "the rule is invalid: \(configurationProblem)" }
        return check(value)
    }

    /// The first of `rules` that refuses `value`, by index, with its reason; nil when all pass.
    @inlinable
    package static func firstFailure(of value: Value, in rules: [ValidationRule]) -> (rule: Int, reason: String)? {
        for (index, rule) in rules.enumerated() {
            if let reason = rule.evaluate(value) { return (index, reason) }
        }
        return nil
    }

    /// A rule from a predicate and the message to give when it fails.
    @inlinable
    public static func custom(
        _ name: String, message: String, _ predicate: @escaping @Sendable (Value) -> Bool
    ) -> ValidationRule {
        ValidationRule(name: name) { predicate($0) ? nil : message }
    }
}

extension ValidationRule where Value: Comparable {
    /// Accepts values inside `range`, bounds included.
    @inlinable
    public static func range(_ range: ClosedRange<Value>) -> ValidationRule {
        ValidationRule(name: "range(\(range.lowerBound)...\(range.upperBound))") { value in
            range.contains(value) ? nil : "\(value) is outside \(range.lowerBound)...\(range.upperBound)"
        }
    }

    /// Accepts values greater than or equal to `minimum`.
    @inlinable
    public static func atLeast(_ minimum: Value) -> ValidationRule {
        ValidationRule(name: "atLeast(\(minimum))") { value in
            value >= minimum ? nil : "\(value) is below the minimum \(minimum)"
        }
    }

    /// Accepts values less than or equal to `maximum`.
    @inlinable
    public static func atMost(_ maximum: Value) -> ValidationRule {
        ValidationRule(name: "atMost(\(maximum))") { value in
            value <= maximum ? nil : "\(value) is above the maximum \(maximum)"
        }
    }
}

extension ValidationRule where Value: Equatable {
    /// Accepts only the listed values.
    @inlinable
    public static func oneOf(_ allowed: [Value]) -> ValidationRule {
        let list = allowed.map { "\($0)" }.joined(separator: ", ")
        return ValidationRule(name: "oneOf(\(list))") { value in
            allowed.contains(value) ? nil : "\(value) is not one of \(list)"
        }
    }
}

extension ValidationRule where Value: Collection {
    /// Accepts non-empty strings, arrays and other collections.
    @inlinable
    public static var nonEmpty: ValidationRule {
        ValidationRule(name: "nonEmpty") { value in value.isEmpty ? "the value is empty" : nil }
    }

    /// Accepts collections whose element count lies in `range` (characters, for strings).
    @inlinable
    public static func count(_ range: ClosedRange<Int>) -> ValidationRule {
        ValidationRule(name: "count(\(range.lowerBound)...\(range.upperBound))") { value in
            let unit = value is String || value is Substring ? "character" : "element"
            return range.contains(value.count)
                ? nil
                : "has \(value.count) \(unit)\(value.count == 1 ? "" : "s"), expected \(range.lowerBound)...\(range.upperBound)"
        }
    }
}

extension ValidationRule where Value == String {
    /// Accepts strings whose length in characters lies in `range`.
    @inlinable
    public static func length(_ range: ClosedRange<Int>) -> ValidationRule {
        ValidationRule(name: "length(\(range.lowerBound)...\(range.upperBound))") { value in
            range.contains(value.count)
                ? nil
                : "is \(value.count) character\(value.count == 1 ? "" : "s") long, expected \(range.lowerBound)...\(range.upperBound)"
        }
    }

    /// Accepts strings that match a regular expression (`NSRegularExpression` syntax) as a whole.
    ///
    /// `abc` does not accept `"abc\n"`. An invalid pattern is a configuration error reported at build time.
    public static func pattern(_ pattern: String) -> ValidationRule {
        let whole = "\\A(?:\(pattern))\\z"
        guard (try? NSRegularExpression(pattern: whole)) != nil else {
            return ValidationRule(
                name: "pattern(\(pattern))", configurationProblem: "'\(pattern)' is not a valid regular expression"
            ) { _ in "invalid pattern" }
        }
        return ValidationRule(name: "pattern(\(pattern))") { value in
            value.range(of: whole, options: .regularExpression) == nil ? "does not match the pattern \(pattern)" : nil
        }
    }
}
