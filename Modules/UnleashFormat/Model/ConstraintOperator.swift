/// The constraint operators of Unleash's client specification.
enum ConstraintOperator: String, Sendable, CaseIterable {
    /// The field's value is one of the values.
    case `in` = "IN"
    /// The field's value is none of the values (true when the field is missing).
    case notIn = "NOT_IN"
    /// The field starts with one of the values.
    case stringStartsWith = "STR_STARTS_WITH"
    /// The field ends with one of the values.
    case stringEndsWith = "STR_ENDS_WITH"
    /// The field contains one of the values.
    case stringContains = "STR_CONTAINS"
    /// The field, as a number, equals the value.
    case numberEqual = "NUM_EQ"
    /// The field, as a number, is greater than the value.
    case numberGreater = "NUM_GT"
    /// The field, as a number, is greater than or equal to the value.
    case numberGreaterOrEqual = "NUM_GTE"
    /// The field, as a number, is less than the value.
    case numberLess = "NUM_LT"
    /// The field, as a number, is less than or equal to the value.
    case numberLessOrEqual = "NUM_LTE"
    /// The field (`currentTime` by default: now) is strictly after the date.
    case dateAfter = "DATE_AFTER"
    /// The field (`currentTime` by default: now) is strictly before the date.
    case dateBefore = "DATE_BEFORE"
    /// The field, as a semantic version, equals the value (build metadata ignored).
    case semverEqual = "SEMVER_EQ"
    /// The field, as a semantic version, is greater than the value.
    case semverGreater = "SEMVER_GT"
    /// The field, as a semantic version, is greater than or equal to the value.
    case semverGreaterOrEqual = "SEMVER_GTE"
    /// The field, as a semantic version, is less than the value.
    case semverLess = "SEMVER_LT"
    /// The field, as a semantic version, is less than or equal to the value.
    case semverLessOrEqual = "SEMVER_LTE"
    /// The field matches the regular expression (RE2 syntax: no look-around, no back-references).
    case regex = "REGEX"
    /// The field is an IP address in one of the IPs or CIDR ranges.
    case inCIDR = "IN_CIDR"

    /// Every operator's spelling (`IN`, `NOT_IN`, …), which a ``RuleProblem`` offers for an unknown one.
    static let names = allCases.map(\.rawValue)
}
