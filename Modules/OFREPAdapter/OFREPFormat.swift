import ConfigDomain
import ConfigPorts
import Foundation

/// The payload format of ``OFREPFetcher``: an OFREP bulk evaluation response, evaluated by the server
/// for one context.
///
/// ```json
/// {"flags": [
///   {"key": "new-checkout", "value": true, "reason": "TARGETING_MATCH", "variant": "on", "metadata": {"team": "web"}},
///   {"key": "banner", "value": "Hi", "reason": "STATIC"},
///   {"key": "beta", "reason": "DEFAULT"},
///   {"key": "theme", "errorCode": "TARGETING_KEY_MISSING", "errorDetails": "needs a user"}
/// ]}
/// ```
///
/// - A flag with a `value` serves it, with the server's reason, variant and metadata, which a
///   client's details report as they are (``OFREPEvaluatedRules``, `DecodedPayload.flagMetadata`).
///   A `STATIC` flag with no variant and no metadata is a plain value.
/// - A flag without a `value` (OFREP's code default) serves nothing: the app's default applies.
/// - A flag with an `errorCode` is refused alone: `FLAG_NOT_FOUND` is left out (as if the server had
///   no such flag), any other code rejects the key's remote value with a
///   ``ConfigDomain/RuleProblem/Kind/remoteEvaluation(errorCode:details:)`` problem, so the key keeps
///   its last good value or its default, the rejection is reported, and details give the server's code
///   and words, and the metadata the failure carries.
/// - A response that is not an object with a `flags` array, or a flag that is not an object with a
///   string `key`, refuses the whole payload with a ``ConfigDomain/PayloadError`` naming the place.
///
/// ``flags(in:)`` returns every flag with its reason, variant and metadata as the server sent them.
public struct OFREPFormat: PayloadFormat {
    /// `ofrep`.
    public let name = "ofrep"
    /// The parser used, with its depth limit.
    public let parser: JSONParser

    /// Creates the format.
    public init(parser: JSONParser = JSONParser()) { self.parser = parser }

    /// The values, the server's decisions as rules, and the refused flags as rule problems.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        var values: [String: ConfigValue] = [:]
        var rules: [String: any TargetingRules] = [:]
        var problems: [String: [RuleProblem]] = [:]
        var metadata: [String: [String: ConfigValue]] = [:]
        var seen: Set<String> = []
        for (index, flag) in try flags(in: bytes).enumerated() {
            let key = flag.key
            guard seen.insert(key).inserted else {
                values[key] = nil
                rules[key] = nil
                metadata[key] = nil
                problems[key] = [
                    RuleProblem(
                        key: key, path: "flags[\(index)]",
                        kind: .unparsable(
                            "the bulk evaluation lists the flag \"\(key)\" twice; the server must list each flag once"))
                ]
                continue
            }
            if let code = flag.errorCode {
                if code == EvaluationErrorCode.flagNotFound.rawValue { continue }
                // OFREP's evaluation failure may carry the flag's metadata; OpenFeature reports it with the error.
                if !flag.metadata.isEmpty { metadata[key] = flag.metadata }
                problems[key] = [
                    RuleProblem(
                        key: key, path: "flags[\(index)]", kind: .remoteEvaluation(errorCode: code, details: flag.errorDetails))
                ]
                continue
            }
            if let value = flag.value { values[key] = value }
            if !flag.metadata.isEmpty { metadata[key] = flag.metadata }
            if flag.evaluationReason != .staticValue || flag.variant != nil || !flag.metadata.isEmpty || flag.value == nil {
                rules[key] = OFREPEvaluatedRules(flag: flag)
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: problems, flagMetadata: metadata)
    }

    /// Every flag of a bulk evaluation response, in the server's order, as the server sent it.
    ///
    /// - Throws: ``ConfigDomain/PayloadError`` when the bytes are not JSON, not an object with a
    ///   `flags` array, or a flag is not an object with a string `key`.
    public func flags(in bytes: Data) throws(PayloadError) -> [OFREPFlag] {
        let document = try parser.parse(bytes, format: name)
        guard case .object(let members) = document else {
            throw PayloadError(format: name, reason: "the top level must be an object with a \"flags\" array (a bulk evaluation)")
        }
        guard let list = members["flags"] else {
            let hint =
                members["errorCode"] != nil
                ? "; it is an error answer (errorCode \(members["errorCode"]?.jsonText() ?? "?"))" : ""
            throw PayloadError(
                format: name, reason: "the bulk evaluation has no \"flags\" array\(hint)", path: "flags")
        }
        guard case .array(let items) = list else {
            throw PayloadError(format: name, reason: "\"flags\" must be an array, found \(list.kind)", path: "flags")
        }
        var flags: [OFREPFlag] = []
        flags.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let path = "flags[\(index)]"
            guard case .object(let fields) = item else {
                throw PayloadError(format: name, reason: "each flag must be an object, found \(item.kind)", path: path)
            }
            guard let key = fields["key"]?.stringValue, !key.isEmpty else {
                throw PayloadError(format: name, reason: "the flag has no \"key\" string", path: path + ".key")
            }
            var metadata: [String: ConfigValue] = [:]
            if case .object(let entries)? = fields["metadata"] { metadata = entries }
            flags.append(
                OFREPFlag(
                    key: key, value: fields["value"], reason: fields["reason"]?.stringValue,
                    variant: fields["variant"]?.stringValue, metadata: metadata, errorCode: fields["errorCode"]?.stringValue,
                    errorDetails: fields["errorDetails"]?.stringValue))
        }
        return flags
    }
}
