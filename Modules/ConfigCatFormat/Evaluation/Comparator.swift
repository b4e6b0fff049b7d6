/// The comparators of user conditions, numbered as config JSON v6 numbers them in `c`.
enum Comparator: Int64, Sendable, CaseIterable {
    case isOneOf = 0, isNotOneOf, containsAnyOf, notContainsAnyOf
    case semVerIsOneOf, semVerIsNotOneOf, semVerLess, semVerLessOrEqual, semVerGreater, semVerGreaterOrEqual
    case numberEquals, numberNotEquals, numberLess, numberLessOrEqual, numberGreater, numberGreaterOrEqual
    case sensitiveIsOneOf, sensitiveIsNotOneOf
    case before, after
    case sensitiveEquals, sensitiveNotEquals
    case sensitiveStartsWithAnyOf, sensitiveNotStartsWithAnyOf, sensitiveEndsWithAnyOf, sensitiveNotEndsWithAnyOf
    case sensitiveArrayContainsAnyOf, sensitiveArrayNotContainsAnyOf
    case equals, notEquals
    case startsWithAnyOf, notStartsWithAnyOf, endsWithAnyOf, notEndsWithAnyOf
    case arrayContainsAnyOf, arrayNotContainsAnyOf

    /// The comparison value a comparator reads: `s` (text), `d` (number) or `l` (list of strings).
    enum Operand: Sendable {
        case text, number, list
    }

    /// The comparison value this comparator reads.
    var operand: Operand {
        switch self {
        case .semVerLess, .semVerLessOrEqual, .semVerGreater, .semVerGreaterOrEqual, .sensitiveEquals, .sensitiveNotEquals,
            .equals,
            .notEquals:
            .text
        case .numberEquals, .numberNotEquals, .numberLess, .numberLessOrEqual, .numberGreater, .numberGreaterOrEqual, .before,
            .after:
            .number
        default: .list
        }
    }

    /// Whether this comparator compares salted SHA-256 hashes (a confidential comparison).
    var isSensitive: Bool { (16...17).contains(rawValue) || (20...27).contains(rawValue) }

    /// Whether this is the negated form (NOT …, IS NOT ONE OF, <>).
    var isNegated: Bool {
        switch self {
        case .isNotOneOf, .notContainsAnyOf, .semVerIsNotOneOf, .numberNotEquals, .sensitiveIsNotOneOf, .sensitiveNotEquals,
            .sensitiveNotStartsWithAnyOf, .sensitiveNotEndsWithAnyOf, .sensitiveArrayNotContainsAnyOf, .notEquals,
            .notStartsWithAnyOf,
            .notEndsWithAnyOf, .arrayNotContainsAnyOf:
            true
        default: false
        }
    }
}
