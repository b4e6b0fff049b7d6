import Foundation
import Targeting

/// One constraint: `<context field> <operator> <operand>`, optionally inverted or case-insensitive.
struct UnleashConstraint: Sendable {
    /// What the operator compares the field with, already parsed.
    enum Operand: Sendable {
        /// Strings, as written: for `IN` and `NOT_IN`.
        case members(ExactTexts)
        /// Strings, as written (lower-cased when `caseInsensitive`): for the `STR_` operators.
        case texts([String])
        /// A number: for the `NUM_` operators.
        case number(Double)
        /// An instant: for `DATE_AFTER` and `DATE_BEFORE`.
        case date(Date)
        /// A version: for the `SEMVER_` operators.
        case version(SemanticVersion)
        /// A regular expression (checked to compile): for `REGEX`.
        case pattern(String)
        /// Addresses and ranges (invalid entries dropped): for `IN_CIDR`.
        case ranges([IPRange])
        /// An operand no field satisfies, as Unleash's engine reads an invalid regular expression: the
        /// operator is false (so true when inverted). The parser warns about it.
        case unmatchable
    }

    /// The context field read.
    let contextName: String
    /// The operator.
    let op: ConstraintOperator
    /// The parsed operand.
    let operand: Operand
    /// Whether the result is negated.
    let inverted: Bool
    /// Whether strings compare without regard to case.
    let caseInsensitive: Bool
    /// Where it is in the payload (for example `features[2].strategies[0].constraints[1]`), or the segment it came from.
    let origin: String

    /// `environment IN ["dev", "prod"]`, for explanations.
    var summary: String {
        var text = (inverted ? "NOT " : "") + contextName + " " + op.rawValue
        switch operand {
        case .members(let members): text += " [" + members.values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case .texts(let values): text += " [" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case .number(let number): text += " \(number)"
        case .date(let date): text += " \(date)"
        case .version(let version): text += " \(version)"
        case .pattern(let pattern): text += " /\(pattern)/"
        case .ranges(let ranges): text += " [" + ranges.map(\.description).joined(separator: ", ") + "]"
        case .unmatchable: text += " (an operand nothing matches)"
        }
        return text
    }
}
