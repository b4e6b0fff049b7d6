import ConfigDomain
import Foundation
import Targeting

/// LaunchDarkly's reason for a result: its `kind` and the fields that go with it.
struct LDReason: Sendable, Hashable {
    enum Kind: String, Sendable {
        case off = "OFF"
        case `fallthrough` = "FALLTHROUGH"
        case targetMatch = "TARGET_MATCH"
        case ruleMatch = "RULE_MATCH"
        case prerequisiteFailed = "PREREQUISITE_FAILED"
        case error = "ERROR"
    }

    var kind: Kind
    var ruleIndex: Int?
    var ruleID: String?
    var prerequisiteKey: String?
    var inExperiment = false
    var errorKind: String?
    var bigSegmentsStatus: String?

    static func error(_ kind: String) -> LDReason { LDReason(kind: .error, errorKind: kind) }
}

/// What an evaluation of one flag gave: a variation (its index and value) or none, the reason, and where a
/// rollout placed the context.
struct LDDetail: Sendable {
    var variationIndex: Int64?
    var value: ConfigValue?
    var reason: LDReason
    /// For a rollout that decided: the bucket and the range it fell in.
    var bucket: BucketPlacement?

    static func error(_ kind: String) -> LDDetail { LDDetail(variationIndex: nil, value: nil, reason: .error(kind)) }
}

/// An evaluation that LaunchDarkly stops with an error: `MALFORMED_FLAG` (a prerequisite or segment cycle,
/// an invalid attribute reference) or `EXCEPTION` (what the Python SDK reports for an unexpected failure).
struct LDEvaluationError: Error {
    var errorKind: String
    var message: String

    static func malformed(_ message: String) -> LDEvaluationError {
        LDEvaluationError(errorKind: "MALFORMED_FLAG", message: message)
    }
}

/// One evaluation of a flag for a context, as LaunchDarkly's `Evaluator` performs it (server-side SDKs):
/// off, prerequisites, individual targets, rules, fallthrough; segments; bucketing. Its state (the
/// prerequisite and segment stacks that detect cycles) lives for one top-level evaluation.
struct LDEvaluation {
    let data: LDDataSet
    let context: LDContext
    let explaining: Bool
    private var originalKey = ""
    private var prerequisiteStack: [String] = []
    private var segmentStack: [String] = []
    /// `NOT_CONFIGURED` once a big (unbounded) segment was consulted: this library has no big segment store.
    private(set) var bigSegmentsStatus: String?
    /// The attributes read, when explaining.
    private(set) var attributesRead: [String] = []
    /// The first rules that did not match, when explaining.
    private(set) var unmatched: [UnmatchedRule] = []
    /// The message of the error that stopped the evaluation, if one did.
    private(set) var failure: String?

    init(data: LDDataSet, context: LDContext, explaining: Bool) {
        self.data = data
        self.context = context
        self.explaining = explaining
    }

    /// The result for `flag`: a detail, or the error that stopped the evaluation.
    mutating func evaluate(_ flag: LDFlag) -> LDDetail {
        originalKey = flag.key
        do {
            var detail = try evaluateFlag(flag)
            if let bigSegmentsStatus { detail.reason.bigSegmentsStatus = bigSegmentsStatus }
            return detail
        } catch {
            failure = error.message
            return .error(error.errorKind)
        }
    }

    // MARK: Flags

    private mutating func evaluateFlag(_ flag: LDFlag) throws(LDEvaluationError) -> LDDetail {
        if !flag.on { return Self.offValue(flag, LDReason(kind: .off)) }
        if let failed = try checkPrerequisites(flag) { return Self.offValue(flag, failed) }
        if let target = try checkTargets(flag) { return target }
        for (index, rule) in flag.rules.enumerated() {
            if try allMatch(rule.clauses) {
                let reason = LDReason(kind: .ruleMatch, ruleIndex: index, ruleID: rule.id)
                return try value(flag, rule.outcome, reason)
            }
            if explaining, unmatched.count < TargetingDecision.unmatchedLimit, flag.key.isExactly(originalKey) {
                unmatched.append(UnmatchedRule(ruleID: LDFlagRule.name(id: rule.id, index: index), reason: .conditionFailed))
            }
        }
        return try value(flag, flag.fallthrough, LDReason(kind: .fallthrough))
    }

