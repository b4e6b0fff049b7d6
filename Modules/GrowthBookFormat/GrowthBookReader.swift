import ConfigDomain
import Foundation
import Targeting

/// Reads GrowthBook's JSON shapes (features, rules, experiments) into their types.
///
/// Lenient reading does what GrowthBook's SDKs do with a member of the wrong shape: it ignores it
/// (and an unknown operator in a condition never matches). Strict reading records each such
/// member as a ``RuleProblem`` so that the format can reject the feature and say why.
struct GrowthBookReader {
    let strictness: Condition.Strictness
    let key: String
    let savedGroups: [String: [ConfigValue]]
    private(set) var problems: [RuleProblem] = []
    private var ruleID: String?

    init(key: String, strictness: Condition.Strictness, savedGroups: [String: [ConfigValue]]) {
        self.key = key
        self.strictness = strictness
        self.savedGroups = savedGroups
    }

    /// A feature: `defaultValue` and `rules`.
    mutating func feature(_ json: ConfigValue, path: String) -> GrowthBookFeature {
        guard case .object(let members) = json else {
            note(path, .unparsable("a feature is an object with defaultValue and rules, found a \(json.kind)"))
            return GrowthBookFeature(defaultValue: nil, rules: [])
        }
        var rules: [GrowthBookRule] = []
        if let list = members["rules"] {
            if case .array(let elements) = list {
                for (index, element) in elements.enumerated() {
                    if let rule = rule(element, path: "\(path).rules[\(index)]", index: index) { rules.append(rule) }
                }
            } else {
                note("\(path).rules", .unparsable("rules is an array, found a \(list.kind)"))
            }
        }
        return GrowthBookFeature(defaultValue: members["defaultValue"], rules: rules)
    }

    private mutating func rule(_ json: ConfigValue, path: String, index: Int) -> GrowthBookRule? {
        guard case .object(let m) = json else {
            note(path, .unparsable("a rule is an object, found a \(json.kind)"))
            return nil
        }
        var rule = GrowthBookRule()
        rule.id = string(m, "id", path)
        ruleID = rule.id ?? "rules[\(index)]"
        defer { ruleID = nil }
        rule.condition = condition(m["condition"], path: "\(path).condition")
        rule.parentConditions = parents(m["parentConditions"], path: "\(path).parentConditions")
        rule.force = m["force"]
        rule.coverage = fraction(m, "coverage", path)
        rule.range = range(m["range"], path: "\(path).range")
        rule.hashAttribute = string(m, "hashAttribute", path)
        rule.fallbackAttribute = string(m, "fallbackAttribute", path)
        rule.hashVersion = hashVersion(m, path)
        rule.seed = string(m, "seed", path)
        rule.key = string(m, "key", path)
        rule.variations = array(m, "variations", path)
        rule.weights = weights(m, path, variations: rule.variations?.count)
        rule.namespace = namespace(m["namespace"], path: "\(path).namespace")
        rule.meta = meta(m["meta"], path: "\(path).meta")
        rule.ranges = ranges(m["ranges"], path: "\(path).ranges")
        rule.filters = filters(m["filters"], path: "\(path).filters")
        rule.bucketVersion = integer(m, "bucketVersion", path)
        rule.minBucketVersion = integer(m, "minBucketVersion", path)
        rule.disableStickyBucketing = m["disableStickyBucketing"]?.boolValue ?? false
        rule.name = string(m, "name", path)
        rule.phase = string(m, "phase", path)
        if rule.force == nil, rule.variations == nil {
            note(path, .unparsable("the rule has neither \"force\" nor \"variations\", so it can never apply"))
        }
        return rule
    }

