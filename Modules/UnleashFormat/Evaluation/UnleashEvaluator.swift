import ConfigDomain
import Foundation

/// Evaluates the features of one payload for a context, as Unleash's engine (Yggdrasil) does.
struct UnleashEvaluator: Sendable {
    /// The features by name.
    let features: [String: UnleashFeature]
    /// The host name `applicationHostname` compares with, lowercased.
    let hostname: String
    /// The seed of variant hashing (Unleash's 86028157).
    let variantSeed: UInt32
    /// The payload's random draws: one per context, whichever of a feature's keys asks.
    let draws: RandomDraws

    /// Evaluates feature `name` for `context`, choosing its variant when `choosingVariant` (which
    /// reads the variant's stickiness field); an unknown feature is disabled.
    func evaluate(_ name: String, in context: EvaluationContext, choosingVariant: Bool) -> FeatureEvaluation {
        var reader = ContextReader(context)
        var result = FeatureEvaluation()
        if let feature = features[name] {
            if dependenciesHold(feature, reader: &reader, into: &result) {
                evaluate(feature, askedFor: name, reader: &reader, into: &result, choosingVariant: choosingVariant)
            }
        } else {
            result.unmatched.append(UnmatchedRule(ruleID: name, reason: .other("no feature \"\(name)\" in the payload")))
        }
        result.fieldsRead = reader.fieldsRead
        return result
    }

    // MARK: Features

    /// Evaluates `feature` (its dependencies apart). `asked` is the feature asked for: a
    /// `flexibleRollout` without a `groupId` hashes in its name, which is a parent's dependent when
    /// the parent is evaluated for a dependency (Unleash's engine evaluates it so).
    private func evaluate(
        _ feature: UnleashFeature, askedFor asked: String, reader: inout ContextReader, into result: inout FeatureEvaluation,
        choosingVariant: Bool
    ) {
        guard feature.enabled else {
            result.unmatched.append(UnmatchedRule(ruleID: "enabled", reason: .other("the feature is disabled")))
            return
        }
        var deciding: Int?
        if feature.strategies.isEmpty {
            result.enabledBy = TargetingMatch(ruleID: "no strategies", kind: .rule)
        } else {
            guard let (index, match) = decidingStrategy(of: feature, askedFor: asked, reader: &reader, into: &result) else {
                return
            }
            deciding = index
            result.enabledBy = match
        }
        result.enabled = true
        if choosingVariant {
            selectVariant(of: feature, decidedBy: deciding, reader: &reader, into: &result)
        }
    }

    /// The first strategy whose constraints and own test hold, with how it matched; nil when none does.
    private func decidingStrategy(
        of feature: UnleashFeature, askedFor asked: String, reader: inout ContextReader, into result: inout FeatureEvaluation
    ) -> (Int, TargetingMatch)? {
        for (index, strategy) in feature.strategies.enumerated() {
            guard constraintsHold(strategy, of: feature, reader: &reader, into: &result) else { continue }
            switch activation(of: strategy, at: index, in: feature, askedFor: asked, reader: &reader) {
            case .on(let bucket):
                return (index, TargetingMatch(ruleID: strategy.ruleID, kind: bucket == nil ? .rule : .rollout, bucket: bucket))
            case .off(let reason):
                result.unmatched.append(UnmatchedRule(ruleID: strategy.ruleID, reason: reason))
            case .wrongType(let field, let expected, let found):
                result.problems.append(
                    RuleProblem(
                        key: feature.name, ruleID: strategy.ruleID, path: strategy.path,
                        kind: .attributeType(attribute: field, expected: expected, found: found)))
                result.unmatched.append(UnmatchedRule(ruleID: strategy.ruleID, reason: .problem))
            }
        }
        return nil
    }

    /// Whether every dependency holds, as Unleash's engine decides: the parent exists and has no
    /// dependencies of its own; it is enabled (or, with `"enabled": false`, disabled) when evaluated
    /// under the dependent's name; and when `variants` are listed and the parent has a variant to
    /// give, that variant is listed. The parent's variant is the one its strategies would serve,
    /// whether or not its own switch is on.
    private func dependenciesHold(_ feature: UnleashFeature, reader: inout ContextReader, into result: inout FeatureEvaluation)
        -> Bool
    {
        for (index, dependency) in feature.dependencies.enumerated() {
            var holds = false
            if let parent = features[dependency.feature], parent.dependencies.isEmpty {
                var parentResult = FeatureEvaluation()
                evaluate(parent, askedFor: feature.name, reader: &reader, into: &parentResult, choosingVariant: false)
                holds = parentResult.enabled == dependency.enabled
                if holds, !dependency.variants.isEmpty,
                    let variant = variantIgnoringSwitch(of: parent, askedFor: feature.name, reader: &reader, into: &parentResult)
                {
                    holds = UnleashText.contains(dependency.variants, variant.name)
                }
                result.problems += parentResult.problems
            }
            if !holds {
                result.unmatched.append(
                    UnmatchedRule(ruleID: "dependencies[\(index)]", reason: .prerequisiteFailed(dependency.feature)))
                return false
            }
        }
        return true
    }

