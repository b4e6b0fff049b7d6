import ConfigDomain
import ConfigPorts
import Foundation

/// Reads a Firebase Remote Config template, as exported from the Firebase console or returned by
/// the Remote Config REST API, and evaluates a server template's conditions for each context as
/// Firebase's server-side templates do, so an app or a server can move off Firebase by hosting its
/// exported template.
///
/// A template looks like this (other members are ignored):
///
/// ```json
/// {
///   "conditions": [
///     { "name": "beta", "condition": { "orCondition": { "conditions": [
///       { "customSignal": { "customSignalOperator": "SEMANTIC_VERSION_GREATER_EQUAL",
///                           "customSignalKey": "app_version", "targetCustomSignalValues": ["2.4"] } },
///       { "percent": { "percentOperator": "LESS_OR_EQUAL", "seed": "beta", "microPercent": 10000000 } } ] } } }
///   ],
///   "parameters": {
///     "welcome": { "defaultValue": { "value": "Hi" }, "conditionalValues": { "beta": { "value": "Hi, tester" } },
///                  "valueType": "STRING" },
///     "max_items": { "defaultValue": { "value": "20" }, "valueType": "NUMBER" }
///   },
///   "parameterGroups": {
///     "checkout": {
///       "parameters": {
///         "new_checkout": { "defaultValue": { "value": "true" }, "valueType": "BOOLEAN" },
///         "theme": { "defaultValue": { "value": "{\"dark\":true}" }, "valueType": "JSON" }
///       }
///     }
///   },
///   "version": { "versionNumber": "12" }
/// }
/// ```
///
/// Each parameter becomes one key (groups only organise; a grouped parameter's key is its own
/// name, without the group's). Its values' `value` strings are converted by `valueType`:
///
/// | `valueType` | value |
/// |---|---|
/// | `STRING`, missing, or `PARAMETER_VALUE_TYPE_UNSPECIFIED` | ``ConfigValue/string(_:)``, verbatim |
/// | `BOOLEAN` | `true` or `false` (any case, surrounding spaces ignored) |
/// | `NUMBER` | ``ConfigValue/int(_:)`` when written without fraction or exponent and it fits, else ``ConfigValue/double(_:)`` |
/// | `JSON` | the parsed JSON value (object, array, or any other JSON value) |
///
/// **Conditions.** A parameter without `conditionalValues` is a plain value (reason `STATIC`). A
/// parameter with them gets rules that ``DecodedPayload/evaluate(_:in:)`` and a client evaluate for
/// each context: the template's conditions are tried in the template's order, and the first one that
/// matches and has a conditional value for the parameter decides (reason `TARGETING_MATCH`, the
/// condition's name as the rule); when none does, the default value (reason `DEFAULT`). A value of
/// `{ "useInAppDefault": true }`, and a parameter without `defaultValue`, serve nothing, so the
/// app's own default applies (as with Firebase). A server template's conditions (`orCondition`,
/// `andCondition`, `true`, `false`, `percent`, `customSignal` with every operator) read the
/// ``EvaluationContext`` this way:
///
/// | Firebase's server context | ``EvaluationContext`` |
/// |---|---|
/// | `randomizationId`, which `percent` conditions hash with SHA-256 | the attribute ``randomizationIdAttribute`` (a string), else ``EvaluationContext/targetingKey`` |
/// | the custom signal `key` | the attribute `key` (a string or a number) |
///
/// `FORMAT.md` beside this file defines every operator, and lists where the library answers
/// otherwise than firebase-admin for Python, against which a differential test checks it.
///
/// **A condition that cannot be read is rejected alone**: a part of a condition that cannot be read
/// (an unknown operator, a missing field, a regular expression that does not compile, a client
/// template's `expression`) never matches, as Firebase's SDKs answer false for it; the rest of the
/// condition, the other conditions and every parameter are still served. Each parameter that refers
/// to it reports a ``RuleProblem`` naming the condition (in the decision's problems when the
/// condition is evaluated, and from its rules' `lint()`), and ``Template/conditionProblems`` lists them.
///
/// **Bad parameters are dropped one by one.** A parameter whose value does not convert (a
/// `BOOLEAN` of `"maybe"`, a `NUMBER` of `"abc"`, malformed `JSON`, in its default or in a
/// conditional value), whose `valueType` is unknown, whose shape is wrong, or whose name appears
/// twice, is left out and the rest are kept; its key then falls through to the cached value or the
/// key's default. Each dropped parameter is reported as a ``PayloadError`` naming its path (for
/// example `parameterGroups.checkout.parameters.new_checkout.defaultValue.value`) through
/// ``decodeTemplate(_:)`` and the optional `onDroppedParameter` handler. Set
/// ``dropsInvalidParameters`` to `false` to refuse the whole template instead.
///
/// **A broken template is refused whole** with a ``PayloadError``: bytes that are not JSON, a
/// top level that is not an object, a `parameters` or `parameterGroups` member (or a group's
/// `parameters`) that is not an object, `conditions` that is not an array, or an object with neither
/// `parameters` nor `parameterGroups` but other members that are not a template's (a plain JSON
/// configuration given to the wrong format). `{}` and a template with only `version` decode to no values.
public struct FirebaseTemplateFormat: PayloadFormat {
    /// A decoded template: the default values, and what was left out or cannot be read, with why.
    public struct Template: Sendable, Hashable {
        /// Each parameter's default value by key: what a context that matches none of its conditions
        /// gets (a parameter whose default is the app's own is absent).
        public var values: [String: ConfigValue]
        /// The parameters left out because their value or shape is invalid, each naming its path.
        public var droppedParameters: [PayloadError]
        /// The template's `version.versionNumber`, when present.
        public var versionNumber: String?
        /// The parts of conditions that cannot be read (they never match), each naming the condition and its path.
        public var conditionProblems: [PayloadError]

