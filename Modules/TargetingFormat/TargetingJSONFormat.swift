import ConfigDomain
import ConfigPorts
import Foundation

/// The library's own targeting dialect: plain values, and per key ordered rules, percentage
/// rollouts and a default. `FORMAT.md` beside this file documents it with examples.
///
/// ```json
/// {
///   "values": { "max_retries": 3 },
///   "targeting": {
///     "new_checkout": {
///       "default": false,
///       "rules": [ { "id": "staff", "when": { "email": { "$regex": "@example\\.com$" } }, "value": true } ],
///       "rollouts": [ { "id": "gradual", "coverage": 0.1, "variants": [ { "value": true } ] } ]
///     }
///   },
///   "groups": { "beta": ["u1", "u2"] }
/// }
/// ```
///
/// Conditions use GrowthBook's MongoDB-style language (``Condition``), strictly: an unknown
/// operator or a malformed condition is a problem. Rollouts bucket with GrowthBook's hash version 2
/// (``Bucketing``). A key whose rules have problems is rejected alone (its problems are in
/// ``DecodedPayload/ruleProblems``); the rest of the payload activates.
public struct TargetingJSONFormat: PayloadFormat {
    /// `targeting-json`.
    public let name = "targeting-json"
    /// The parser used, with its depth limit.
    public let parser: JSONParser

    /// Creates the format.
    public init(parser: JSONParser = JSONParser()) {
        self.parser = parser
    }


    /// Values, rules and rule problems by key.
    ///
    /// - Throws: ``PayloadError`` when the bytes are not JSON, the top level is not an object with
    ///   only `values`, `targeting` and `groups`, one of those is not an object, or a group is not an array.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let members = try parser.parseObject(bytes, format: name)
        for member in members.keys.sorted() where !["values", "targeting", "groups"].contains(member) {
            throw PayloadError(
                format: name,
                reason: "unknown top-level member \"\(member)\"; the document has values, targeting and groups (see FORMAT.md)",
                path: member)
        }
        var values = try object(members["values"], at: "values")
        let targeting = try object(members["targeting"], at: "targeting")
        let groups = try savedGroups(members["groups"])

        var rules: [String: any TargetingRules] = [:]
        var ruleProblems: [String: [RuleProblem]] = [:]
        for key in targeting.keys.sorted() {
            guard let entry = targeting[key] else { continue }
            if values[key] != nil {
                let problem = RuleProblem(
                    key: key, path: "targeting.\(key)",
                    kind: .unparsable(
                        "the key is in both values and targeting; keep it in one (a targeted key's default is its \"default\")"))
                values[key] = nil
                ruleProblems[key] = [problem]
                continue
            }
            var parser = TargetedKeyParser(key: key, groups: groups)
            switch parser.parse(entry) {
            case .success(let parsed):
                rules[key] = parsed.rules
                if let defaultValue = parsed.defaultValue { values[key] = defaultValue }
            case .failure(let problems):
                ruleProblems[key] = problems.list
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: ruleProblems)
    }

    private func object(_ value: ConfigValue?, at path: String) throws(PayloadError) -> [String: ConfigValue] {
        guard let value else { return [:] }
        guard case .object(let members) = value else {
            throw PayloadError(format: name, reason: "\"\(path)\" must be a JSON object, found a JSON \(value.kind)", path: path)
        }
        return members
    }

    private func savedGroups(_ value: ConfigValue?) throws(PayloadError) -> [String: [ConfigValue]] {
        var groups: [String: [ConfigValue]] = [:]
        for (id, members) in try object(value, at: "groups") {
            guard case .array(let list) = members else {
                throw PayloadError(
                    format: name, reason: "a group is an array of attribute values, found a JSON \(members.kind)",
                    path: "groups.\(id)")
            }
            groups[id] = list
        }
        return groups
    }
}