    /// The variant `parent` would serve were its switch on: the variants of its first strategy that
    /// holds, else its own; nil when that list serves none.
    private func variantIgnoringSwitch(
        of parent: UnleashFeature, askedFor asked: String, reader: inout ContextReader, into result: inout FeatureEvaluation
    ) -> UnleashVariant? {
        var scratch = FeatureEvaluation()
        let deciding = decidingStrategy(of: parent, askedFor: asked, reader: &reader, into: &scratch)
        // The same strategies may have been evaluated for the parent's switch: report each problem once.
        result.problems += scratch.problems.filter { !result.problems.contains($0) }
        selectVariant(of: parent, decidedBy: deciding?.0, reader: &reader, into: &scratch)
        return scratch.variant
    }

    // MARK: Strategies

    /// Whether the strategy's constraints (its own, then its segments') all hold.
    private func constraintsHold(
        _ strategy: UnleashStrategy, of feature: UnleashFeature, reader: inout ContextReader, into result: inout FeatureEvaluation
    ) -> Bool {
        for constraint in strategy.constraints {
            switch constraint.evaluate(&reader, now: Date()) {
            case .value(true):
                continue
            case .value(false):
                result.unmatched.append(
                    UnmatchedRule(ruleID: strategy.ruleID, reason: .other("constraint \(constraint.summary) is false")))
                return false
            case .wrongType(let expected, let found):
                result.problems.append(
                    RuleProblem(
                        key: feature.name, ruleID: strategy.ruleID, path: constraint.origin,
                        kind: .attributeType(attribute: constraint.contextName, expected: expected, found: found)))
                result.unmatched.append(UnmatchedRule(ruleID: strategy.ruleID, reason: .problem))
                return false
            }
        }
        return true
    }

    /// What a strategy's own test gave.
    private enum Activation {
        /// On; for a rollout, where the context landed.
        case on(BucketPlacement?)
        /// Off, and why.
        case off(UnmatchedRule.Reason)
        /// The stickiness field holds an array or object.
        case wrongType(field: String, expected: String, found: ConfigValue.Kind)
    }

    /// Whether strategy `index` of `feature` is on, by its own test (its constraints apart).
    private func activation(
        of strategy: UnleashStrategy, at index: Int, in feature: UnleashFeature, askedFor asked: String,
        reader: inout ContextReader
    ) -> Activation {
        switch strategy.kind {
        case .standard:
            return .on(nil)
        case .userWithId(let userIds):
            switch reader.field("userId") {
            case .missing: return .off(.attributeMissing("userId"))
            case .unusable(let kind): return .wrongType(field: "userId", expected: "a string", found: kind)
            case .text(let userId):
                return userIds.contains(userId) ? .on(nil) : .off(.other("userId not in userIds"))
            }
        case .gradualRolloutUserId(let percentage, let groupId):
            return rollout(field: "userId", percentage: percentage, groupId: groupId, reader: &reader)
        case .gradualRolloutSessionId(let percentage, let groupId):
            return rollout(field: "sessionId", percentage: percentage, groupId: groupId, reader: &reader)
        case .gradualRolloutRandom(let percentage):
            // Unleash's engine draws 1 … 99 and is on below the percentage: 1% is never on, 100% always.
            let bucket = draws.draw(1...99, feature: feature.name, purpose: .rollout(strategy: index), context: reader.context)
            let placement = BucketPlacement(attribute: "random", value: Double(bucket), lower: 1, upper: Double(percentage) - 1)
            return UInt64(bucket) < percentage ? .on(placement) : .off(.outsideRollout(placement))
        case .flexibleRollout(let percentage, let stickiness, let groupId):
            let group = groupId ?? asked
            switch stickiness {
            case "random":
                return randomRollout(
                    percentage: percentage, groupId: group, strategy: index, of: feature, context: reader.context)
            case "default":
                // The first of userId and sessionId the context has (even empty), else a random draw.
                for field in ["userId", "sessionId"] {
                    if let id = reader.text(field) {
                        return rollout(id: id, attribute: field, percentage: percentage, groupId: group)
                    }
                }
                return randomRollout(
                    percentage: percentage, groupId: group, strategy: index, of: feature, context: reader.context)
            default:
                return rollout(field: stickiness, percentage: percentage, groupId: group, reader: &reader)
            }
        case .remoteAddress(let ranges):
            switch reader.field("remoteAddress") {
            case .missing: return .off(.attributeMissing("remoteAddress"))
            case .unusable(let kind): return .wrongType(field: "remoteAddress", expected: "an IP address string", found: kind)
            case .text(let text):
                guard let address = IPRange.address(text) else { return .off(.other("remoteAddress is not an IP address")) }
                return ranges.contains { $0.contains(address) } ? .on(nil) : .off(.other("remoteAddress not in IPs"))
            }
        case .applicationHostname(let hostNames):
            return hostNames.contains(hostname) ? .on(nil) : .off(.other("host name \"\(hostname)\" not in hostNames"))
        case .off(let why):
            return .off(.other(why))
        case .unknown(let name):
            return .off(.other("unknown strategy \"\(name)\""))
        }
    }

