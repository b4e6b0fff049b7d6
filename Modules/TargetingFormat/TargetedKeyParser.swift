import ConfigDomain
import Foundation
import Targeting

/// Reads one key's entry of the `targeting` object into a ``TargetedKey``, or the problems that reject it.
struct TargetedKeyParser {
    let key: String
    let groups: [String: [ConfigValue]]
    private var problems: [RuleProblem] = []

    init(key: String, groups: [String: [ConfigValue]]) {
        self.key = key
        self.groups = groups
    }

    /// The key's default (if any) and rules, or every problem found.
    mutating func parse(_ entry: ConfigValue) -> Result<(defaultValue: ConfigValue?, rules: TargetedKey), Problems> {
        let base = "targeting.\(key)"
        guard case .object(let members) = entry else {
            return .failure(
                Problems(list: [
                    problem(nil, base, .unparsable("expected an object with default, rules and rollouts, found a \(entry.kind)"))
                ]))
        }
        for name in members.keys.sorted() where !["default", "rules", "rollouts"].contains(name) {
            problems.append(
                problem(nil, "\(base).\(name)", .unparsable("unknown member \"\(name)\"; a key has default, rules and rollouts")))
        }
        var rules: [TargetedRule] = []
        for (index, element) in list(members["rules"], at: "\(base).rules").enumerated() {
            if let rule = parseRule(element, index: index, base: "\(base).rules[\(index)]") { rules.append(rule) }
        }
        var rollouts: [TargetedRollout] = []
        for (index, element) in list(members["rollouts"], at: "\(base).rollouts").enumerated() {
            if let rollout = parseRollout(element, index: index, base: "\(base).rollouts[\(index)]") { rollouts.append(rollout) }
        }
        guard problems.isEmpty else { return .failure(Problems(list: problems)) }
        return .success((members["default"], TargetedKey(key: key, rules: rules, rollouts: rollouts, groups: groups)))
    }

    /// The problems that rejected a key.
    struct Problems: Error {
        let list: [RuleProblem]
    }

    private mutating func list(_ value: ConfigValue?, at path: String) -> [ConfigValue] {
        switch value {
        case nil: return []
        case .array(let elements)?: return elements
        case let other?:
            problems.append(problem(nil, path, .unparsable("expected an array, found a \(other.kind)")))
            return []
        }
    }

    private mutating func parseRule(_ json: ConfigValue, index: Int, base: String) -> TargetedRule? {
        guard case .object(let members) = json else {
            problems.append(problem(nil, base, .unparsable("a rule is an object with when and value, found a \(json.kind)")))
            return nil
        }
        let id = identifier(members, fallback: "rules[\(index)]", base: base)
        rejectUnknown(members, allowed: ["id", "when", "value"], ruleID: id, base: base)
        let condition = parseCondition(members["when"], ruleID: id, base: base)
        guard let value = members["value"] else {
            problems.append(problem(id, base, .unparsable("the rule has no \"value\"; add the value it serves")))
            return nil
        }
        guard let condition else { return nil }
        return TargetedRule(id: id, condition: condition, value: value)
    }