    /// The prerequisite that failed, as a reason, or nil when all hold.
    private mutating func checkPrerequisites(_ flag: LDFlag) throws(LDEvaluationError) -> LDReason? {
        let isOriginal = flag.key.isExactly(originalKey)
        if !isOriginal { prerequisiteStack.append(flag.key) }
        defer { if !isOriginal { prerequisiteStack.removeLast() } }
        for prerequisite in flag.prerequisites {
            if prerequisite.key.isExactly(originalKey) || prerequisiteStack.contains(where: { $0.isExactly(prerequisite.key) }) {
                throw .malformed(
                    "prerequisite relationship to \"\(prerequisite.key)\" caused a circular reference; this is "
                        + "probably a temporary condition due to an incomplete update")
            }
            let key = ExactText(prerequisite.key)
            var failed = true
            if let prerequisiteFlag = data.flags[key] {
                let detail = try evaluateFlag(prerequisiteFlag)
                failed = !prerequisiteFlag.on || detail.variationIndex != prerequisite.variation
            } else if let why = data.unreadableFlags[key] {
                throw .malformed("the prerequisite \"\(prerequisite.key)\" could not be read (\(why))")
            }
            if failed { return LDReason(kind: .prerequisiteFailed, prerequisiteKey: prerequisite.key) }
        }
        return nil
    }

    /// The individual target that matched, as its result, or nil.
    private func checkTargets(_ flag: LDFlag) throws(LDEvaluationError) -> LDDetail? {
        if flag.contextTargets.isEmpty {
            guard !flag.targets.isEmpty, let user = context.individual(kind: "user") else { return nil }
            let key = ExactText(user.key)
            for target in flag.targets where target.values.contains(key) {
                return Self.variation(flag, target.variation, LDReason(kind: .targetMatch))
            }
            return nil
        }
        for target in flag.contextTargets {
            let kind = Self.kindOrUser(target.contextKind)
            guard let individual = context.individual(kind: kind) else { continue }
            let key = ExactText(individual.key)
            if kind.isExactly("user") {
                // A user target in contextTargets only holds its place: its keys are in `targets`, under the same variation.
                if let users = flag.targets.first(where: { $0.variation == target.variation }), users.values.contains(key) {
                    return Self.variation(flag, target.variation, LDReason(kind: .targetMatch))
                }
                continue
            }
            if target.values.contains(key) { return Self.variation(flag, target.variation, LDReason(kind: .targetMatch)) }
        }
        return nil
    }

    /// The variation at `index` with `reason`, or `MALFORMED_FLAG` for an index out of range.
    private static func variation(_ flag: LDFlag, _ index: Int64, _ reason: LDReason) -> LDDetail {
        guard index >= 0, index < Int64(flag.variations.count) else { return .error("MALFORMED_FLAG") }
        return LDDetail(variationIndex: index, value: flag.variations[Int(index)], reason: reason)
    }

    /// The off variation with `reason`, or no variation when the flag has none.
    private static func offValue(_ flag: LDFlag, _ reason: LDReason) -> LDDetail {
        guard let index = flag.offVariation else { return LDDetail(variationIndex: nil, value: nil, reason: reason) }
        return variation(flag, index, reason)
    }

    /// What a fixed variation or a rollout serves, with `reason`.
    private mutating func value(
        _ flag: LDFlag, _ outcome: LDVariationOrRollout, _ reason: LDReason
    ) throws(LDEvaluationError) -> LDDetail {
        if let index = outcome.variation { return Self.variation(flag, index, reason) }
        guard let rollout = outcome.rollout, let last = rollout.variations.last else { return .error("MALFORMED_FLAG") }
        let bucketBy = rollout.isExperiment ? nil : rollout.bucketBy
        let bucket = try bucketValue(
            seed: rollout.seed, kind: rollout.contextKind, key: flag.key, salt: flag.salt, bucketBy: bucketBy)
        let isExperiment = rollout.isExperiment && bucket >= 0
        var reason = reason
        var sum = 0.0
        var chosen = last
        var lower = 0.0
        var upper = 1.0
        for weighted in rollout.variations {
            let start = sum
            sum += Double(weighted.weight) / 100_000.0
            if bucket < sum {
                chosen = weighted
                (lower, upper) = (start, sum)
                break
            }
            (lower, upper) = (start, sum)
        }
        if isExperiment && !chosen.untracked { reason.inExperiment = true }
        var detail = Self.variation(flag, chosen.variation, reason)
        if detail.variationIndex != nil {
            detail.bucket = BucketPlacement(
                attribute: Self.describe(bucketBy?.text ?? "key", kind: rollout.contextKind), value: bucket, lower: lower,
                upper: upper)
        }
        return detail
    }

