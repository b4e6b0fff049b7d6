import Foundation

/// The operators of the condition language (GrowthBook's MongoDB-style conditions).
///
/// Field operators compare the attribute at a path: `{"age": {"$gte": 18}}`. Logical operators
/// combine conditions: `{"$or": [{"country": "DE"}, {"beta": true}]}`.
public enum ConditionOperator: String, Sendable, Hashable, CaseIterable {
    /// Equal (the same JSON value; numbers compare by value).
    case eq = "$eq"
    /// Not equal.
    case ne = "$ne"
    /// Greater than.
    case gt = "$gt"
    /// Greater than or equal.
    case gte = "$gte"
    /// Less than.
    case lt = "$lt"
    /// Less than or equal.
    case lte = "$lte"
    /// The attribute (or one of its elements) is in the list.
    case `in` = "$in"
    /// The attribute (and none of its elements) is in the list.
    case nin = "$nin"
    /// `$in` comparing strings without regard to case.
    case ini = "$ini"
    /// `$nin` comparing strings without regard to case.
    case nini = "$nini"
    /// The attribute is a string matching the regular expression.
    case regex = "$regex"
    /// `$regex` without regard to case.
    case regexi = "$regexi"
    /// The attribute does not match the regular expression.
    case notRegex = "$notRegex"
    /// `$notRegex` without regard to case.
    case notRegexi = "$notRegexi"
    /// The attribute is present (true) or absent (false).
    case exists = "$exists"
    /// The attribute's JSON type: `string`, `number`, `boolean`, `array`, `object`, `null`.
    case type = "$type"
    /// The attribute is an array whose size matches the value or condition.
    case size = "$size"
    /// The attribute is an array with an element matching the condition.
    case elemMatch = "$elemMatch"
    /// The attribute is an array holding every listed value.
    case all = "$all"
    /// `$all` comparing strings without regard to case.
    case alli = "$alli"
    /// Negates a field condition.
    case not = "$not"
    /// Version equal (`1.2.3`, `v1.2.3-beta.1`).
    case veq = "$veq"
    /// Version not equal.
    case vne = "$vne"
    /// Version greater than.
    case vgt = "$vgt"
    /// Version greater than or equal.
    case vgte = "$vgte"
    /// Version less than.
    case vlt = "$vlt"
    /// Version less than or equal.
    case vlte = "$vlte"
    /// The attribute is in the saved group with this id.
    case inGroup = "$inGroup"
    /// The attribute is not in the saved group with this id.
    case notInGroup = "$notInGroup"
    /// All of the listed conditions hold.
    case and = "$and"
    /// Any of the listed conditions holds.
    case or = "$or"
    /// None of the listed conditions holds.
    case nor = "$nor"

    /// Every operator's spelling (`$eq`, `$ne`, …), which a ``RuleProblem`` offers for an unknown one.
    public static let names = allCases.map(\.rawValue)
}