    /// An experiment as GrowthBook's `run` takes it.
    mutating func experiment(_ json: ConfigValue, path: String) -> GrowthBookExperiment? {
        guard case .object(let m) = json, let key = m["key"]?.stringValue, let variations = m["variations"]?.arrayValue else {
            note(path, .unparsable("an experiment is an object with a key and variations"))
            return nil
        }
        var experiment = GrowthBookExperiment(key: key, variations: variations)
        experiment.coverage = fraction(m, "coverage", path)
        experiment.weights = weights(m, path, variations: variations.count)
        experiment.hashAttribute = string(m, "hashAttribute", path)
        experiment.fallbackAttribute = string(m, "fallbackAttribute", path)
        experiment.disableStickyBucketing = m["disableStickyBucketing"]?.boolValue ?? false
        experiment.bucketVersion = integer(m, "bucketVersion", path)
        experiment.minBucketVersion = integer(m, "minBucketVersion", path)
        experiment.namespace = namespace(m["namespace"], path: "\(path).namespace")
        experiment.meta = meta(m["meta"], path: "\(path).meta")
        experiment.ranges = ranges(m["ranges"], path: "\(path).ranges")
        experiment.name = string(m, "name", path)
        experiment.phase = string(m, "phase", path)
        experiment.seed = string(m, "seed", path)
        experiment.hashVersion = hashVersion(m, path)
        experiment.filters = filters(m["filters"], path: "\(path).filters")
        experiment.condition = condition(m["condition"], path: "\(path).condition")
        experiment.parentConditions = parents(m["parentConditions"], path: "\(path).parentConditions")
        experiment.active = m["active"]?.boolValue
        experiment.status = string(m, "status", path)
        if let force = m["force"] { experiment.forcedVariation = .some(force.intValue.map { Int($0) }) }
        return experiment
    }

    // MARK: Members

    private mutating func condition(_ json: ConfigValue?, path: String) -> Condition? {
        guard let json else { return nil }
        switch strictness {
        case .lenient:
            return Condition.lenient(json)
        case .strict:
            do throws(ConditionError) {
                let condition = try Condition(json)
                for group in condition.groups where savedGroups[group] == nil { note(path, .unknownGroup(group)) }
                return condition
            } catch {
                problems.append(error.ruleProblem(key: key, ruleID: ruleID, path: path))
                return nil
            }
        }
    }

    private mutating func parents(_ json: ConfigValue?, path: String) -> [GrowthBookParentCondition]? {
        guard let json else { return nil }
        guard case .array(let elements) = json else {
            note(path, .unparsable("parentConditions is an array, found a \(json.kind)"))
            return nil
        }
        var parents: [GrowthBookParentCondition] = []
        for (index, element) in elements.enumerated() {
            let here = "\(path)[\(index)]"
            guard let id = element["id"]?.stringValue else {
                note(here, .unparsable("a parent condition needs the prerequisite feature's \"id\""))
                continue
            }
            let condition = self.condition(element["condition"] ?? [:], path: "\(here).condition") ?? .always
            parents.append(GrowthBookParentCondition(id: id, condition: condition, gate: element["gate"]?.boolValue ?? false))
        }
        return parents
    }

    private mutating func string(_ m: [String: ConfigValue], _ name: String, _ path: String) -> String? {
        guard let value = m[name], !value.isNull else { return nil }
        guard case .string(let text) = value else {
            note("\(path).\(name)", .unparsable("\(name) is a string, found a \(value.kind)"))
            return nil
        }
        return text
    }

    private mutating func number(_ value: ConfigValue?, path: String) -> Double? {
        switch value {
        case nil, .null?: return nil
        case .int(let number)?: return Double(number)
        case .double(let number)?: return number
        case let other?:
            note(path, .unparsable("expected a number, found a \(other.kind)"))
            return nil
        }
    }

    private mutating func integer(_ m: [String: ConfigValue], _ name: String, _ path: String) -> Int? {
        guard let number = number(m[name], path: "\(path).\(name)") else { return nil }
        return Int(exactly: number.rounded(.towardZero))
    }

    private mutating func fraction(_ m: [String: ConfigValue], _ name: String, _ path: String) -> Double? {
        guard let number = number(m[name], path: "\(path).\(name)") else { return nil }
        if !(0...1).contains(number) {
            note("\(path).\(name)", .unparsable("\(name) is a fraction from 0 to 1, found \(number)"))
        }
        return number
    }

    private mutating func hashVersion(_ m: [String: ConfigValue], _ path: String) -> Int? {
        let version = integer(m, "hashVersion", path)
        if let version, version != 1, version != 2 {
            note("\(path).hashVersion", .unparsable("hashVersion is 1 or 2, found \(version); such a rule never includes anyone"))
        }
        return version
    }

