import ConfigDomain
import Foundation
import GrowthBookFormat
import Targeting
import Testing

/// Every section of GrowthBook's cross-SDK cases that applies to a non-browser SDK, one
/// parameterized test each. `decrypt`, `getQueryStringOverride` and `urlRedirect` are not run:
/// see ``skippedSections``; browser-only `run` cases are listed in ``browserOnlyRunCases``.
@Suite("GrowthBook conformance")
struct GrowthBookConformanceTests {
    /// Sections not run, and why.
    static let skippedSections = [
        "decrypt": "encrypted payloads are not supported: GrowthBookFormat refuses encryptedFeatures with a message",
        "getQueryStringOverride": "browser-only: forcing variations from the page URL's query string",
        "urlRedirect": "browser-only: URL redirect experiments",
    ]

    /// `run` cases that need a page URL (query-string overrides), which a non-browser SDK does not have.
    static let browserOnlyRunCases = ["querystring force", "querystring force with inactive"]

    @Test("the sections are all accounted for")
    func everySectionIsRunOrSkippedWithAReason() throws {
        let run: Set = [
            "evalCondition", "hash", "getBucketRange", "chooseVariation", "inNamespace", "getEqualWeights", "feature", "run",
            "stickyBucket",
        ]
        let sections = Set(try #require(ConformanceCases.document.objectValue).keys).subtracting(["specVersion"])
        #expect(sections == run.union(Self.skippedSections.keys))
        let runNames = ConformanceCases.section("run").map(\.name)
        #expect(Self.browserOnlyRunCases.allSatisfy(runNames.contains))
    }

    @Test("evalCondition", arguments: ConformanceCases.section("evalCondition"))
    func evalCondition(_ test: ConformanceCases.Case) {
        let condition = Condition.lenient(test[1])
        let context = EvaluationContext(attributes: test[2].objectValue ?? [:])
        var groups: [String: [ConfigValue]] = [:]
        for (id, members) in test[4].objectValue ?? [:] { groups[id] = members.arrayValue ?? [] }
        #expect(condition.matches(context, savedGroups: groups) == test[3].boolValue)
    }

    @Test("hash", arguments: ConformanceCases.section("hash"))
    func hash(_ test: ConformanceCases.Case) throws {
        let seed = try #require(test[0].stringValue)
        let value = try #require(test[1].stringValue)
        let version = Int(try #require(test[2].intValue))
        let bucket = Bucketing.hash(seed: seed, value: value, version: version)
        if let expected = number(test[3]) {
            #expect(bucket.map { abs($0 - expected) < 1e-9 } == true, "got \(String(describing: bucket))")
        } else {
            #expect(bucket == nil)
        }
    }

    @Test("getBucketRange", arguments: ConformanceCases.section("getBucketRange"))
    func getBucketRange(_ test: ConformanceCases.Case) throws {
        let input = try #require(test[1].arrayValue)
        let weights = input[2].arrayValue?.compactMap(number)
        let ranges = Bucketing.ranges(
            count: Int(input[0].intValue ?? 0), coverage: number(input[1]) ?? 1, weights: weights)
        let expected = bucketRanges(test[2])
        #expect(ranges.count == expected.count)
        for (got, want) in zip(ranges, expected) {
            #expect(abs(got.lower - want.lower) < 1e-6 && abs(got.upper - want.upper) < 1e-6, "\(got) vs \(want)")
        }
    }

    @Test("chooseVariation", arguments: ConformanceCases.section("chooseVariation"))
    func chooseVariation(_ test: ConformanceCases.Case) throws {
        let bucket = try #require(number(test[1]))
        let index = Bucketing.variation(for: bucket, in: bucketRanges(test[2]))
        #expect((index ?? -1) == Int(test[3].intValue ?? -2))
    }

    @Test("inNamespace", arguments: ConformanceCases.section("inNamespace"))
    func inNamespace(_ test: ConformanceCases.Case) throws {
        let id = try #require(test[1].stringValue)
        let namespace = try #require(test[2].arrayValue)
        let range = BucketRange(lower: number(namespace[1]) ?? 0, upper: number(namespace[2]) ?? 0)
        #expect(Bucketing.inNamespace(id, name: namespace[0].stringValue ?? "", range: range) == test[3].boolValue)
    }

    @Test("getEqualWeights", arguments: ConformanceCases.section("getEqualWeights"))
    func getEqualWeights(_ test: ConformanceCases.Case) {
        let weights = Bucketing.equalWeights(Int(test[0].intValue ?? 0))
        #expect(sameJSON(.array(weights.map(ConfigValue.double)), test[1]))
    }

    @Test("feature", arguments: ConformanceCases.section("feature"))
    func feature(_ test: ConformanceCases.Case) throws {
        var evaluator = Self.evaluator(test[1])
        let result = evaluator.evaluateFeature(try #require(test[2].stringValue))
        let expected = test[3]
        #expect(sameJSON(result.value, expected["value"] ?? .null), "value \(result.value.jsonText())")
        #expect(result.on == expected["on"]?.boolValue)
        #expect(result.off == expected["off"]?.boolValue)
        #expect(result.source.rawValue == expected["source"]?.stringValue)
        #expect(result.ruleID == (expected["ruleId"]?.stringValue ?? ""))
        if let experimentResult = expected["experimentResult"] {
            let got = try #require(result.experimentResult)
            #expect(sameJSON(Self.json(got), experimentResult), "\(Self.json(got).jsonText())")
        } else {
            #expect(result.experimentResult == nil)
        }
        if let experiment = expected["experiment"] {
            #expect(result.experiment?.key == experiment["key"]?.stringValue)
            #expect(result.experiment.map { ConfigValue.array($0.variations) } == experiment["variations"])
        }
    }

    @Test("run", arguments: ConformanceCases.section("run").filter { !browserOnlyRunCases.contains($0.name) })
    func run(_ test: ConformanceCases.Case) throws {
        var evaluator = Self.evaluator(test[1])
        let experiment = try #require(GrowthBookPayload.experiment(test[2]))
        let result = evaluator.run(experiment)
        #expect(sameJSON(result.value, test[3]), "value \(result.value.jsonText())")
        #expect(result.inExperiment == test[4].boolValue)
        #expect(result.hashUsed == test[5].boolValue)
    }

    @Test("stickyBucket", arguments: ConformanceCases.section("stickyBucket"))
    func stickyBucket(_ test: ConformanceCases.Case) throws {
        var documents: [String: StickyBucketDocument] = [:]
        for entry in test[2].arrayValue ?? [] {
            let document = Self.document(entry)
            documents[document.storageKey] = document
        }
        var evaluator = Self.evaluator(test[1], stickyBucketDocuments: documents)
        let result = evaluator.evaluateFeature(try #require(test[3].stringValue))
        if test[4].isNull {
            #expect(result.experimentResult == nil)
        } else {
            let got = try #require(result.experimentResult)
            #expect(sameJSON(Self.json(got), test[4]), "\(Self.json(got).jsonText())")
        }
        var expectedDocuments: [String: StickyBucketDocument] = [:]
        for (key, entry) in test[5].objectValue ?? [:] { expectedDocuments[key] = Self.document(entry) }
        #expect(evaluator.stickyBucketDocuments == expectedDocuments)
    }

    // MARK: Helpers

    /// An evaluator for a case's context: attributes, features, saved groups, forced variations, QA mode, enabled.
    static func evaluator(
        _ context: ConfigValue, stickyBucketDocuments: [String: StickyBucketDocument]? = nil
    ) -> GrowthBookEvaluator {
        let payload = GrowthBookPayload(features: context["features"], savedGroups: context["savedGroups"], strictness: .lenient)
        var options = GrowthBookEvaluator.Options()
        for (key, index) in context["forcedVariations"]?.objectValue ?? [:] {
            options.forcedVariations[key] = Int(index.intValue ?? -1)
        }
        options.qaMode = context["qaMode"]?.boolValue ?? false
        options.enabled = context["enabled"]?.boolValue ?? true
        options.stickyBucketDocuments = stickyBucketDocuments
        return GrowthBookEvaluator(
            features: payload.features, savedGroups: payload.savedGroups,
            context: EvaluationContext(attributes: context["attributes"]?.objectValue ?? [:]), options: options)
    }

    static func document(_ json: ConfigValue) -> StickyBucketDocument {
        var assignments: [String: String] = [:]
        for (key, value) in json["assignments"]?.objectValue ?? [:] { assignments[key] = value.stringValue }
        return StickyBucketDocument(
            attributeName: json["attributeName"]?.stringValue ?? "", attributeValue: json["attributeValue"]?.stringValue ?? "",
            assignments: assignments)
    }

    /// An experiment result as GrowthBook's SDKs write it.
    static func json(_ result: GrowthBookExperimentResult) -> ConfigValue {
        var members: [String: ConfigValue] = [
            "key": .string(result.key), "featureId": result.featureID.map(ConfigValue.string) ?? .null,
            "inExperiment": .bool(result.inExperiment), "hashUsed": .bool(result.hashUsed),
            "variationId": .int(Int64(result.variationID)), "value": result.value, "hashAttribute": .string(result.hashAttribute),
            "hashValue": result.hashValue, "stickyBucketUsed": .bool(result.stickyBucketUsed),
        ]
        if let name = result.name { members["name"] = .string(name) }
        if let bucket = result.bucket { members["bucket"] = .double(bucket) }
        if result.passthrough { members["passthrough"] = .bool(true) }
        return .object(members)
    }
}
