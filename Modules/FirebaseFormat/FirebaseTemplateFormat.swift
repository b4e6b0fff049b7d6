import ConfigDomain
import ConfigPorts
import Foundation

/// Reads a Firebase Remote Config template, as exported from the Firebase console or returned by
/// the Remote Config REST API, so an app can move off Firebase by hosting its exported template.
///
/// A template looks like this (other members are ignored):
///
/// ```json
/// {
///   "parameters": {
///     "welcome": { "defaultValue": { "value": "Hi" }, "valueType": "STRING" },
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
///   "conditions": [],
///   "version": { "versionNumber": "12" }
/// }
/// ```
///
/// Each parameter becomes one key (groups only organise; a grouped parameter's key is its own
/// name, without the group's). Its `defaultValue.value` string is converted by `valueType`:
///
/// | `valueType` | value |
/// |---|---|
/// | `STRING`, missing, or `PARAMETER_VALUE_TYPE_UNSPECIFIED` | ``ConfigValue/string(_:)``, verbatim |
/// | `BOOLEAN` | `true` or `false` (any case, surrounding spaces ignored) |
/// | `NUMBER` | ``ConfigValue/int(_:)`` when written without fraction or exponent and it fits, else ``ConfigValue/double(_:)`` |
/// | `JSON` | the parsed JSON value (object, array, or any other JSON value) |
///
/// **Not supported: conditions.** Only `defaultValue` is used. `conditions` and every
/// parameter's `conditionalValues` are ignored, as are personalization and rollout values; this
/// format serves what Firebase serves a client that matches no condition.
///
/// A parameter whose `defaultValue` is `{ "useInAppDefault": true }`, or that has no
/// `defaultValue`, is absent from the result, so the app's own default applies (as with Firebase).
///
/// **Bad parameters are dropped one by one.** A parameter whose value does not convert (a
/// `BOOLEAN` of `"maybe"`, a `NUMBER` of `"abc"`, malformed `JSON`), whose `valueType` is
/// unknown, whose shape is wrong, or whose name appears twice, is left out and the rest are
/// kept; its key then falls through to the cached value or the key's default. Each dropped
/// parameter is reported as a ``PayloadError`` naming its path (for example
/// `parameterGroups.checkout.parameters.new_checkout.defaultValue.value`) through
/// ``decodeTemplate(_:)`` and the optional `onDroppedParameter` handler. Set
/// ``dropsInvalidParameters`` to `false` to refuse the whole template instead.
///
/// **A broken template is refused whole** with a ``PayloadError``: bytes that are not JSON, a
/// top level that is not an object, a `parameters` or `parameterGroups` member (or a group's
/// `parameters`) that is not an object, or an object with neither `parameters` nor
/// `parameterGroups` but other members that are not a template's (a plain JSON configuration
/// given to the wrong format). `{}` and a template with only `version` decode to no values.
public struct FirebaseTemplateFormat: PayloadFormat {
    /// A decoded template: the values, and the parameters left out with why.
    public struct Template: Sendable, Hashable {
        /// The values by parameter key.
        public var values: [String: ConfigValue]
        /// The parameters left out because their value or shape is invalid, each naming its path.
        public var droppedParameters: [PayloadError]
        /// The template's `version.versionNumber`, when present.
        public var versionNumber: String?

        /// Creates a decoded template.
        public init(values: [String: ConfigValue], droppedParameters: [PayloadError] = [], versionNumber: String? = nil) {
            self.values = values
            self.droppedParameters = droppedParameters
            self.versionNumber = versionNumber
        }
    }

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

