import ConfigDomain
import Foundation

/// What a condition gave: a match, no match, or that it cannot be evaluated for this user (ConfigCat
/// then skips the targeting rule, with the reason in its evaluation log).
enum ConditionResult: Sendable, Equatable {
    case match
    case noMatch
    case cannotEvaluate(String)

    /// `.match` or `.noMatch`.
    static func of(_ matched: Bool) -> ConditionResult { matched ? .match : .noMatch }
}

/// One evaluation of one key for one context, in ConfigCat's order: the targeting rules (the first
/// whose conditions all hold serves its value or its percentage options), then the setting's
/// percentage options, then the setting's value; prerequisite flags are evaluated on the way.
///
/// A failure of the config model (an unknown comparator, a missing prerequisite flag, a circular
/// dependency) throws ``ConfigModelError`` and ends the evaluation, as in ConfigCat's SDKs.
struct SettingEvaluator {
    static let missingUser = "cannot evaluate, User Object is missing"

    let config: ConfigCatConfig
    let user: ConfigCatUser?
    let rootKey: String
    let explaining: Bool
    /// The context attributes read, in order, when explaining.
    private(set) var attributesRead: [String] = []
    /// The first targeting rules of the evaluated key that did not decide, when explaining.
    private(set) var unmatched: [UnmatchedRule] = []
    /// Attributes of the wrong type met while evaluating the key's own rules.
    private(set) var problems: [RuleProblem] = []
    /// The flags whose prerequisite conditions are being evaluated, outermost first.
    private var visited: [String] = []
    /// The targeting rule of the evaluated key being evaluated, for problems.
    private var currentRule: String?

    /// The value chosen and where it came from.
    struct Selection {
        var served: ServedValue
        var rule: Int?
        var option: Int?
        var bucket: BucketPlacement?
    }

    init(config: ConfigCatConfig, context: EvaluationContext, key: String, explaining: Bool) {
        self.config = config
        self.user = ConfigCatUser(context)
        self.rootKey = key
        self.explaining = explaining
    }

    /// Whether the rules being evaluated are the evaluated key's own, not a prerequisite flag's.
    private var atRoot: Bool { visited.isEmpty }

    /// The evaluated key's selection and its value.
    mutating func evaluateRoot(_ setting: Setting) throws(ConfigModelError) -> (Selection, ConfigValue) {
        _ = try setting.served.value.settingType(declared: setting.type)
        let selection = try evaluate(rootKey, setting)
        return (selection, try selection.served.value.unwrap(as: setting.type))
    }

    /// The selection of the setting `key`.
    mutating func evaluate(_ key: String, _ setting: Setting) throws(ConfigModelError) -> Selection {
        for (index, rule) in setting.rules.enumerated() {
            let ruleID = "r[\(index)]"
            if atRoot { currentRule = ruleID }
            switch try conditions(rule.conditions, key: key) {
            case .match: break
            case .noMatch:
                skip(ruleID, .conditionFailed)
                continue
            case .cannotEvaluate(let why):
                skip(ruleID, .other(why))
                continue
            }
            if let served = rule.served {
                guard rule.options == nil else { throw ConfigModelError("Targeting rule THEN part is missing or invalid.") }
                return Selection(served: served, rule: index)
            }
            guard let options = rule.options, !options.isEmpty else {
                throw ConfigModelError("Targeting rule THEN part is missing or invalid.")
            }
            switch try percentage(options, key: key, setting: setting) {
            case .chosen(let option, let bucket):
                return Selection(served: options[option].served, rule: index, option: option, bucket: bucket)
            case .skipped(let why):
                skip(ruleID, why)
            }
        }
        if atRoot { currentRule = nil }
        if !setting.options.isEmpty,
            case .chosen(let option, let bucket) = try percentage(setting.options, key: key, setting: setting)
        {
            return Selection(served: setting.options[option].served, option: option, bucket: bucket)
        }
        return Selection(served: setting.served)
    }

    /// The conditions of a targeting rule of `key`, joined by AND: the first that does not match decides.
    private mutating func conditions(_ conditions: [Condition], key: String) throws(ConfigModelError) -> ConditionResult {
        for condition in conditions {
            let result: ConditionResult
            switch condition {
            case .user(let userCondition): result = try evaluate(userCondition, contextSalt: key)
            case .segment(let index, let comparator): result = try segment(index, comparator: comparator)
            case .prerequisite(let flag, let comparator, let value):
                result = .of(try prerequisite(flag, comparator: comparator, value: value, dependent: key))
            case .invalid: throw ConfigModelError("Condition is missing or invalid.")
            }
            if result != .match { return result }
        }
        return .match
    }

    /// Whether the User Object IS IN (0) or IS NOT IN (1) the segment at `index`.
    private mutating func segment(_ index: Int64, comparator: Int64) throws(ConfigModelError) -> ConditionResult {
        guard user != nil else { return .cannotEvaluate(Self.missingUser) }
        guard let position = Int(exactly: index), config.segments.indices.contains(position),
            let segment = config.segments[position]
        else { throw ConfigModelError("Segment reference is invalid.") }
        guard !segment.name.isEmpty else { throw ConfigModelError("Segment name is missing.") }
        var result = ConditionResult.match
        for condition in segment.conditions where result == .match {
            result = try evaluate(condition, contextSalt: segment.name)
        }
        if case .cannotEvaluate = result { return result }
        switch comparator {
        case 0: return result
        case 1: return .of(result != .match)
        default: throw ConfigModelError("Comparison operator is invalid.")
        }
    }

