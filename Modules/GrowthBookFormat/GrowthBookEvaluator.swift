import ConfigDomain
import Foundation
import Targeting

/// Evaluates GrowthBook features and experiments for one context, as GrowthBook's SDKs do.
///
/// It follows GrowthBook's published evaluation order: prerequisites (`parentConditions`),
/// filters, then a force rule (condition, then rollout by `coverage` or `range`) or an experiment
/// (forced variations, activity, hash attribute, sticky bucket, filters or namespace, condition,
/// prerequisites, hash, ranges, QA mode). Browser-only steps (URL targeting, query-string
/// overrides) are not part of it. A value is mutated only by sticky bucketing, which records new
/// assignments in ``stickyBucketDocuments``.
public struct GrowthBookEvaluator: Sendable {
    /// Context-wide switches of GrowthBook's SDKs.
    public struct Options: Sendable, Hashable {
        /// Experiment key to the variation index every context gets.
        public var forcedVariations: [String: Int] = [:]
        /// QA mode: no context is bucketed into an experiment (forced variations still apply).
        public var qaMode = false
        /// False turns every experiment off.
        public var enabled = true
        /// Stored sticky-bucket documents by ``StickyBucketDocument/storageKey``; nil turns sticky bucketing off.
        /// Only documents of the context's own attribute values are used (as an SDK loads them).
        public var stickyBucketDocuments: [String: StickyBucketDocument]?

        /// Creates options: nothing forced, not QA mode, enabled, no sticky bucketing.
        public init() {}
    }

    private let features: [String: GrowthBookFeature]
    private let savedGroups: [String: [ConfigValue]]
    private let attributes: EvaluationContext
    private var options: Options
    private var evaluatedFeatures: Set<String> = []
    private var depth = 0
    /// The top-level feature's rules that did not decide, with why (for provenance).
    private(set) var skippedRules: [(index: Int, reason: UnmatchedRule.Reason)] = []

    /// Creates an evaluator of `features` for `context`; the context's targeting key is the attribute `id` when it has none.
    public init(
        features: [String: GrowthBookFeature], savedGroups: [String: [ConfigValue]], context: EvaluationContext,
        options: Options = Options()
    ) {
        self.features = features
        self.savedGroups = savedGroups
        var attributes = context
        if attributes.attributes["id"] == nil, let key = context.targetingKey { attributes.attributes["id"] = .string(key) }
        self.attributes = attributes
        self.options = options
        self.options.stickyBucketDocuments = options.stickyBucketDocuments?.filter { _, document in
            Self.storedText(attributes.attributes[document.attributeName]) == document.attributeValue
        }
    }

    /// The sticky-bucket documents after the evaluations so far (nil without sticky bucketing).
    public var stickyBucketDocuments: [String: StickyBucketDocument]? { options.stickyBucketDocuments }

    /// Evaluates the feature `id`.
    public mutating func evaluateFeature(_ id: String) -> GrowthBookFeatureResult {
        evaluatedFeatures = []
        skippedRules = []
        return feature(id)
    }

    /// Runs `experiment` outside any feature.
    public mutating func run(_ experiment: GrowthBookExperiment) -> GrowthBookExperimentResult {
        evaluatedFeatures = []
        return run(experiment, featureID: nil)
    }

    // MARK: Features

    private mutating func feature(_ id: String) -> GrowthBookFeatureResult {
        if evaluatedFeatures.contains(id) { return result(.null, .cyclicPrerequisite) }
        evaluatedFeatures.insert(id)
        guard let feature = features[id] else { return result(.null, .unknownFeature) }
        depth += 1
        defer { depth -= 1 }
        let evaluatedBefore = evaluatedFeatures
        rules: for (index, rule) in feature.rules.enumerated() {
            for parent in rule.parentConditions ?? [] {
                evaluatedFeatures = evaluatedBefore
                let parentResult = self.feature(parent.id)
                if parentResult.source == .cyclicPrerequisite { return result(.null, .cyclicPrerequisite) }
                if !parent.condition.matches(EvaluationContext(attributes: ["value": parentResult.value])) {
                    if parent.gate { return result(.null, .prerequisite) }
                    skip(index, .prerequisiteFailed(parent.id))
                    continue rules
                }
            }
            if let filters = rule.filters, isFilteredOut(filters) {
                skip(index, .other("filtered out"))
                continue
            }
            if let force = rule.force {
                if let condition = rule.condition, !passes(condition) {
                    skip(index, .conditionFailed)
                    continue
                }
                let fallback = usesStickyBuckets(disabled: rule.disableStickyBucketing) ? rule.fallbackAttribute : nil
                if !isIncludedInRollout(
                    seed: Self.nonEmpty(rule.seed) ?? id, hashAttribute: rule.hashAttribute, fallbackAttribute: fallback,
                    range: rule.range, coverage: rule.coverage, hashVersion: rule.hashVersion)
                {
                    skip(index, .other("outside rollout"))
                    continue
                }
                return result(force, .force, ruleID: rule.id, index: index)
            }
            guard let experiment = rule.experiment(featureID: id) else {
                skip(index, .other("no force and no variations"))
                continue
            }
            let outcome = run(experiment, featureID: id)
            if outcome.inExperiment, !outcome.passthrough {
                return GrowthBookFeatureResult(
                    value: outcome.value, source: .experiment, ruleID: rule.id ?? "", experiment: experiment,
                    experimentResult: outcome, ruleIndex: index)
            }
            skip(index, .other(outcome.passthrough ? "passthrough variation" : "not in experiment"))
        }
        return result(feature.defaultValue ?? .null, .defaultValue)
    }

