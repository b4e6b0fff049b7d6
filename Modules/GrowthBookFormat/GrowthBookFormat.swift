import ConfigDomain
import ConfigPorts
import Foundation
import Targeting

/// Reads a GrowthBook SDK payload (the SDK endpoint's JSON) and evaluates its features on the device.
///
/// ```json
/// {
///   "features": {
///     "new-checkout": {
///       "defaultValue": false,
///       "rules": [
///         { "id": "fr_1", "condition": { "country": "DE" }, "force": true },
///         { "id": "fr_2", "force": true, "coverage": 0.1, "hashAttribute": "id", "hashVersion": 2 },
///         { "id": "fr_3", "key": "checkout-exp", "variations": [false, true], "weights": [0.5, 0.5],
///           "coverage": 1, "hashVersion": 2, "seed": "checkout-exp", "namespace": ["ns", 0, 0.5] }
///       ]
///     }
///   },
///   "savedGroups": { "grp_beta": ["u1", "u2"] }
/// }
/// ```
///
/// Each feature becomes one key named by its id. Its rules are evaluated for the client's
/// evaluation context (the targeting key is the attribute `id` unless the context sets one) at
/// activation and on each context change. A feature's value when no rule applies is its
/// `defaultValue`; a `null` value, a feature blocked by a gating prerequisite and a feature
/// without `defaultValue` serve nothing, so the key's own default applies.
///
/// **Strict by default.** A feature with an unknown condition operator, a malformed condition,
/// weights that do not sum to 1, a hash version other than 1 or 2, or a member of the wrong type
/// is rejected alone with ``RuleProblem``s, and the rest activate. ``Condition/Strictness/lenient``
/// behaves like GrowthBook's SDKs instead (such parts never match, weights fall back to equal).
///
/// Not supported: `encryptedFeatures` (decrypting needs the client key; the payload is refused
/// with a message), sticky bucketing (it needs stored assignments; contexts are bucketed by hash
/// alone, as by an SDK without a sticky-bucket service), and browser-only URL targeting.
///
/// `FORMAT.md` beside this file describes the mapping and every difference from GrowthBook's SDKs;
/// a differential test checks the format against GrowthBook's own SDK.
public struct GrowthBookFormat: PayloadFormat {
    /// `growthbook`.
    public let name = "growthbook"
    /// How conditions and rules of the wrong shape are treated.
    public let strictness: Condition.Strictness
    /// The parser used, with its depth limit.
    public let parser: JSONParser

    /// Creates the format.
    public init(strictness: Condition.Strictness = .strict, parser: JSONParser = JSONParser()) {
        self.strictness = strictness
        self.parser = parser
    }


    /// Features as keys with rules, their default values, and the problems that rejected features.
    ///
    /// - Throws: ``PayloadError`` when the bytes are not JSON, the top level is not an object, it
    ///   has no `features` object, or its features are encrypted.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let members = try parser.parseObject(bytes, format: name)
        if members["encryptedFeatures"] != nil, members["features"] == nil {
            throw PayloadError(
                format: name,
                reason: "the features are encrypted; turn off encryption for this SDK connection or decrypt before decoding",
                path: "encryptedFeatures")
        }
        guard let features = members["features"], features.objectValue != nil else {
            throw PayloadError(
                format: name, reason: "expected a \"features\" object (the GrowthBook SDK endpoint's payload)", path: "features")
        }
        if let groups = members["savedGroups"], groups.objectValue == nil {
            throw PayloadError(format: name, reason: "\"savedGroups\" must be an object of arrays", path: "savedGroups")
        }
        let payload = GrowthBookPayload(features: features, savedGroups: members["savedGroups"], strictness: strictness)
        let shared = GrowthBookFeatureRules.Shared(features: payload.features, savedGroups: payload.savedGroups)
        var values: [String: ConfigValue] = [:]
        var rules: [String: any TargetingRules] = [:]
        for (id, feature) in payload.features {
            if feature.rules.isEmpty {
                if let value = feature.defaultValue, !value.isNull { values[id] = value }
            } else {
                rules[id] = GrowthBookFeatureRules(id: id, payload: shared)
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: payload.problems)
    }
}
