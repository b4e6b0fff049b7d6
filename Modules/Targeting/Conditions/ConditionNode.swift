import ConfigDomain
import Foundation

/// A parsed condition: logical nodes over tests of attribute values (see ``Condition``).
indirect enum ConditionNode: Sendable, Equatable {
    /// Every node holds (`$and`, or the members of one condition object).
    case and([ConditionNode])
    /// Some node holds; an empty list holds.
    case or([ConditionNode])
    /// Not `or`: no node holds (so an empty list fails, as `or` of none holds).
    case nor([ConditionNode])
    /// The node does not hold.
    case not(ConditionNode)
    /// The value at a path passes a test.
    case field(path: [String], name: String, test: ValueTest)
    /// Never holds (a lenient condition's unknown or malformed part).
    case never
}

/// What one value must be.
indirect enum ValueTest: Sendable, Equatable {
    /// Its text is this string (optionally ignoring case).
    case text(String, caseInsensitive: Bool)
    /// Its number is this number.
    case number(Double)
    /// It is present and its truthiness is this.
    case truthy(Bool)
    /// It is null or missing.
    case null
    /// It is this array or object, member for member.
    case json(ConfigValue)
    /// It passes every operator.
    case operators([OperatorTest])
}

/// One operator of an operator object, with its operand parsed.
indirect enum OperatorTest: Sendable, Equatable {
    case equal(ConfigValue)
    case notEqual(ConfigValue)
    case order(LooseValue.Relation, ConfigValue)
    case version(VersionRelation, String)
    case exists(Bool)
    case within([ConfigValue], caseInsensitive: Bool, negated: Bool)
    case group(String, negated: Bool)
    case not(ValueTest)
    case size(ValueTest)
    case elementPasses(ValueTest)
    case elementMatches(ConditionNode)
    case all([ValueTest])
    case regex(RegexPattern, negated: Bool)
    case type(String)
    case never
}

/// The version operators' relations.
enum VersionRelation: Sendable, Equatable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

    /// Whether the relation holds for an ordering (-1, 0, 1).
    func holds(for order: Int) -> Bool {
        switch self {
        case .equal: order == 0
        case .notEqual: order != 0
        case .less: order < 0
        case .lessOrEqual: order <= 0
        case .greater: order > 0
        case .greaterOrEqual: order >= 0
        }
    }
}

/// A compiled regular expression, compared by its source.
struct RegexPattern: Sendable, Equatable {
    let source: String
    let caseInsensitive: Bool
    let expression: NSRegularExpression

    /// Compiles `source`, or nil when it is not a valid pattern.
    init?(_ source: String, caseInsensitive: Bool) {
        guard let expression = try? NSRegularExpression(pattern: source, options: caseInsensitive ? [.caseInsensitive] : [])
        else { return nil }
        self.source = source
        self.caseInsensitive = caseInsensitive
        self.expression = expression
    }

    /// Whether the pattern matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func == (lhs: RegexPattern, rhs: RegexPattern) -> Bool {
        lhs.source == rhs.source && lhs.caseInsensitive == rhs.caseInsensitive
    }
}