        /// Creates a decoded template.
        public init(
            values: [String: ConfigValue], droppedParameters: [PayloadError] = [], versionNumber: String? = nil,
            conditionProblems: [PayloadError] = []
        ) {
            self.values = values
            self.droppedParameters = droppedParameters
            self.versionNumber = versionNumber
            self.conditionProblems = conditionProblems
        }
    }

    /// The attribute of an ``EvaluationContext`` that holds Firebase's randomization id: `randomizationId`.
    public static let randomizationIdAttribute = "randomizationId"

    /// `firebase-template`.
    public let name = "firebase-template"
    /// Whether an invalid parameter is dropped alone (`true`, the default) or fails the whole template.
    public var dropsInvalidParameters: Bool
    /// The parser used for the template and for `JSON` values, with its depth limit.
    public var parser: JSONParser
    private let onDroppedParameter: (@Sendable (PayloadError) -> Void)?

    private static let templateMembers: Set<String> = ["parameters", "parameterGroups", "conditions", "version", "etag"]

    /// Creates the format.
    ///
    /// - Parameters:
    ///   - dropsInvalidParameters: drop a bad parameter alone (default) or refuse the template.
    ///   - parser: the JSON parser.
    ///   - onDroppedParameter: called by ``decode(_:)`` once per dropped parameter, to log or count it.
    public init(
        dropsInvalidParameters: Bool = true, parser: JSONParser = JSONParser(),
        onDroppedParameter: (@Sendable (PayloadError) -> Void)? = nil
    ) {
        self.dropsInvalidParameters = dropsInvalidParameters
        self.parser = parser
        self.onDroppedParameter = onDroppedParameter
    }

