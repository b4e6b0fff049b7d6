import ConfigDomain
import Foundation

/// The problems of one setting that would fail an evaluation reaching them, found without
/// evaluating: values not of the setting's type, percentages that do not add up to 100, unknown
/// comparators, missing comparison values, segments and prerequisite flags that are not there, and
/// circular prerequisites. ConfigCat's dashboard never writes these; a hand-written override file may.
struct ConfigCatLint {
    let key: String
    let setting: Setting
    let config: ConfigCatConfig
    private var found: [RuleProblem] = []

    init(key: String, setting: Setting, config: ConfigCatConfig) {
        self.key = key
        self.setting = setting
        self.config = config
    }

    /// Every problem found, in the order of the setting's JSON.
    func problems() -> [RuleProblem] {
        var lint = self
        lint.check()
        return lint.found
    }

    private mutating func check() {
        let path = "f.\(key)"
        if setting.type != nil, (try? SettingType.checked(setting.type)) == nil {
            report(path + ".t", "Setting type is invalid.")
        }
        checkValue(setting.served, at: path + ".v")
        for (index, rule) in setting.rules.enumerated() {
            let rulePath = "\(path).r[\(index)]"
            for (position, condition) in rule.conditions.enumerated() {
                check(condition, at: "\(rulePath).c[\(position)]", rule: "r[\(index)]")
            }
            switch (rule.served, rule.options) {
            case (let served?, nil): checkValue(served, at: rulePath + ".s.v", rule: "r[\(index)]")
            case (nil, let options?) where !options.isEmpty: checkOptions(options, at: rulePath + ".p", rule: "r[\(index)]")
            default:
                report(rulePath, "Targeting rule THEN part is missing or invalid: give it either \"s\" or a non-empty \"p\".")
            }
        }
        if !setting.options.isEmpty { checkOptions(setting.options, at: path + ".p") }
        var seen: Set<String> = [key]
        if let cycle = cycle(from: key, chain: [], seen: &seen) {
            report(path, "Circular dependency detected between the following depending flags: \(cycle).")
        }
    }

    private mutating func check(_ condition: Condition, at path: String, rule: String) {
        switch condition {
        case .user(let user): check(user, at: path + ".u", rule: rule)
        case .invalid: report(path, "Condition is missing or invalid: give it exactly one of \"u\", \"s\" and \"p\".", rule: rule)
        case .segment(let index, let comparator):
            guard let position = Int(exactly: index), config.segments.indices.contains(position),
                let segment = config.segments[position]
            else {
                return report(
                    path + ".s.s", "Segment reference is invalid: the config has \(config.segments.count) segments.", rule: rule)
            }
            if segment.name.isEmpty { report("s[\(position)].n", "Segment name is missing.", rule: rule) }
            if !(0...1).contains(comparator) { report(path + ".s.c", "Comparison operator is invalid.", rule: rule) }
            for (offset, user) in segment.conditions.enumerated() { check(user, at: "s[\(position)].r[\(offset)]", rule: rule) }
        case .prerequisite(let flag, let comparator, let value):
            if !(0...1).contains(comparator) { report(path + ".p.c", "Comparison operator is invalid.", rule: rule) }
            guard let prerequisite = config.settings[flag] else {
                return report(path + ".p.f", "Prerequisite flag '\(flag)' is missing.", rule: rule)
            }
            if let type = try? prerequisite.served.value.settingType(declared: prerequisite.type), value.value(for: type) == nil,
                prerequisite.type != nil
            {
                report(
                    path + ".p.v", "Type mismatch between the comparison value and prerequisite flag '\(flag)' (\(type.name)).",
                    rule: rule)
            }
        }
    }

    private mutating func check(_ condition: UserCondition, at path: String, rule: String) {
        guard let comparator = Comparator(rawValue: condition.comparator) else {
            return report(
                path + ".c", "Comparison operator is invalid: \(condition.comparator) is not one of 0 … 35.", rule: rule)
        }
        let missing: String? =
            switch comparator.operand {
            case .text: condition.text == nil ? "s" : nil
            case .number: condition.number == nil ? "d" : nil
            case .list: condition.list == nil ? "l" : nil
            }
        if let missing { report("\(path).\(missing)", "Comparison value is missing.", rule: rule) }
        if comparator.isSensitive, config.salt == nil { report("p.s", "Config JSON salt is missing.", rule: rule) }
    }

    private mutating func checkOptions(_ options: [PercentageOption], at path: String, rule: String? = nil) {
        for (index, option) in options.enumerated() {
            if option.percentage < 0 { report("\(path)[\(index)].p", "Percentage option percentage is invalid.", rule: rule) }
            checkValue(option.served, at: "\(path)[\(index)].v", rule: rule)
        }
        let total = options.reduce(0.0) { $0 + Double($1.percentage) }
        if total != 100 { found.append(RuleProblem(key: key, ruleID: rule, path: path, kind: .weightsDoNotSum(total / 100))) }
    }

    private mutating func checkValue(_ served: ServedValue, at path: String, rule: String? = nil) {
        do throws(ConfigModelError) {
            _ = try served.value.unwrap(as: setting.type)
        } catch {
            if setting.type == nil || (try? SettingType.checked(setting.type)) != nil { report(path, error.message, rule: rule) }
        }
    }

    /// A chain of prerequisite flags from `flag` back to the linted key, as `'a' -> 'b' -> 'a'`; each flag visited once.
    private func cycle(from flag: String, chain: [String], seen: inout Set<String>) -> String? {
        for case .prerequisite(let next, _, _) in config.settings[flag]?.rules.flatMap(\.conditions) ?? [] {
            if next == key { return (chain + [flag, key]).map { "'\($0)'" }.joined(separator: " -> ") }
            if seen.insert(next).inserted, let found = cycle(from: next, chain: chain + [flag], seen: &seen) { return found }
        }
        return nil
    }

    private mutating func report(_ path: String, _ message: String, rule: String? = nil) {
        found.append(RuleProblem(key: key, ruleID: rule, path: path, kind: .unparsable(message)))
    }
}