    /// Decodes the template's default values; dropped parameters go to `onDroppedParameter`.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let template = try decodeTemplate(bytes)
        if let onDroppedParameter {
            for problem in template.droppedParameters { onDroppedParameter(problem) }
        }
        return DecodedPayload(values: template.values)
    }

    /// Decodes the template, returning the values and the parameters dropped with why.
    public func decodeTemplate(_ bytes: Data) throws(PayloadError) -> Template {
        let top = try parser.parseObject(bytes, format: name, requirement: "a Firebase template is a JSON object")
        let foreign = top.keys.filter { !Self.templateMembers.contains($0) }
        if top["parameters"] == nil && top["parameterGroups"] == nil && !foreign.isEmpty {
            let found = foreign.sorted().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            throw PayloadError(
                format: name,
                reason: "this is not a Firebase Remote Config template: it has no \"parameters\" or \"parameterGroups\" "
                    + "(found \(found)); use the plain JSON format for a plain configuration object")
        }

        // The sections holding parameters: the top level first, then the groups in name order.
        // Dropped parameters are reported in that order, and by name within a section.
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

        // A name used twice is ambiguous: every occurrence is dropped, reported once where it first
        // appears. Names are unique within one object, so only two sections can repeat one.
        var names: Set<String> = []
        var duplicates: Set<String> = []
        for section in sections {
            for key in section.members.keys where !names.insert(key).inserted { duplicates.insert(key) }
        }

        var values: [String: ConfigValue] = [:]
        // Each problem with its section and name, put in report order once all are known.
        var problems: [(section: Int, key: String, problem: PayloadError)] = []
        var reported: Set<String> = []
        for (index, section) in sections.enumerated() {
            for (key, parameter) in section.members {
                if duplicates.contains(key) {
                    if reported.insert(key).inserted {
                        problems.append((index, key, duplicateProblem(key, in: sections[index...])))
                    }
                    continue
                }
                do throws(PayloadError) {
                    if let value = try convert(parameter, at: ParameterPath(group: section.group, key: key)) {
                        values[key] = value
                    }
                } catch {
                    problems.append((index, key, error))
                }
            }
        }
        problems.sort { $0.section != $1.section ? $0.section < $1.section : $0.key < $1.key }
        if !dropsInvalidParameters, let first = problems.first { throw first.problem }

        var versionNumber: String?
        if case .object(let version)? = top["version"] {
            switch version["versionNumber"] {
            case .string(let text)?: versionNumber = text
            case .int(let number)?: versionNumber = String(number)
            default: break
            }
        }
        return Template(values: values, droppedParameters: problems.map(\.problem), versionNumber: versionNumber)
    }

    /// The parameters of the top level (`group` nil) or of one group.
    private struct Section {
        let group: String?
        let members: [String: ConfigValue]
    }

    /// Where a parameter is, made into text only for a message: `parameters.<key>` or
    /// `parameterGroups.<group>.parameters.<key>`, then `suffix`.
    private struct ParameterPath {
        let group: String?
        let key: String

        func text(_ suffix: String = "") -> String {
            if let group { return "parameterGroups.\(group).parameters.\(key)\(suffix)" }
            return "parameters.\(key)\(suffix)"
        }
    }

    /// The report of a name defined more than once, listing every path, in the first of `sections`
    /// (which holds the name).
    private func duplicateProblem(_ key: String, in sections: ArraySlice<Section>) -> PayloadError {
        var paths: [String] = []
        for section in sections {
            // Each object's own spelling of the name (names compare by canonical equivalence).
            guard let index = section.members.index(forKey: key) else { continue }
            paths.append(ParameterPath(group: section.group, key: section.members[index].key).text())
        }
        return PayloadError(
            format: name,
            reason: "the parameter \"\(key)\" is defined more than once (\(paths.joined(separator: ", "))); all are ignored",
            path: paths.first)
    }

    /// The value of one parameter, `nil` when it has none (in-app default), or why it is invalid.
    private func convert(_ parameter: ConfigValue, at path: ParameterPath) throws(PayloadError) -> ConfigValue? {
        guard case .object(let members) = parameter else {
            throw PayloadError(
                format: name, reason: "a parameter must be an object, found a JSON \(parameter.kind)", path: path.text())
        }
        let valueType: String
        switch members["valueType"] {
        case nil, .null?: valueType = "STRING"
        case .string(let text)?: valueType = text
        case let other?:
            throw PayloadError(
                format: name, reason: "\"valueType\" must be a string, found a JSON \(other.kind)", path: path.text(".valueType"))
        }
        guard let defaultValue = members["defaultValue"] else { return nil }
        guard case .object(let defaultMembers) = defaultValue else {
            throw PayloadError(
                format: name, reason: "\"defaultValue\" must be an object, found a JSON \(defaultValue.kind)",
                path: path.text(".defaultValue"))
        }
        if defaultMembers["useInAppDefault"] == .bool(true) { return nil }
        guard let raw = defaultMembers["value"] else {
            if defaultMembers["personalizationValue"] != nil || defaultMembers["rolloutValue"] != nil {
                throw PayloadError(
                    format: name,
                    reason: "personalization and rollout default values are not supported; give the parameter a plain \"value\"",
                    path: path.text(".defaultValue"))
            }
            return nil
        }
        guard case .string(let text) = raw else {
            throw PayloadError(
                format: name, reason: "a default value must be a JSON string, found a JSON \(raw.kind)",
                path: path.text(".defaultValue.value"))
        }
        switch valueType {
        case "STRING", "PARAMETER_VALUE_TYPE_UNSPECIFIED":
            return .string(text)
        case "BOOLEAN":
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default:
                throw PayloadError(
                    format: name, reason: "a BOOLEAN parameter must be \"true\" or \"false\", found \"\(Self.excerpt(text))\"",
                    path: path.text(".defaultValue.value"))
            }
        case "NUMBER":
            return try number(text, path: path)
        case "JSON":
            do throws(JSONParseError) {
                return try parser.parse(text)
            } catch {
                throw PayloadError(
                    format: name,
                    reason: "a JSON parameter's value is not valid JSON at byte \(error.offset) of the value: \(error.reason)",
                    path: path.text(".defaultValue.value"))
            }
        default:
            throw PayloadError(
                format: name,
                reason: "unknown valueType \"\(Self.excerpt(valueType))\"; expected STRING, BOOLEAN, NUMBER or JSON",
                path: path.text(".valueType"))
        }
    }

    /// A `NUMBER` value: JSON number grammar first (so `20` is an int and `0.5` a double), then
    /// the looser forms Firebase accepts (`.5`, `+3`, `1.`), which become doubles.
    private func number(_ text: String, path: ParameterPath) throws(PayloadError) -> ConfigValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let parsed = try? JSONParser().parse(trimmed) {
            switch parsed {
            case .int, .double: return parsed
            default: break
            }
        }
        let numeric = !trimmed.isEmpty && trimmed.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) }
        if numeric, let double = Double(trimmed), double.isFinite {
            return .double(double)
        }
        throw PayloadError(
            format: name, reason: "a NUMBER parameter must be a finite number, found \"\(Self.excerpt(text))\"",
            path: path.text(".defaultValue.value"))
    }

    private static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