    /// The parameters' values, with rules for each parameter that has conditional values; dropped
    /// parameters go to `onDroppedParameter`.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let decoded = try read(bytes)
        if let onDroppedParameter {
            for problem in decoded.template.droppedParameters { onDroppedParameter(problem) }
        }
        return DecodedPayload(values: decoded.values, rules: decoded.rules)
    }

    /// Decodes the template, returning the default values and what was dropped or cannot be read.
    public func decodeTemplate(_ bytes: Data) throws(PayloadError) -> Template {
        try read(bytes).template
    }

    /// What one read of a template gives: the report, and the payload's values and rules.
    private struct Decoded {
        var template: Template
        /// The values a payload holds: each default, except where a conditional value must be able to serve nothing.
        var values: [String: ConfigValue]
        var rules: [String: any TargetingRules]
    }

    /// Reads the template.
    private func read(_ bytes: Data) throws(PayloadError) -> Decoded {
        let top = try parser.parseObject(bytes, format: name, requirement: "a Firebase template is a JSON object")
        let foreign = top.keys.filter { !Self.templateMembers.contains($0) }
        if top["parameters"] == nil && top["parameterGroups"] == nil && !foreign.isEmpty {
            let found = foreign.sorted().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            throw PayloadError(
                format: name,
                reason: "this is not a Firebase Remote Config template: it has no \"parameters\" or \"parameterGroups\" "
                    + "(found \(found)); use the plain JSON format for a plain configuration object")
        }
        let conditions = try ConditionReader(top["conditions"], format: name)
        let sections = try sections(of: top)

        // A name used twice is ambiguous: every occurrence is dropped, reported once where it first
        // appears. Names are unique within one object, so only two sections can repeat one.
        var names: Set<String> = []
        var duplicates: Set<String> = []
        for section in sections {
            for key in section.members.keys where !names.insert(key).inserted { duplicates.insert(key) }
        }

        var decoded = Decoded(template: Template(values: [:]), values: [:], rules: [:])
        // Each problem with its section and name, put in report order once all are known.
        var problems: [(section: Int, key: String, problem: PayloadError)] = []
        var reported: Set<String> = []
        for (index, section) in sections.enumerated() {
            for (key, member) in section.members {
                if duplicates.contains(key) {
                    if reported.insert(key).inserted {
                        problems.append((index, key, duplicateProblem(key, in: sections[index...])))
                    }
                    continue
                }
                let path = ParameterPath(group: section.group, key: key)
                do throws(PayloadError) {
                    add(try parameter(member, at: path), key: key, path: path, conditions: conditions.conditions, to: &decoded)
                } catch {
                    problems.append((index, key, error))
                }
            }
        }
        problems.sort { $0.section != $1.section ? $0.section < $1.section : $0.key < $1.key }
        if !dropsInvalidParameters, let first = problems.first { throw first.problem }
        decoded.template.droppedParameters = problems.map(\.problem)
        decoded.template.conditionProblems = conditionProblems(conditions)
        if case .object(let version)? = top["version"] {
            switch version["versionNumber"] {
            case .string(let text)?: decoded.template.versionNumber = text
            case .int(let number)?: decoded.template.versionNumber = String(number)
            default: break
            }
        }
        return decoded
    }

    /// The sections holding parameters: the top level first, then the groups in name order.
    /// Dropped parameters are reported in that order, and by name within a section.
    private func sections(of top: [String: ConfigValue]) throws(PayloadError) -> [Section] {
        var sections: [Section] = []
        if let parameters = top["parameters"] {
            guard case .object(let members) = parameters else {
                throw PayloadError(
                    format: name, reason: "\"parameters\" must be an object of parameters, found a JSON \(parameters.kind)",
                    path: "parameters")
            }
            sections.append(Section(group: nil, members: members))
        }
        if let groups = top["parameterGroups"] {
            guard case .object(let groupMembers) = groups else {
                throw PayloadError(
                    format: name, reason: "\"parameterGroups\" must be an object of groups, found a JSON \(groups.kind)",
                    path: "parameterGroups")
            }
            for (groupName, groupValue) in groupMembers.sorted(by: { $0.key < $1.key }) {
                guard case .object(let group) = groupValue else {
                    throw PayloadError(
                        format: name, reason: "a parameter group must be an object", path: "parameterGroups.\(groupName)")
                }
                guard let groupParameters = group["parameters"] else { continue }
                guard case .object(let members) = groupParameters else {
                    throw PayloadError(
                        format: name, reason: "a group's \"parameters\" must be an object, found a JSON \(groupParameters.kind)",
                        path: "parameterGroups.\(groupName).parameters")
                }
                sections.append(Section(group: groupName, members: members))
            }
        }
        return sections
    }

    /// Adds one parameter read from the template: its default, and rules when it has conditional values.
    private func add(
        _ parameter: Parameter, key: String, path: ParameterPath, conditions: [FirebaseCondition], to decoded: inout Decoded
    ) {
        let defaultValue = parameter.defaultValue.configValue
        decoded.template.values[key] = defaultValue
        guard !parameter.conditionalValues.isEmpty else {
            decoded.values[key] = defaultValue
            return
        }
        let candidates = conditions.compactMap { condition in
            parameter.conditionalValues[condition.name].map {
                FirebaseParameterRules.Candidate(
                    condition: condition, value: $0.configValue, problems: condition.problems(forKey: key))
            }
        }
        let defined = Set(conditions.map(\.name))
        let orphans = parameter.conditionalValues.keys.filter { !defined.contains($0) }.sorted().map { condition in
            RuleProblem(
                key: key, ruleID: condition, path: path.text(".conditionalValues.\(condition)"),
                kind: .unparsable("the template defines no condition \"\(condition)\", so this conditional value is never served")
            )
        }
        decoded.rules[key] = FirebaseParameterRules(
            key: key, defaultValue: defaultValue, candidates: candidates, orphans: orphans)
        // The rules serve the default themselves; the payload holds it too unless a conditional value
        // serves the app's default (nothing), which a value held for the key would replace.
        if !parameter.conditionalValues.values.contains(where: { $0.configValue == nil }) {
            decoded.values[key] = defaultValue
        }
    }

    /// Each part of a condition that cannot be read, and each unnamed condition, as a report, in template order.
    private func conditionProblems(_ reader: ConditionReader) -> [PayloadError] {
        var found: [(index: Int, issue: FirebaseCondition.Issue, prefix: String)] = reader.unnamed.map {
            ($0.index, $0.issue, "")
        }
        for condition in reader.conditions {
            found += condition.issues.map { (condition.index, $0, "condition \"\(condition.name)\": ") }
        }
        // Stable: the issues of one condition keep their order.
        let ordered = found.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
        return ordered.map { _, entry in
            PayloadError(
                format: name, reason: entry.prefix + RuleProblem(key: "", kind: entry.issue.kind).reason, path: entry.issue.path)
        }
    }
}
