import Foundation

/// A Firebase Remote Config template shaped like a console export, and the plain JSON object of
/// the same keys and values, for timing `FirebaseTemplateFormat` against `PlainJSONFormat`.
///
/// Parameter `i` is named `p<i, 5 digits>_<kind>`; by `i % 10` it is a BOOLEAN (0, 5), an integer
/// NUMBER (1), a fractional NUMBER (2), a STRING (3, 4, 6, 9; 9 with no `valueType`), a JSON
/// object (7), or a STRING with `conditionalValues` (8). Every third parameter has a description.
/// The first 60% are top-level `parameters`; the rest are spread over four `parameterGroups`.
/// The template also has two conditions and a version block. The `format.*` benchmarks time these bytes.
package enum TemplateWorkload {
    package static func name(_ index: Int) -> String {
        let digits = String(index)
        let padded = String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        return "p" + padded + ["_b", "_i", "_d", "_s", "_e", "_b", "_u", "_j", "_c", "_l"][index % 10]
    }

    /// The parameter's `valueType` (nil: the member is left out) and its `defaultValue.value` text.
    package static func parameter(_ index: Int) -> (type: String?, value: String) {
        switch index % 10 {
        case 0, 5: return ("BOOLEAN", index % 4 < 2 ? "true" : "false")
        case 1: return ("NUMBER", String(index * 7))
        case 2: return ("NUMBER", String(Double(index) + 0.25))
        case 3: return ("STRING", "value-\(index)")
        case 4: return ("STRING", ["fast", "safe", "auto"][index % 3])
        case 6: return ("STRING", "https://config.example.com/v1/items?id=\(index)")
        case 7:
            return ("JSON", #"{"enabled":true,"rollout":0.5,"variant":"b","limits":[10,20,\#(index)],"owner":null}"#)
        case 8: return ("STRING", "Welcome back, friend \(index)!")
        default: return (nil, "legacy-\(index)")
        }
    }

    /// The template's bytes.
    package static func template(parameters count: Int) -> Data {
        let topLevel = count * 6 / 10
        func member(_ index: Int) -> String {
            let (type, value) = parameter(index)
            var out = "\"\(name(index))\": {\"defaultValue\": {\"value\": \(quoted(value))}"
            if index % 10 == 8 {
                out += ", \"conditionalValues\": {\"ios\": {\"value\": \(quoted("Hi from iOS \(index)"))},"
                out += " \"beta_users\": {\"useInAppDefault\": true}}"
            }
            if index % 3 == 0 { out += ", \"description\": \"What parameter \(index) controls, for the console\"" }
            if let type { out += ", \"valueType\": \"\(type)\"" }
            return out + "}"
        }
        var out = """
            {"conditions": [
              {"name": "ios", "expression": "device.os == 'ios'", "tagColor": "BLUE"},
              {"name": "beta_users", "expression": "percent <= 10", "tagColor": "GREEN"}],
            "parameters": {
            """
        out += (0..<min(topLevel, count)).map { "  " + member($0) }.joined(separator: ",\n")
        out += "},\n\"parameterGroups\": {"
        let grouped = Array(topLevel..<count)
        let groupCount = 4
        var groups: [String] = []
        for group in 0..<groupCount {
            let members = grouped.enumerated().filter { $0.offset % groupCount == group }.map { "    " + member($0.element) }
            if members.isEmpty { continue }
            groups.append(
                "\n  \"group_\(group)\": {\"description\": \"Group \(group)\", \"parameters\": {\n"
                    + members.joined(separator: ",\n") + "}}")
        }
        out += groups.joined(separator: ",") + "},\n"
        out += """
            "version": {"versionNumber": "42", "updateTime": "2025-05-01T10:00:00.000000Z",
              "updateUser": {"email": "someone@example.com"}, "updateOrigin": "CONSOLE", "updateType": "INCREMENTAL_UPDATE"}}
            """
        return Data(out.utf8)
    }

    /// The plain JSON object of the same keys and the values the template decodes to.
    package static func plainJSON(parameters count: Int) -> Data {
        let members = (0..<count).map { index -> String in
            let (type, value) = parameter(index)
            let json: String
            switch type {
            case "BOOLEAN", "NUMBER", "JSON": json = value
            default: json = quoted(value)
            }
            return "\"\(name(index))\": \(json)"
        }
        return Data(("{" + members.joined(separator: ", ") + "}").utf8)
    }

    /// `text` as a JSON string literal (the workload's text needs only quotes and backslashes escaped).
    package static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
