import ConfigDomain
import Foundation

/// Evaluates the features of one payload for a context, as Unleash's client specification says.
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
            evaluate(feature, reader: &reader, into: &result, checkingDependencies: true, choosingVariant: choosingVariant)
        } else {
            result.unmatched.append(UnmatchedRule(ruleID: name, reason: .other("no feature \"\(name)\" in the payload")))
        }
        result.fieldsRead = reader.fieldsRead
        return result
    }

    // MARK: Features

    private func evaluate(
        _ feature: UnleashFeature, reader: inout ContextReader, into result: inout FeatureEvaluation, checkingDependencies: Bool,
        choosingVariant: Bool
    ) {
        if checkingDependencies, !dependenciesHold(feature, reader: &reader, into: &result) { return }
        guard feature.enabled else {
            result.unmatched.append(UnmatchedRule(ruleID: "enabled", reason: .other("the feature is disabled")))
            return
        }
        guard !feature.strategies.isEmpty else {
            result.enabled = true
            result.enabledBy = TargetingMatch(ruleID: "no strategies", kind: .rule)
            guard choosingVariant else { return }
            selectFeatureVariant(feature, reader: &reader, into: &result)
            return
        }
        for (index, strategy) in feature.strategies.enumerated() {
            guard constraintsHold(strategy, of: feature, reader: &reader, into: &result) else { continue }
            switch activation(of: strategy, at: index, in: feature, reader: &reader) {
            case .on(let bucket):
                result.enabled = true
                result.enabledBy = TargetingMatch(ruleID: strategy.ruleID, kind: bucket == nil ? .rule : .rollout, bucket: bucket)
                guard choosingVariant else { return }
                if strategy.variants.isEmpty {
                    selectFeatureVariant(feature, reader: &reader, into: &result)
                } else {
                    selectVariant(
                        strategy.variants, stickiness: strategy.variantStickiness, groupId: strategy.variantGroupId,
                        ruleID: strategy.ruleID + " variants", draw: .variant(strategy: index), of: feature, reader: &reader,
                        into: &result)
                }
                return
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
    }

    /// Whether every dependency holds: the parent exists, has no dependencies of its own, and is
    /// enabled (or disabled) as required, serving one of the listed variants when some are listed.
    private func dependenciesHold(_ feature: UnleashFeature, reader: inout ContextReader, into result: inout FeatureEvaluation)
        -> Bool
    {
        for (index, dependency) in feature.dependencies.enumerated() {
            var holds = false
            // Unleash allows one level: a parent that itself depends on others never satisfies.
            if let parent = features[dependency.feature], parent.dependencies.isEmpty {
                var parentResult = FeatureEvaluation()
                evaluate(
                    parent, reader: &reader, into: &parentResult, checkingDependencies: false,
                    choosingVariant: !dependency.variants.isEmpty)
                result.problems += parentResult.problems
                if dependency.enabled {
                    holds =
                        parentResult.enabled
                        && (dependency.variants.isEmpty || dependency.variants.contains(parentResult.variantName))
                } else {
                    holds = !parentResult.enabled
                }
            }
            if !holds {
                result.unmatched.append(
                    UnmatchedRule(ruleID: "dependencies[\(index)]", reason: .prerequisiteFailed(dependency.feature)))
                return false
            }
        }
        return true
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
    private func activation(of strategy: UnleashStrategy, at index: Int, in feature: UnleashFeature, reader: inout ContextReader)
        -> Activation
    {
        let context = reader.context
        let randomBucket = { draws.draw(1...100, feature: feature.name, purpose: .rollout(strategy: index), context: context) }
        switch strategy.kind {
        case .standard:
            return .on(nil)
        case .userWithId(let userIds):
            switch reader.field("userId") {
            case .missing: return .off(.attributeMissing("userId"))
            case .unusable(let kind): return .wrongType(field: "userId", expected: "a string", found: kind)
            case .text(let userId): return userIds.contains(userId) ? .on(nil) : .off(.other("userId not in userIds"))
            }
        case .gradualRolloutUserId(let percentage, let groupId):
            return rollout(field: "userId", percentage: percentage, groupId: groupId, reader: &reader)
        case .gradualRolloutSessionId(let percentage, let groupId):
            return rollout(field: "sessionId", percentage: percentage, groupId: groupId, reader: &reader)
        case .gradualRolloutRandom(let percentage):
            return randomRollout(percentage: percentage, bucket: randomBucket())
        case .flexibleRollout(let percentage, let stickiness, let groupId):
            switch stickiness {
            case "random":
                return randomRollout(percentage: percentage, bucket: randomBucket())
            case "default":
                // The first of userId and sessionId the context has, else a random bucket.
                for field in ["userId", "sessionId"] {
                    if let id = reader.nonEmptyText(field) {
                        return rollout(id: id, attribute: field, percentage: percentage, groupId: groupId)
                    }
                }
                return randomRollout(percentage: percentage, bucket: randomBucket())
            default:
                return rollout(field: stickiness, percentage: percentage, groupId: groupId, reader: &reader)
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
        case .unknown(let name):
            return .off(.other("unknown strategy \"\(name)\""))
        }
    }

    /// A hashed rollout on `field`: off when the context lacks it.
    private func rollout(field: String, percentage: Double, groupId: String, reader: inout ContextReader) -> Activation {
        switch reader.field(field) {
        case .missing: return .off(.attributeMissing(field))
        case .unusable(let kind): return .wrongType(field: field, expected: "a string", found: kind)
        case .text(let id): return rollout(id: id, attribute: field, percentage: percentage, groupId: groupId)
        }
    }

    /// On when `percentage > 0` and the id's bucket (1 … 100) is at most `percentage`.
    private func rollout(id: String, attribute: String, percentage: Double, groupId: String) -> Activation {
        let bucket = UnleashHash.strategyValue(id: id, groupId: groupId)
        let placement = BucketPlacement(attribute: attribute, value: Double(bucket), lower: 1, upper: percentage)
        return percentage > 0 && Double(bucket) <= percentage ? .on(placement) : .off(.outsideRollout(placement))
    }

    /// On for a random `percentage` percent: a random `bucket` 1 … 100 at most `percentage`.
    private func randomRollout(percentage: Double, bucket: Int) -> Activation {
        let placement = BucketPlacement(attribute: "random", value: Double(bucket), lower: 1, upper: percentage)
        return Double(bucket) <= percentage ? .on(placement) : .off(.outsideRollout(placement))
    }

    // MARK: Variants

    /// Picks one of the feature's own variants: hashed on the first variant's stickiness, in the feature's name.
    private func selectFeatureVariant(
        _ feature: UnleashFeature, reader: inout ContextReader, into result: inout FeatureEvaluation
    ) {
        selectVariant(
            feature.variants, stickiness: feature.variants.first?.stickiness ?? "default", groupId: feature.name,
            ruleID: "variants", draw: .variant(strategy: nil), of: feature, reader: &reader, into: &result)
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
                if case .text(let value) = reader.field(override.contextName), override.values.contains(value) {
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
    /// `default` takes the first of `userId`, `sessionId` and `remoteAddress` the context has; a
    /// named field that the context lacks, like `random`, gives a random bucket.
    private func variantStickiness(_ stickiness: String, reader: inout ContextReader) -> (String, String?) {
        switch stickiness {
        case "default":
            for field in ["userId", "sessionId", "remoteAddress"] {
                if let id = reader.nonEmptyText(field) { return (field, id) }
            }
            return ("random", nil)
        case "random":
            return ("random", nil)
        default:
            return (stickiness, reader.nonEmptyText(stickiness))
        }
    }
}