    /// A hashed rollout on `field`: off when the context lacks it.
    private func rollout(field: String, percentage: Int, groupId: String, reader: inout ContextReader) -> Activation {
        switch reader.field(field) {
        case .missing: return .off(.attributeMissing(field))
        case .unusable(let kind): return .wrongType(field: field, expected: "a string", found: kind)
        case .text(let id): return rollout(id: id, attribute: field, percentage: percentage, groupId: groupId)
        }
    }

    /// On when the id's bucket (1 … 100) is at most `percentage` (so never at 0).
    private func rollout(id: String, attribute: String, percentage: Int, groupId: String) -> Activation {
        let bucket = UnleashHash.strategyValue(id: id, groupId: groupId)
        let placement = BucketPlacement(attribute: attribute, value: Double(bucket), lower: 1, upper: Double(percentage))
        return bucket <= percentage ? .on(placement) : .off(.outsideRollout(placement))
    }

    /// A rollout on a random id, as Unleash's engine makes one: a number drawn from 1 to 9999, hashed like any id.
    private func randomRollout(
        percentage: Int, groupId: String, strategy index: Int, of feature: UnleashFeature, context: EvaluationContext
    ) -> Activation {
        let draw = draws.draw(1...9_999, feature: feature.name, purpose: .rollout(strategy: index), context: context)
        let bucket = UnleashHash.strategyValue(id: String(draw), groupId: groupId)
        let placement = BucketPlacement(attribute: "random", value: Double(bucket), lower: 1, upper: Double(percentage))
        return bucket <= percentage ? .on(placement) : .off(.outsideRollout(placement))
    }

    // MARK: Variants

    /// Picks the variant of `feature` enabled by strategy `deciding` (nil: no strategy decided): the
    /// strategy's variants if it has any, hashed on its `stickiness` in its `groupId`; else the
    /// feature's own, hashed on the first variant's stickiness in the feature's name.
    private func selectVariant(
        of feature: UnleashFeature, decidedBy deciding: Int?, reader: inout ContextReader, into result: inout FeatureEvaluation
    ) {
        if let deciding, case let strategy = feature.strategies[deciding], !strategy.variants.isEmpty {
            selectVariant(
                strategy.variants, stickiness: strategy.variantStickiness, groupId: strategy.variantGroupId,
                ruleID: strategy.ruleID + " variants", draw: .variant(strategy: deciding), of: feature, reader: &reader,
                into: &result)
        } else {
            selectVariant(
                feature.variants, stickiness: feature.variants.first?.stickiness ?? "default", groupId: feature.name,
                ruleID: "variants", draw: .variant(strategy: nil), of: feature, reader: &reader, into: &result)
        }
    }

    /// Picks a variant as Unleash does: an override that matches the context wins; otherwise the
    /// `stickiness` value's bucket (1 … total weight) falls in one variant's share of the weights.
    /// Without a stickiness value, the bucket is the payload's random `draw` for this context.
    private func selectVariant(
        _ variants: [UnleashVariant], stickiness: String, groupId: String, ruleID: String, draw: RandomDraws.Purpose,
        of feature: UnleashFeature, reader: inout ContextReader, into result: inout FeatureEvaluation
    ) {
        let totalWeight = variants.reduce(0) { $0 + $1.weight }
        guard totalWeight > 0 else { return }
        for (index, variant) in variants.enumerated() {
            for override in variant.overrides {
                if let value = reader.text(override.contextName), override.values.contains(value) {
                    result.variant = variant
                    result.variantMatch = TargetingMatch(
                        ruleID: "\(ruleID)[\(index)].overrides", kind: .rule, variant: variant.name)
                    return
                }
            }
        }
        let (attribute, id) = variantStickiness(stickiness, reader: &reader)
        let bucket =
            id.map { UnleashHash.variantValue(id: $0, groupId: groupId, totalWeight: totalWeight, seed: variantSeed) }
            ?? draws.draw(1...totalWeight, feature: feature.name, purpose: draw, context: reader.context)
        var upper = 0
        for variant in variants where variant.weight > 0 {
            upper += variant.weight
            if upper >= bucket {
                result.variant = variant
                result.variantMatch = TargetingMatch(
                    ruleID: ruleID, kind: .rollout,
                    bucket: BucketPlacement(
                        attribute: attribute, value: Double(bucket), lower: Double(upper - variant.weight + 1),
                        upper: Double(upper)),
                    variant: variant.name)
                return
            }
        }
    }

    /// The field a variant bucket hashes and its value; nil value for a random bucket.
    ///
    /// `default` takes the first of `userId` and `sessionId` the context has (an empty one too);
    /// any other name is a field (`random` too), and a field the context lacks gives a random bucket.
    private func variantStickiness(_ stickiness: String, reader: inout ContextReader) -> (String, String?) {
        guard stickiness == "default" else {
            let id = reader.text(stickiness)
            return (id == nil ? "random" : stickiness, id)
        }
        for field in ["userId", "sessionId"] {
            if let id = reader.text(field) { return (field, id) }
        }
        return ("random", nil)
    }
}
