import ConfigDomain
import ConfigPorts
import Foundation

/// Reads flagd flag definitions (schema v0, `https://flagd.dev/schema/v0/flags.json`) and evaluates
/// them on the device, as flagd's own evaluator does.
///
/// ```json
/// {
///   "$schema": "https://flagd.dev/schema/v0/flags.json",
///   "metadata": { "flagSetId": "checkout", "version": "7" },
///   "$evaluators": { "staff": { "ends_with": [{ "var": "email" }, "@example.com"] } },
///   "flags": {
///     "new-checkout": {
///       "state": "ENABLED",
///       "variants": { "on": true, "off": false },
///       "defaultVariant": "off",
///       "targeting": {
///         "if": [{ "$ref": "staff" }, "on", { "fractional": [["on", 10], ["off", 90]] }]
///       }
///     }
///   }
/// }
/// ```
///
/// Each flag becomes one key named by its flag key, with rules that answer as flagd does
/// (``DecodedPayload/evaluate(_:in:)`` gives the value, the variant, the reason and the error code):
/// a `DISABLED` flag serves nothing (reason `DISABLED`); a flag without targeting its default
/// variant (`STATIC`); targeting that returns a variant's name that variant (`TARGETING_MATCH`),
/// `null` the default variant (`DEFAULT`), anything else nothing (`ERROR`, `GENERAL`). A
/// `defaultVariant` of `null` serves nothing, so the app's default applies. ``decode(_:)`` gives each
/// enabled flag's default variant value. Each flag's `metadata`, over the flag set's, is in
/// ``DecodedPayload/flagMetadata``.
///
/// Targeting is JsonLogic with flagd's operations `fractional`, `sem_ver`, `starts_with` and
/// `ends_with`; it reads the context's attributes, `targetingKey`, `$flagd.flagKey` and
/// `$flagd.timestamp` (Unix seconds, from ``clock``).
///
/// A flag that cannot be read (a missing `state` or `variants`, an unknown operator, a `$ref` to
/// an evaluator the payload lacks, malformed metadata) is rejected alone with ``RuleProblem``s;
/// the rest of the payload activates. Only bytes that are not JSON, a document without a `flags`
/// object, and malformed `$evaluators` or flag set `metadata` refuse the whole payload.
///
/// `FORMAT.md` beside this file lists what is supported and every difference from flagd; a
/// differential test checks the format against flagd's in-process evaluator.
public struct FlagdFormat: PayloadFormat {
    /// What `fractional` hashes to place a context in a bucket.
    public enum FractionalHashing: Sendable, Hashable {
        /// The deterministic CBOR encoding of the bucketing value, or of `[flagKey, targetingKey]`
        /// without one: flagd's current rule (its decision "fractional-non-string-rand-units"), as
        /// flagd-core 2 (the in-process evaluator of flagd's Python provider) implements it.
        case cbor
        /// The UTF-8 text of a string bucketing value, or of `flagKey + targetingKey`: the rule
        /// before that decision, which flagd's daemon and providers that predate it still use.
        case concatenatedString
    }

    /// `flagd`.
    public let name = "flagd"
    /// What `fractional` hashes; ``FractionalHashing/cbor`` unless the flags are also evaluated by
    /// a flagd that still hashes text.
    public var fractionalHashing: FractionalHashing
    /// The clock that `$flagd.timestamp` reads, at each evaluation.
    public var clock: any ConfigClock
    /// The parser used, with its depth limit (targeting nests deeper than values do: 128 by default).
    public var parser: JSONParser

    /// Creates the format.
    public init(
        fractionalHashing: FractionalHashing = .cbor, clock: any ConfigClock = SystemClock(),
        parser: JSONParser = JSONParser(maxDepth: 128)
    ) {
        self.fractionalHashing = fractionalHashing
        self.clock = clock
        self.parser = parser
    }


    /// Every flag as a key with rules, each enabled flag's default variant value, each flag's
    /// metadata, and the problems that rejected flags.
    ///
    /// - Throws: ``PayloadError`` when the bytes are not JSON, the top level is not an object, it has
    ///   no `flags` object, or its `$evaluators` or `metadata` are not objects of the right values.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let members = try parser.parseObject(
            bytes, format: name, requirement: "the top level must be a flagd flag definition object with \"flags\"")
        let reader = try FlagdReader(members, format: name)
        var values: [String: ConfigValue] = [:]
        var rules: [String: any TargetingRules] = [:]
        for (key, flag) in reader.flags {
            rules[key] = FlagdFlagRules(flag: flag, hashing: fractionalHashing, clock: clock)
            if flag.isEnabled, let variant = flag.defaultVariant, let value = flag.variant(named: variant), !value.isNull {
                values[key] = value
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: reader.problems, flagMetadata: reader.metadata)
    }
}