    private func result(
        _ value: ConfigValue, _ source: GrowthBookFeatureResult.Source, ruleID: String? = nil, index: Int? = nil
    ) -> GrowthBookFeatureResult {
        GrowthBookFeatureResult(value: value, source: source, ruleID: ruleID ?? "", ruleIndex: index)
    }

    private mutating func skip(_ index: Int, _ reason: UnmatchedRule.Reason) {
        if depth == 1 { skippedRules.append((index, reason)) }
    }

    // MARK: Experiments

    private mutating func run(_ experiment: GrowthBookExperiment, featureID: String?) -> GrowthBookExperimentResult {
        let notIn = { (this: Self) in this.experimentResult(experiment, index: -1, hashUsed: false, featureID: featureID) }
        if experiment.variations.count < 2 || !options.enabled { return notIn(self) }
        if let forced = options.forcedVariations[experiment.key] {
            return experimentResult(experiment, index: forced, hashUsed: false, featureID: featureID)
        }
        if experiment.status == "draft" || experiment.active == false { return notIn(self) }
        let sticky = usesStickyBuckets(disabled: experiment.disableStickyBucketing)
        let hashed = hashAttribute(experiment.hashAttribute, fallback: sticky ? experiment.fallbackAttribute : nil)
        guard let hashText = Bucketing.hashText(of: hashed.value) else { return notIn(self) }

        var assigned = -1
        var foundStickyBucket = false
        var versionIsBlocked = false
        if sticky {
            (assigned, versionIsBlocked) = stickyBucketVariation(experiment)
            foundStickyBucket = assigned >= 0
        }
        if !foundStickyBucket {
            if let filters = experiment.filters {
                if isFilteredOut(filters) { return notIn(self) }
            } else if let namespace = experiment.namespace,
                !Bucketing.inNamespace(hashText, name: namespace.id, range: namespace.range)
            {
                return notIn(self)
            }
            if let condition = experiment.condition, !passes(condition) { return notIn(self) }
            let evaluatedBefore = evaluatedFeatures
            for parent in experiment.parentConditions ?? [] {
                evaluatedFeatures = evaluatedBefore
                let parentResult = feature(parent.id)
                if parentResult.source == .cyclicPrerequisite { return notIn(self) }
                if !parent.condition.matches(EvaluationContext(attributes: ["value": parentResult.value])) { return notIn(self) }
            }
        }
        guard
            let bucket = Bucketing.hash(
                seed: Self.nonEmpty(experiment.seed) ?? experiment.key, value: hashText,
                version: Self.version(experiment.hashVersion, else: 1))
        else { return notIn(self) }
        if !foundStickyBucket {
            let ranges =
                experiment.ranges
                ?? Bucketing.ranges(
                    count: experiment.variations.count, coverage: experiment.coverage ?? 1, weights: experiment.weights)
            assigned = Bucketing.variation(for: bucket, in: ranges) ?? -1
        }
        if versionIsBlocked {
            return experimentResult(experiment, index: -1, hashUsed: false, featureID: featureID, stickyBucketUsed: true)
        }
        if assigned < 0 { return notIn(self) }
        if let forced = experiment.forcedVariation {
            return experimentResult(experiment, index: forced ?? -1, hashUsed: false, featureID: featureID)
        }
        if options.qaMode || experiment.status == "stopped" { return notIn(self) }
        let outcome = experimentResult(
            experiment, index: assigned, hashUsed: true, featureID: featureID, bucket: bucket,
            stickyBucketUsed: foundStickyBucket)
        if sticky {
            let version = experiment.bucketVersion ?? 0
            saveStickyAssignment(
                attribute: hashed.name, value: hashText, experimentKey: "\(experiment.key)__\(version)", variation: outcome.key)
        }
        return outcome
    }

    private func experimentResult(
        _ experiment: GrowthBookExperiment, index: Int, hashUsed: Bool, featureID: String?, bucket: Double? = nil,
        stickyBucketUsed: Bool = false
    ) -> GrowthBookExperimentResult {
        let inExperiment = index >= 0 && index < experiment.variations.count
        let variation = inExperiment ? index : 0
        let sticky = usesStickyBuckets(disabled: experiment.disableStickyBucketing)
        let hashed = hashAttribute(experiment.hashAttribute, fallback: sticky ? experiment.fallbackAttribute : nil)
        let meta = experiment.meta.flatMap { variation < $0.count ? $0[variation] : nil }
        let key = meta?.key.flatMap { $0.isEmpty ? nil : $0 } ?? String(variation)
        return GrowthBookExperimentResult(
            key: key, featureID: featureID, inExperiment: inExperiment, hashUsed: hashUsed, variationID: variation,
            value: experiment.variations.isEmpty ? .null : experiment.variations[variation], hashAttribute: hashed.name,
            hashValue: hashed.value ?? .string(""), stickyBucketUsed: stickyBucketUsed, name: meta?.name, bucket: bucket,
            passthrough: meta?.passthrough ?? false)
    }

