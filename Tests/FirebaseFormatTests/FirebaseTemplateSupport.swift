import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation

/// Templates for the condition tests: one parameter `p` whose default is `"off"` and whose value
/// for the condition `c` is `"on"`, so a match shows as `"on"` with `TARGETING_MATCH`.
enum FirebaseFixture {
    /// A template with the condition `c` of tree `tree` (JSON text) and the parameter `p`.
    static func template(condition tree: String) -> String {
        #"""
        {"conditions": [{"name": "c", "condition": \#(tree)}],
         "parameters": {"p": {"defaultValue": {"value": "off"}, "conditionalValues": {"c": {"value": "on"}}}}}
        """#
    }

    /// A custom signal condition's tree.
    static func signal(_ operatorName: String, key: String = "s", targets: [String]) -> String {
        let values = ConfigValue.array(targets.map(ConfigValue.string)).jsonText()
        return
            #"{"customSignal": {"customSignalOperator": "\#(operatorName)", "customSignalKey": "\#(key)", "targetCustomSignalValues": \#(values)}}"#
    }

    /// A percent condition's tree.
    static func percent(_ operatorName: String, seed: String? = nil, micro: Int? = nil, range: (Int?, Int?)? = nil) -> String {
        var fields = [#""percentOperator": "\#(operatorName)""#]
        if let seed { fields.append(#""seed": \#(ConfigValue.string(seed).jsonText())"#) }
        if let micro { fields.append(#""microPercent": \#(micro)"#) }
        if let (lower, upper) = range {
            var bounds: [String] = []
            if let lower { bounds.append(#""microPercentLowerBound": \#(lower)"#) }
            if let upper { bounds.append(#""microPercentUpperBound": \#(upper)"#) }
            fields.append(#""microPercentRange": {\#(bounds.joined(separator: ", "))}"#)
        }
        return #"{"percent": {\#(fields.joined(separator: ", "))}}"#
    }

    /// The decoded payload of `text`.
    static func payload(_ text: String) throws -> DecodedPayload {
        try FirebaseTemplateFormat().decode(Data(text.utf8))
    }

    /// What `p` serves `context` when its condition `c` is `tree`.
    static func evaluate(condition tree: String, in context: EvaluationContext) throws -> EvaluationDetails<ConfigValue?> {
        try payload(template(condition: tree)).evaluate("p", in: context)
    }

    /// Whether the condition `tree` matches `context`.
    static func matches(_ tree: String, in context: EvaluationContext = .empty) throws -> Bool {
        try evaluate(condition: tree, in: context).value == "on"
    }

    /// A context with the signal `s`.
    static func signal(_ value: ConfigValue) -> EvaluationContext {
        EvaluationContext(attributes: ["s": value])
    }
}
