import ConfigDomain
import ConfigPorts
import Foundation

/// Reads LaunchDarkly's server-side flag data and evaluates it on the device and on servers, as
/// LaunchDarkly's own evaluator (its server-side SDKs) does.
///
/// It reads what a server-side SDK downloads, the data of a streaming `put` or of `/sdk/latest-all`
/// (also as the whole `put` event, `{"path": "/", "data": {…}}`), and LaunchDarkly's file data source
/// format (JSON, with `flags`, `flagValues` and `segments`):
///
/// ```json
/// {
///   "flags": {
///     "new-checkout": {
///       "key": "new-checkout", "version": 12, "on": true, "salt": "a1b2",
///       "variations": [false, true], "offVariation": 0,
///       "targets": [{ "values": ["user-42"], "variation": 1 }],
///       "rules": [{ "id": "beta", "clauses": [{ "attribute": "email", "op": "endsWith", "values": ["@example.com"] }],
///                   "variation": 1 }],
///       "fallthrough": { "rollout": { "variations": [{ "variation": 0, "weight": 90000 }, { "variation": 1, "weight": 10000 }] } }
///     }
///   },
///   "segments": {}
/// }
/// ```
///
/// Each flag becomes one key named by its flag key, whose value is the variation LaunchDarkly's evaluator
/// serves the context (``DecodedPayload/evaluate(_:in:)`` gives it, the variation index as the variant,
/// OpenFeature's reason and error code, and LaunchDarkly's own reason in the flag metadata): the off
/// variation when the flag is off (`DISABLED`) or a prerequisite fails (`DEFAULT`); the variation of a
/// matching individual target or rule (`TARGETING_MATCH`, or `SPLIT` for a rule's rollout); else the
/// fallthrough (`DEFAULT`, or `SPLIT` for a rollout or experiment). Rules read contexts with every
/// operator LaunchDarkly has, segments included; rollouts bucket as LaunchDarkly does (SHA-1 of
/// `key.salt.value`, or `seed.value`).
///
/// The library's ``EvaluationContext`` is LaunchDarkly's context as its OpenFeature providers map it: the
/// targeting key is the key, the attribute `kind` the context kind (`user` without one), `name` and
/// `anonymous` the built-in attributes, the other attributes custom ones; `"kind": "multi"` makes each object
/// attribute the context of the kind it is named after. A context LaunchDarkly would refuse (no key, a bad
/// kind) answers `ERROR` (`TARGETING_KEY_MISSING` or `INVALID_CONTEXT`).
///
/// A flag that cannot be read (a member of the wrong type, a rule without clauses) is rejected alone with
/// ``RuleProblem``s (`PARSE_ERROR`); the rest of the payload activates. Only bytes that are not JSON and a
/// document without `flags`, `flagValues` or `segments` (or whose sections are not objects) refuse the
/// whole payload.
///
/// `FORMAT.md` beside this file lists what is read, how contexts and answers map, and every difference from
/// LaunchDarkly's evaluator; a differential test checks the format against LaunchDarkly's Python server SDK.
public struct LaunchDarklyFormat: PayloadFormat {
    /// `launchdarkly`.
    public let name = "launchdarkly"
    /// The parser used, with its depth limit (rules nest deeper than values do: 128 by default).
    public var parser: JSONParser

    /// Creates the format.
    public init(parser: JSONParser = JSONParser(maxDepth: 128)) {
        self.parser = parser
    }

    /// Every flag as a key with rules, and the problems that rejected flags.
    ///
    /// - Throws: ``PayloadError`` when the bytes are not JSON, the top level is not an object, it has none of
    ///   `flags`, `flagValues` and `segments` (nor a `put` event's `data` with them), or one of them is not an object.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let members = try parser.parseObject(
            bytes, format: name, requirement: "the top level must be LaunchDarkly flag data, an object with \"flags\"")
        let reader = try LaunchDarklyReader(members, format: name)
        let data = reader.dataSet
        var rules: [String: any TargetingRules] = [:]
        for flag in data.flags.values {
            rules[flag.key] = LaunchDarklyFlagRules(flag: flag, data: data)
        }
        return DecodedPayload(values: [:], rules: rules, ruleProblems: reader.problems)
    }
}