    // MARK: Conditions, hashing, rollouts

    private func passes(_ condition: Condition) -> Bool {
        condition.matches(attributes, savedGroups: savedGroups)
    }

    /// The attribute to hash and its value: `attribute` (default `id`), else `fallback` when that has a value.
    /// Both name an attribute, dots and all (`company.id` is not a path), as in GrowthBook's SDKs.
    private func hashAttribute(_ attribute: String?, fallback: String?) -> (name: String, value: ConfigValue?) {
        let name = attribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"
        let value = attributes.attributes[name]
        if Bucketing.hashText(of: value) == nil, let fallback, !fallback.isEmpty {
            let fallbackValue = attributes.attributes[fallback]
            if Bucketing.hashText(of: fallbackValue) != nil { return (fallback, fallbackValue) }
        }
        return (name, value)
    }

    /// `text`, or nil when it is absent or empty: GrowthBook's `text || fallback`.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private func isIncludedInRollout(
        seed: String, hashAttribute attribute: String?, fallbackAttribute: String?, range: BucketRange?, coverage: Double?,
        hashVersion: Int?
    ) -> Bool {
        if range == nil, coverage == nil { return true }
        if range == nil, coverage == 0 { return false }
        guard let text = Bucketing.hashText(of: hashAttribute(attribute, fallback: fallbackAttribute).value),
            let bucket = Bucketing.hash(seed: seed, value: text, version: Self.version(hashVersion, else: 1))
        else { return false }
        if let range { return range.contains(bucket) }
        return bucket <= (coverage ?? 1)
    }

    private func isFilteredOut(_ filters: [GrowthBookFilter]) -> Bool {
        filters.contains { filter in
            guard let text = Bucketing.hashText(of: hashAttribute(filter.attribute, fallback: nil).value),
                let bucket = Bucketing.hash(seed: filter.seed, value: text, version: Self.version(filter.hashVersion, else: 2))
            else { return true }
            return !filter.ranges.contains { $0.contains(bucket) }
        }
    }

    /// GrowthBook's `hashVersion || fallback`: 0 and absent mean the fallback.
    static func version(_ version: Int?, else fallback: Int) -> Int {
        guard let version, version != 0 else { return fallback }
        return version
    }

    // MARK: Sticky buckets

    private func usesStickyBuckets(disabled: Bool) -> Bool {
        options.stickyBucketDocuments != nil && !disabled
    }

    /// The stored variation for `experiment` (-1 when none), and whether an older bucket version blocks the context.
    private func stickyBucketVariation(_ experiment: GrowthBookExperiment) -> (Int, Bool) {
        let assignments = stickyAssignments(experiment.hashAttribute ?? "id", fallback: experiment.fallbackAttribute)
        let minimum = experiment.minBucketVersion ?? 0
        for version in 0..<max(minimum, 0) where assignments["\(experiment.key)__\(version)"] != nil {
            return (-1, true)
        }
        guard let variationKey = assignments["\(experiment.key)__\(experiment.bucketVersion ?? 0)"] else { return (-1, false) }
        let index = (experiment.meta ?? []).firstIndex { $0.key == variationKey } ?? -1
        return (index, false)
    }

    private func stickyAssignments(_ attribute: String, fallback: String?) -> [String: String] {
        guard let documents = options.stickyBucketDocuments else { return [:] }
        let hashed = hashAttribute(attribute, fallback: nil)
        let hashKey = "\(hashed.name)||\(Self.storedText(hashed.value))"
        var assignments: [String: String] = [:]
        let fallbackHashed = hashAttribute(fallback, fallback: nil)
        if Bucketing.hashText(of: fallbackHashed.value) != nil,
            let document = documents["\(fallbackHashed.name)||\(Self.storedText(fallbackHashed.value))"]
        {
            assignments.merge(document.assignments) { _, new in new }
        }
        if let document = documents[hashKey] { assignments.merge(document.assignments) { _, new in new } }
        return assignments
    }

    private mutating func saveStickyAssignment(attribute: String, value: String, experimentKey: String, variation: String) {
        let storageKey = "\(attribute)||\(value)"
        var document =
            options.stickyBucketDocuments?[storageKey]
            ?? StickyBucketDocument(attributeName: attribute, attributeValue: value, assignments: [:])
        guard document.assignments[experimentKey] != variation else { return }
        document.assignments[experimentKey] = variation
        options.stickyBucketDocuments?[storageKey] = document
    }

    /// An attribute value as sticky-bucket keys write it (a missing value as the empty text).
    private static func storedText(_ value: ConfigValue?) -> String {
        switch value {
        case nil, .null?: ""
        case .string(let text)?: text
        case let other?: other.jsonText()
        }
    }
}