    /// Whether the flag `key` EQUALS (0) or NOT EQUALS (1) `value`, the flag evaluated for the same user.
    private mutating func prerequisite(
        _ key: String, comparator: Int64, value: ValueFields, dependent: String
    ) throws(ConfigModelError) -> Bool {
        guard let setting = config.settings[key] else {
            if let why = config.unreadable[key] { throw ConfigModelError("Prerequisite flag '\(key)' cannot be read: \(why).") }
            throw ConfigModelError("Prerequisite flag '\(key)' is missing.")
        }
        let type = try setting.served.value.settingType(declared: setting.type)
        guard let expected = Self.comparisonValue(value, for: type, plain: setting.type == nil) else {
            let text = value.anyValue.map(AttributeConversion.javaScriptString) ?? ""
            throw ConfigModelError("Type mismatch between comparison value '\(text)' and prerequisite flag '\(key)'.")
        }
        visited.append(dependent)
        if visited.contains(key) {
            let chain = (visited + [key]).map { "'\($0)'" }.joined(separator: " -> ")
            throw ConfigModelError("Circular dependency detected between the following depending flags: \(chain).")
        }
        let selection = try evaluate(key, setting)
        visited.removeLast()
        let actual = try selection.served.value.unwrap(as: setting.type)
        switch comparator {
        case 0: return Self.same(actual, expected)
        case 1: return !Self.same(actual, expected)
        default: throw ConfigModelError("Comparison operator is invalid.")
        }
    }

    /// The comparison value for a prerequisite flag of `type`; a plain (override) number flag takes `d` or `i`, not both.
    private static func comparisonValue(_ value: ValueFields, for type: SettingType, plain: Bool) -> ConfigValue? {
        guard plain, type == .double else { return value.value(for: type) }
        switch (value.double, value.int) {
        case (let number?, nil): return .double(number)
        case (nil, let number?): return .int(number)
        default: return nil
        }
    }

    /// Flag values compared as ConfigCat compares them: strings by code points, numbers by value.
    private static func same(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): CodePoints.same(x, y)
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.int, .double), (.double, .int), (.double, .double):
            AttributeConversion.number(of: a) == AttributeConversion.number(of: b)
        default: false
        }
    }

    /// What percentage options gave: the option chosen and where the user's bucket fell, or why they were skipped.
    enum PercentageOutcome {
        case chosen(Int, BucketPlacement)
        case skipped(UnmatchedRule.Reason)
    }

    /// The percentage option the user's bucket (0 ... 99) falls in; skipped without a User Object or
    /// without the attribute they hash.
    private mutating func percentage(
        _ options: [PercentageOption], key: String, setting: Setting
    ) throws(ConfigModelError) -> PercentageOutcome {
        guard let user else { return .skipped(.other("User Object missing")) }
        let name = setting.percentageAttribute ?? "Identifier"
        note(name)
        let value: ConfigValue
        if setting.percentageAttribute == nil {
            value = .string(user.identifier)
        } else if let found = user.attribute(name) {
            value = found
        } else {
            return .skipped(.attributeMissing(ConfigCatUser.contextName(of: name)))
        }
        let bucket = ConfigCatHash.bucket(key: key, text: AttributeConversion.text(of: value))
        var upper: Int64 = 0
        for (index, option) in options.enumerated() {
            guard option.percentage >= 0 else { throw ConfigModelError("Percentage option percentage is invalid.") }
            let lower = upper
            let (sum, overflow) = upper.addingReportingOverflow(option.percentage)
            upper = overflow ? .max : sum
            if bucket < upper {
                let placement = BucketPlacement(
                    attribute: ConfigCatUser.contextName(of: name), value: Double(bucket), lower: Double(lower),
                    upper: Double(upper))
                return .chosen(index, placement)
            }
        }
        throw ConfigModelError("Sum of percentage option percentages is less than 100.")
    }

    /// Records that the User Object's attribute `name` was read.
    mutating func note(_ name: String) {
        guard explaining else { return }
        let attribute = ConfigCatUser.contextName(of: name)
        if !attributesRead.contains(attribute) { attributesRead.append(attribute) }
    }

    /// Records that a targeting rule of the evaluated key did not decide.
    private mutating func skip(_ ruleID: String, _ reason: UnmatchedRule.Reason) {
        guard explaining, atRoot, unmatched.count < TargetingDecision.unmatchedLimit else { return }
        unmatched.append(UnmatchedRule(ruleID: ruleID, reason: reason))
    }

    /// Records that the attribute `name` has a value a condition of the evaluated key cannot compare as `expected`.
    mutating func invalidAttribute(_ name: String, expected: String, found: ConfigValue) {
        guard atRoot else { return }
        let attribute = ConfigCatUser.contextName(of: name)
        problems.append(
            RuleProblem(
                key: rootKey, ruleID: currentRule,
                kind: .attributeType(attribute: attribute, expected: expected, found: found.kind)))
    }
}
