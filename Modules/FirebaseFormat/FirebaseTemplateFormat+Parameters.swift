import ConfigDomain
import ConfigPorts
import Foundation

/// Reading one parameter: its default value and conditional values, converted by its `valueType`.
extension FirebaseTemplateFormat {
    /// What a parameter serves: a value, or the app's own default (`useInAppDefault`).
    enum ParameterValue: Sendable {
        case value(ConfigValue)
        case inAppDefault

        /// The value, or nil for the app's default.
        var configValue: ConfigValue? {
            if case .value(let value) = self { value } else { nil }
        }
    }

    /// A parameter as read: its default and its conditional values by condition name.
    struct Parameter: Sendable {
        let defaultValue: ParameterValue
        let conditionalValues: [String: ParameterValue]
    }

    /// The parameters of the top level (`group` nil) or of one group.
    struct Section {
        let group: String?
        let members: [String: ConfigValue]
    }

    /// Where a parameter is, made into text only for a message: `parameters.<key>` or
    /// `parameterGroups.<group>.parameters.<key>`, then `suffix`.
    struct ParameterPath {
        let group: String?
        let key: String

        func text(_ suffix: String = "") -> String {
            if let group { return "parameterGroups.\(group).parameters.\(key)\(suffix)" }
            return "parameters.\(key)\(suffix)"
        }
    }

    /// The report of a name defined more than once, listing every path, in the first of `sections`
    /// (which holds the name).
    func duplicateProblem(_ key: String, in sections: ArraySlice<Section>) -> PayloadError {
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

    /// The parameter's default and conditional values, or why it is invalid.
    func parameter(_ parameter: ConfigValue, at path: ParameterPath) throws(PayloadError) -> Parameter {
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
        let defaultValue = try value(members["defaultValue"], type: valueType, at: path, ".defaultValue", kind: "default")
        var conditionalValues: [String: ParameterValue] = [:]
        switch members["conditionalValues"] {
        case nil, .null?: break
        case .object(let entries)?:
            for (condition, entry) in entries {
                let suffix = ".conditionalValues.\(condition)"
                conditionalValues[condition] = try value(entry, type: valueType, at: path, suffix, kind: "conditional")
            }
        case let other?:
            throw PayloadError(
                format: name,
                reason: "\"conditionalValues\" must be an object of values by condition name, found a JSON \(other.kind)",
                path: path.text(".conditionalValues"))
        }
        return Parameter(defaultValue: defaultValue, conditionalValues: conditionalValues)
    }

    /// A parameter value object (`{"value": "…"}` or `{"useInAppDefault": true}`) at `path` + `suffix`;
    /// an absent one, or one with neither member, is the app's default (`FORMAT.md` says how
    /// Firebase's SDKs read one with neither member).
    private func value(
        _ wrapper: ConfigValue?, type valueType: String, at path: ParameterPath, _ suffix: String, kind: String
    ) throws(PayloadError) -> ParameterValue {
        guard let wrapper else { return .inAppDefault }
        guard case .object(let members) = wrapper else {
            throw PayloadError(
                format: name, reason: "a \(kind) value must be an object, found a JSON \(wrapper.kind)", path: path.text(suffix))
        }
        if members["useInAppDefault"] == .bool(true) { return .inAppDefault }
        guard let raw = members["value"] else {
            if members["personalizationValue"] != nil || members["rolloutValue"] != nil {
                throw PayloadError(
                    format: name,
                    reason: "personalization and rollout \(kind) values are not supported; give the parameter a plain \"value\"",
                    path: path.text(suffix))
            }
            return .inAppDefault
        }
        guard case .string(let text) = raw else {
            throw PayloadError(
                format: name, reason: "a \(kind) value must be a JSON string, found a JSON \(raw.kind)",
                path: path.text(suffix + ".value"))
        }
        return .value(try typed(text, valueType: valueType, at: path.text(suffix + ".value"), typePath: path.text(".valueType")))
    }

    /// `text` converted by `valueType` (see the type table in ``FirebaseTemplateFormat``).
    private func typed(_ text: String, valueType: String, at path: String, typePath: String) throws(PayloadError) -> ConfigValue {
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
                    path: path)
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
                    path: path)
            }
        default:
            throw PayloadError(
                format: name,
                reason: "unknown valueType \"\(Self.excerpt(valueType))\"; expected STRING, BOOLEAN, NUMBER or JSON",
                path: typePath)
        }
    }

    /// A `NUMBER` value: JSON number grammar first (so `20` is an int and `0.5` a double), then
    /// the looser forms Firebase accepts (`.5`, `+3`, `1.`), which become doubles.
    private func number(_ text: String, path: String) throws(PayloadError) -> ConfigValue {
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
            format: name, reason: "a NUMBER parameter must be a finite number, found \"\(Self.excerpt(text))\"", path: path)
    }

    private static func excerpt(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