    // MARK: Bucketing

    /// The context's bucket in `0 ..< 1`: the first 15 hex digits of the SHA-1 of `key.salt.value` (or
    /// `seed.value`) over `0xFFFFFFFFFFFFFFF`; 0 when the value is missing or not a string or integer; -1 when
    /// the context has no individual context of `kind`.
    private mutating func bucketValue(
        seed: Int64?, kind: String?, key: String, salt: String, bucketBy: AttributeReference?
    ) throws(LDEvaluationError) -> Double {
        let kind = Self.kindOrUser(kind)
        guard let individual = context.individual(kind: kind) else { return -1 }
        let value: ConfigValue?
        if let bucketBy {
            read(bucketBy.text, kind: kind)
            value = try Self.value(of: bucketBy, in: individual)
        } else {
            value = .string(individual.key)
        }
        let text: String
        switch value {
        case .string(let string)?: text = string
        case .int(let integer)?: text = String(integer)
        default: return 0
        }
        let prefix = seed.map { String($0) } ?? "\(key).\(salt)"
        let digest = SHA.sha1("\(prefix).\(text)")
        var number: UInt64 = 0
        for byte in digest.prefix(7) { number = number << 8 | UInt64(byte) }
        number = number << 4 | UInt64(digest[7] >> 4)
        return Double(number) / Double(0xFFF_FFFF_FFFF_FFFF as UInt64)
    }

    // MARK: Clauses

    /// Whether `clause` matches the context.
    private mutating func clauseMatches(_ clause: LDClause) throws(LDEvaluationError) -> Bool {
        if case .segmentMatch = clause.op {
            for value in clause.values {
                guard case .string(let key) = value else {
                    // The SDK looks an array or object up in a dictionary, which Python cannot hash.
                    if case .array = value { throw LDEvaluationError(errorKind: "EXCEPTION", message: "unhashable segment key") }
                    if case .object = value { throw LDEvaluationError(errorKind: "EXCEPTION", message: "unhashable segment key") }
                    continue
                }
                let exact = ExactText(key)
                if let segment = data.segments[exact] {
                    if try segmentMatches(segment) { return clause.negate ? false : true }
                } else if let why = data.unreadableSegments[exact] {
                    throw .malformed("the segment \"\(key)\" could not be read (\(why))")
                }
            }
            return clause.negate
        }
        let attribute = clause.attribute
        if attribute.isKind {
            let matched = context.individuals.contains { matchesSingle(clause, .string($0.kind)) }
            return matched != clause.negate
        }
        let kind = Self.kindOrUser(clause.contextKind)
        guard let individual = context.individual(kind: kind) else { return false }
        read(attribute.text, kind: kind)
        guard let value = try Self.value(of: attribute, in: individual) else { return false }
        if case .array(let elements) = value {
            return elements.contains { matchesSingle(clause, $0) } != clause.negate
        }
        return matchesSingle(clause, value) != clause.negate
    }

    /// Whether every clause matches (a rule's clauses are ANDed), stopping at the first that does not.
    private mutating func allMatch(_ clauses: [LDClause]) throws(LDEvaluationError) -> Bool {
        for clause in clauses where !(try clauseMatches(clause)) { return false }
        return true
    }