    /// The elements of `json`; nil when it is absent or null. Another value is noted as a problem:
    /// `expected`, then what was found.
    private mutating func elements(_ json: ConfigValue?, path: String, _ expected: String) -> [ConfigValue]? {
        guard let json, !json.isNull else { return nil }
        guard case .array(let elements) = json else {
            note(path, .unparsable("\(expected), found a \(json.kind)"))
            return nil
        }
        return elements
    }

    private mutating func array(_ m: [String: ConfigValue], _ name: String, _ path: String) -> [ConfigValue]? {
        elements(m[name], path: "\(path).\(name)", "\(name) is an array")
    }

    private mutating func weights(_ m: [String: ConfigValue], _ path: String, variations: Int?) -> [Double]? {
        guard let list = array(m, "weights", path) else { return nil }
        var weights: [Double] = []
        for (index, element) in list.enumerated() {
            weights.append(number(element, path: "\(path).weights[\(index)]") ?? 0)
        }
        if !Bucketing.weightsSumToOne(weights) { note("\(path).weights", .weightsDoNotSum(weights.reduce(0, +))) }
        if let variations, weights.count != variations {
            note(
                "\(path).weights",
                .unparsable("\(weights.count) weights for \(variations) variations; give one weight per variation"))
        }
        return weights
    }

    private mutating func range(_ json: ConfigValue?, path: String) -> BucketRange? {
        guard let json, !json.isNull else { return nil }
        guard case .array(let bounds) = json, bounds.count == 2,
            let lower = number(bounds[0], path: "\(path)[0]"), let upper = number(bounds[1], path: "\(path)[1]")
        else {
            note(path, .unparsable("a range is [start, end]"))
            return nil
        }
        return BucketRange(lower: lower, upper: upper)
    }

    private mutating func ranges(_ json: ConfigValue?, path: String) -> [BucketRange]? {
        guard let list = elements(json, path: path, "ranges is an array of [start, end]") else { return nil }
        var ranges: [BucketRange] = []
        for (index, element) in list.enumerated() {
            if let range = range(element, path: "\(path)[\(index)]") { ranges.append(range) }
        }
        return ranges
    }

    private mutating func namespace(_ json: ConfigValue?, path: String) -> GrowthBookNamespace? {
        guard let json, !json.isNull else { return nil }
        guard case .array(let parts) = json, parts.count == 3, let id = parts[0].stringValue,
            let lower = number(parts[1], path: "\(path)[1]"), let upper = number(parts[2], path: "\(path)[2]")
        else {
            note(path, .unparsable("a namespace is [id, start, end]"))
            return nil
        }
        return GrowthBookNamespace(id: id, range: BucketRange(lower: lower, upper: upper))
    }

    private mutating func meta(_ json: ConfigValue?, path: String) -> [GrowthBookVariationMeta]? {
        guard let list = elements(json, path: path, "meta is an array of objects") else { return nil }
        return list.map { entry in
            GrowthBookVariationMeta(
                key: entry["key"]?.stringValue, name: entry["name"]?.stringValue,
                passthrough: entry["passthrough"]?.boolValue ?? false)
        }
    }

    private mutating func filters(_ json: ConfigValue?, path: String) -> [GrowthBookFilter]? {
        guard let list = elements(json, path: path, "filters is an array of objects") else { return nil }
        var filters: [GrowthBookFilter] = []
        for (index, entry) in list.enumerated() {
            let here = "\(path)[\(index)]"
            guard case .object(let m) = entry, let seed = m["seed"]?.stringValue else {
                note(here, .unparsable("a filter is an object with a seed and ranges"))
                continue
            }
            filters.append(
                GrowthBookFilter(
                    attribute: string(m, "attribute", here), seed: seed, hashVersion: integer(m, "hashVersion", here),
                    ranges: ranges(m["ranges"], path: "\(here).ranges") ?? []))
        }
        return filters
    }

    private mutating func note(_ path: String, _ kind: RuleProblem.Kind) {
        problems.append(RuleProblem(key: key, ruleID: ruleID, path: path, kind: kind))
    }
}
