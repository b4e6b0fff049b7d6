import ConfigDomain
import ConfigPorts
import Foundation

/// One flagd flag as a key's ``TargetingRules``: its state, its targeting and its default variant,
/// decided as flagd's evaluator decides them.
struct FlagdFlagRules: TargetingRules {
    /// The name matches carry: a flag has one targeting rule.
    static let ruleID = "targeting"

    let flag: FlagdFlag
    let hashing: FlagdFormat.FractionalHashing
    let clock: any ConfigClock

    /// flagd's answer for `context`:
    /// - a `DISABLED` flag: reason `DISABLED`, no value;
    /// - no targeting: the default variant with `STATIC`;
    /// - targeting that returns a variant's name (a Boolean as `true`/`false`, a number as its
    ///   text): that variant with `TARGETING_MATCH`; `null`: the default variant with `DEFAULT`;
    ///   anything else, or a rule that fails: `ERROR` with `GENERAL`, no value;
    /// - no default variant (`null`): no value, reason `DEFAULT`; a default variant that is not one
    ///   of the variants: `ERROR` with `GENERAL`.
    func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
        guard flag.isEnabled else { return TargetingDecision(value: nil, reason: .disabled) }
        guard let targeting = flag.targeting else { return defaultVariant(.staticValue, read: []) }
        var evaluator = LogicEvaluator(flagKey: flag.key, hashing: hashing)
        let result: ConfigValue
        do {
            result = try evaluator.evaluate(targeting, data: data(for: context))
        } catch {
            return .failure(.general, "the targeting failed: \(error.message)", attributesRead: evaluator.attributesRead)
        }
        let read = evaluator.attributesRead
        if result.isNull { return defaultVariant(.defaultValue, read: read) }
        guard let name = LogicValues.variantName(result) else {
            return .failure(
                .general, "the targeting returned a\(result.kind == .array ? "n" : "") \(result.kind), not a variant's name",
                attributesRead: read)
        }
        guard let value = flag.variant(named: name) else {
            return .failure(
                .general, "the targeting returned \"\(name)\", which is not one of the variants (\(flag.variantNames))",
                attributesRead: read)
        }
        guard !value.isNull else {
            return .failure(.general, "the targeting chose the variant \"\(name)\", whose value is null", attributesRead: read)
        }
        var match = TargetingMatch(ruleID: Self.ruleID, kind: .rule, variant: name)
        if let split = evaluator.lastSplit, LogicValues.variantName(split.variant) == name {
            match.kind = .rollout
            match.bucket = BucketPlacement(
                attribute: split.hashed, value: Double(split.bucket), lower: Double(split.lower), upper: Double(split.upper))
        }
        return TargetingDecision(value: value, match: match, attributesRead: read, reason: .targetingMatch)
    }

    /// A default variant that is not one of the variants, as a warning (flagd's daemon refuses such a flag set).
    func lint() -> [RuleProblem] {
        guard let name = flag.defaultVariant, flag.variant(named: name) == nil else { return [] }
        return [
            RuleProblem(
                key: flag.key, path: "flags.\(flag.key).defaultVariant",
                kind: .unparsable("the default variant \"\(name)\" is not one of the variants (\(flag.variantNames))"))
        ]
    }

    /// The default variant with `reason`; no value (`DEFAULT`) without one.
    private func defaultVariant(_ reason: EvaluationReason, read: [String]) -> TargetingDecision {
        guard let name = flag.defaultVariant else {
            return TargetingDecision(value: nil, attributesRead: read, reason: .defaultValue)
        }
        guard let value = flag.variant(named: name) else {
            return .failure(
                .general, "the default variant \"\(name)\" is not one of the variants (\(flag.variantNames))",
                attributesRead: read)
        }
        return TargetingDecision(value: value, attributesRead: read, reason: reason, defaultVariant: name)
    }

    /// The object the targeting reads: the context's attributes, `targetingKey` (the context's, or
    /// `null`) and `$flagd` with `flagKey` and `timestamp` (Unix seconds), as flagd sets them.
    private func data(for context: EvaluationContext) -> ConfigValue {
        var members = context.attributes
        let seconds = clock.now().timeIntervalSince1970.rounded(.towardZero)
        members["$flagd"] = .object(["flagKey": .string(flag.key), "timestamp": .int(Int64(exactly: seconds) ?? 0)])
        members["targetingKey"] = context.targetingKey.map(ConfigValue.string) ?? .null
        return .object(members)
    }
}