    /// Whether `value` meets `clause`'s operator with any of its values.
    private func matchesSingle(_ clause: LDClause, _ value: ConfigValue) -> Bool {
        for (index, expected) in clause.values.enumerated() {
            let prepared = index < clause.prepared.count ? clause.prepared[index] : nil
            if LDOperators.test(clause.op, value, expected, prepared) { return true }
        }
        return false
    }

    /// The value `reference` names in `context`: `Context.get` of its first name, then members of objects;
    /// nil when missing or `null`.
    static func value(of reference: AttributeReference, in context: LDIndividualContext) throws(LDEvaluationError) -> ConfigValue?
    {
        if let error = reference.error { throw .malformed("invalid attribute reference: " + error) }
        guard let first = reference.components.first, var value = context.value(named: first) else { return nil }
        for name in reference.components.dropFirst() {
            guard case .object(let members) = value, let member = members.exactMember(name) else { return nil }
            value = member
        }
        // (Not a conditional expression: ConfigValue is ExpressibleByNilLiteral, and `nil` there would be `.null`.)
        if value.isNull { return nil }
        return value
    }

    // MARK: Segments

    private mutating func segmentMatches(_ segment: LDSegment) throws(LDEvaluationError) -> Bool {
        if segmentStack.contains(where: { $0.isExactly(segment.key) }) {
            throw .malformed(
                "segment rule referencing segment \"\(segment.key)\" caused a circular reference; this is probably a "
                    + "temporary condition due to an incomplete update")
        }
        if segment.unbounded {
            // A big segment: without a big segment store, its membership is unknown (NOT_CONFIGURED) and only its rules count.
            guard segment.generation != nil else {
                bigSegmentsStatus = "NOT_CONFIGURED"
                return false
            }
            guard context.individual(kind: Self.kindOrUser(segment.unboundedContextKind)) != nil else { return false }
            bigSegmentsStatus = "NOT_CONFIGURED"
            return try simpleSegmentMatches(segment, usingLists: false)
        }
        return try simpleSegmentMatches(segment, usingLists: true)
    }

    private mutating func simpleSegmentMatches(_ segment: LDSegment, usingLists: Bool) throws(LDEvaluationError) -> Bool {
        if usingLists {
            if keyIsIn(segment.included, kind: nil) { return true }
            for target in segment.includedContexts where keyIsIn(target.values, kind: target.contextKind) { return true }
            if keyIsIn(segment.excluded, kind: nil) { return false }
            for target in segment.excludedContexts where keyIsIn(target.values, kind: target.contextKind) { return false }
        }
        segmentStack.append(segment.key)
        defer { segmentStack.removeLast() }
        for rule in segment.rules where try segmentRuleMatches(rule, segment) { return true }
        return false
    }

    private mutating func segmentRuleMatches(_ rule: LDSegmentRule, _ segment: LDSegment) throws(LDEvaluationError) -> Bool {
        guard try allMatch(rule.clauses) else { return false }
        guard let weight = rule.weight else { return true }
        let bucket = try bucketValue(
            seed: nil, kind: rule.rolloutContextKind, key: segment.key, salt: segment.salt, bucketBy: rule.bucketBy)
        return bucket < Double(weight) / 100_000.0
    }

    /// Whether the key of the context's individual context of `kind` (`user` for nil) is in `keys`.
    private func keyIsIn(_ keys: Set<ExactText>, kind: String?) -> Bool {
        guard !keys.isEmpty, let individual = context.individual(kind: Self.kindOrUser(kind)) else { return false }
        return keys.contains(ExactText(individual.key))
    }

    // MARK: Helpers

    /// LaunchDarkly's `kind or "user"`: a missing or empty context kind is `user`.
    static func kindOrUser(_ kind: String?) -> String {
        guard let kind, !kind.isEmpty else { return "user" }
        return kind
    }

    /// An attribute's name for details: `country`, or `org:country` for another kind than `user`.
    static func describe(_ attribute: String, kind: String?) -> String {
        let kind = kindOrUser(kind)
        return kind.isExactly("user") ? attribute : "\(kind):\(attribute)"
    }

    private mutating func read(_ attribute: String, kind: String) {
        guard explaining else { return }
        let name = Self.describe(attribute, kind: kind)
        if !attributesRead.contains(name) { attributesRead.append(name) }
    }
}