    private mutating func parseRollout(_ json: ConfigValue, index: Int, base: String) -> TargetedRollout? {
        guard case .object(let members) = json else {
            problems.append(problem(nil, base, .unparsable("a rollout is an object with variants, found a \(json.kind)")))
            return nil
        }
        let id = identifier(members, fallback: "rollouts[\(index)]", base: base)
        rejectUnknown(members, allowed: ["id", "when", "seed", "bucketBy", "coverage", "variants"], ruleID: id, base: base)
        let condition = parseCondition(members["when"], ruleID: id, base: base)
        let seed = text(members["seed"], default: key, ruleID: id, at: "\(base).seed")
        let bucketBy = text(
            members["bucketBy"], default: EvaluationContext.targetingKeyAttribute, ruleID: id, at: "\(base).bucketBy")
        let coverage = fraction(members["coverage"], ruleID: id, at: "\(base).coverage")
        guard case .array(let entries)? = members["variants"], !entries.isEmpty else {
            problems.append(problem(id, "\(base).variants", .unparsable("a rollout needs a non-empty \"variants\" array")))
            return nil
        }
        var variants: [TargetedRollout.Variant] = []
        var weights: [Double] = []
        for (position, entry) in entries.enumerated() {
            let path = "\(base).variants[\(position)]"
            guard case .object(let variant) = entry, let value = variant["value"] else {
                problems.append(problem(id, path, .unparsable("a variant is an object with a \"value\"")))
                continue
            }
            rejectUnknown(variant, allowed: ["name", "value", "weight"], ruleID: id, base: path)
            let name = text(variant["name"], default: String(position), ruleID: id, at: "\(path).name")
            variants.append(TargetedRollout.Variant(name: name, value: value))
            if let weight = variant["weight"] { weights.append(number(weight, ruleID: id, at: "\(path).weight") ?? 0) }
        }
        if !weights.isEmpty, weights.count != entries.count {
            problems.append(problem(id, "\(base).variants", .unparsable("give every variant a weight, or none (equal weights)")))
        }
        if weights.count == entries.count, !Bucketing.weightsSumToOne(weights) {
            problems.append(problem(id, "\(base).variants", .weightsDoNotSum(weights.reduce(0, +))))
        }
        guard let condition, variants.count == entries.count else { return nil }
        let ranges = Bucketing.ranges(count: variants.count, coverage: coverage, weights: weights.isEmpty ? nil : weights)
        return TargetedRollout(
            id: id, condition: condition, seed: seed, bucketBy: bucketBy, variants: variants, ranges: ranges)
    }

    private mutating func parseCondition(_ json: ConfigValue?, ruleID: String, base: String) -> Condition? {
        guard let json else { return .always }
        do throws(ConditionError) {
            let condition = try Condition(json)
            for group in condition.groups where groups[group] == nil {
                problems.append(problem(ruleID, "\(base).when", .unknownGroup(group)))
            }
            return condition
        } catch {
            problems.append(error.ruleProblem(key: key, ruleID: ruleID, path: "\(base).when"))
            return nil
        }
    }

    private mutating func identifier(_ members: [String: ConfigValue], fallback: String, base: String) -> String {
        guard let id = members["id"] else { return fallback }
        guard case .string(let text) = id, !text.isEmpty else {
            problems.append(problem(fallback, "\(base).id", .unparsable("an id is a non-empty string, found \(id.jsonText())")))
            return fallback
        }
        return text
    }

    private mutating func rejectUnknown(_ members: [String: ConfigValue], allowed: Set<String>, ruleID: String, base: String) {
        for name in members.keys.sorted() where !allowed.contains(name) {
            let expected = allowed.sorted().joined(separator: ", ")
            problems.append(problem(ruleID, "\(base).\(name)", .unparsable("unknown member \"\(name)\"; expected \(expected)")))
        }
    }

    private mutating func text(_ value: ConfigValue?, default fallback: String, ruleID: String, at path: String) -> String {
        guard let value else { return fallback }
        guard case .string(let text) = value, !text.isEmpty else {
            problems.append(problem(ruleID, path, .unparsable("expected a non-empty string, found \(value.jsonText())")))
            return fallback
        }
        return text
    }

    private mutating func number(_ value: ConfigValue, ruleID: String, at path: String) -> Double? {
        switch value {
        case .int(let number) where number >= 0: return Double(number)
        case .double(let number) where number >= 0 && number.isFinite: return number
        default:
            problems.append(problem(ruleID, path, .unparsable("expected a number of 0 or more, found \(value.jsonText())")))
            return nil
        }
    }

    private mutating func fraction(_ value: ConfigValue?, ruleID: String, at path: String) -> Double {
        guard let value else { return 1 }
        guard let number = number(value, ruleID: ruleID, at: path) else { return 1 }
        guard number <= 1 else {
            problems.append(problem(ruleID, path, .unparsable("coverage is a fraction from 0 to 1, found \(value.jsonText())")))
            return 1
        }
        return number
    }

    private func problem(_ ruleID: String?, _ path: String, _ kind: RuleProblem.Kind) -> RuleProblem {
        RuleProblem(key: key, ruleID: ruleID, path: path, kind: kind)
    }
}
