import ConfigDomain
import ConfigPorts
import Foundation

/// Reads ConfigCat's config JSON (v6, the `config_v6.json` ConfigCat's SDKs download) and its local
/// override files, and evaluates each setting on the device as ConfigCat's SDKs do.
///
/// ```json
/// {
///   "p": { "u": "https://cdn-global.configcat.com", "r": 0, "s": "salt" },
///   "s": [{ "n": "Beta users", "r": [{ "a": "Email", "c": 2, "l": ["@example.com"] }] }],
///   "f": {
///     "newCheckout": {
///       "t": 0, "v": { "b": false }, "i": "off",
///       "r": [
///         { "c": [{ "s": { "s": 0, "c": 0 } }], "s": { "v": { "b": true }, "i": "on" } },
///         { "c": [{ "u": { "a": "Country", "c": 0, "l": ["DE", "AT"] } }],
///           "p": [{ "p": 20, "v": { "b": true }, "i": "de-on" }, { "p": 80, "v": { "b": false }, "i": "de-off" }] }
///       ]
///     }
///   }
/// }
/// ```
///
/// Each setting becomes one key named by its setting key, with rules that answer as ConfigCat does
/// (``DecodedPayload/evaluate(_:in:)`` gives the value, the variation ID as the variant, the reason
/// and the rule or percentage option that decided): targeting rules with conditions joined by AND
/// (user conditions with every comparator, segments, prerequisite flags), percentage options on the
/// identifier or the setting's attribute, and the setting's value. ``decode(_:)`` gives each
/// setting's own value as the key's plain value.
///
/// The context is the User Object: the targeting key is `Identifier`, the attributes `email` and
/// `country` are `Email` and `Country`, any other attribute a custom attribute of its name; an empty
/// context is no User Object. The local override form `{"flags": {"key": value}}` serves each
/// Boolean, string or number value to everyone.
///
/// A setting of the wrong shape is rejected alone with a ``RuleProblem``; the rest of the config
/// activates. What ConfigCat's SDKs check only while evaluating (a value of the wrong type, a missing
/// prerequisite flag, a circular dependency) fails the evaluations that reach it: `ERROR` with
/// `PARSE_ERROR` and ConfigCat's message; ``TargetingRules/lint()`` reports it beforehand.
///
/// `FORMAT.md` beside this file lists what is supported and every difference from ConfigCat's SDKs;
/// a differential test checks the format against ConfigCat's Python SDK.
public struct ConfigCatFormat: PayloadFormat {
    /// `configcat`.
    public let name = "configcat"
    /// The parser used, with its depth limit.
    public var parser: JSONParser

    /// Creates the format.
    public init(parser: JSONParser = JSONParser()) {
        self.parser = parser
    }

    /// Every setting as a key with rules, each setting's own value as its plain value, and the
    /// problems that rejected settings.
    ///
    /// - Throws: ``PayloadError`` when the bytes are not a JSON object, the object has none of `f`,
    ///   `p` and `flags`, or `f`, `flags`, `p` or `s` (or the salt `p.s`) is of the wrong type.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let document = try parser.parseObject(
            bytes, format: name, requirement: "the top level must be ConfigCat config JSON, an object with \"f\" or \"flags\"")
        var reader = ConfigCatReader(format: name)
        let config = try reader.read(document)
        var values: [String: ConfigValue] = [:]
        var rules: [String: any TargetingRules] = [:]
        for (key, setting) in config.settings {
            rules[key] = ConfigCatSettingRules(key: key, config: config)
            if let value = try? setting.served.value.unwrap(as: setting.type),
                (try? setting.served.value.settingType(declared: setting.type)) != nil
            {
                values[key] = value
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: reader.problems)
    }

    /// Whether `document` looks like ConfigCat's: config JSON (an object with `f`, an object of
    /// setting objects) or a simple override file (an object with `flags`, a non-empty object of
    /// Booleans, strings and numbers). A flagd flag set, whose `flags` hold objects, does not.
    public static func recognizes(_ document: ConfigValue) -> Bool {
        guard case .object(let members) = document else { return false }
        if case .object(let settings)? = members["f"] {
            return settings.values.allSatisfy { $0.objectValue != nil }
        }
        guard case .object(let flags)? = members["flags"], !flags.isEmpty else { return false }
        return flags.values.allSatisfy { value in
            switch value {
            case .bool, .string, .int, .double: true
            default: false
            }
        }
    }

    /// Whether `bytes` are JSON that ``recognizes(_:)-(ConfigValue)`` accepts.
    public static func recognizes(_ bytes: Data) -> Bool {
        guard let document = try? JSONParser().parse(bytes) else { return false }
        return recognizes(document)
    }
}
