import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// OpenFeature's evaluation suites (`Conformance/OpenFeature/`, copied unchanged from
/// github.com/open-feature/spec, Apache-2.0: see `LICENSE` and `SOURCE` there), every scenario and
/// every example row, run against the flagd format.
///
/// "A stable provider" is `FlagdFormat` holding `test-flags.json` mapped to flagd's format (see
/// ``OpenFeatureFlags``); an evaluation "with details" is `DecodedPayload.evaluate(_:in:)` followed
/// by OpenFeature's typed conversion (``TypedDetails``). Each case passes, or is skipped with the
/// reason in ``OpenFeatureSuite/skipReasons``: the steps that need an SDK client and provider
/// lifecycle (provider states, hooks, a cache) that a payload format does not have.
@Suite("OpenFeature conformance (Gherkin)")
struct OpenFeatureConformanceTests {
    @Test("every case is run or skipped with a reason", arguments: OpenFeatureSuite.cases)
    func conformance(_ test: Gherkin.Case) async throws {
        if let reason = OpenFeatureSuite.skipReason(test) {
            // A skipped case: it must be skipped for one of the stated reasons, and the report lists it.
            #expect(OpenFeatureSuite.skipReasons.values.contains(reason))
            OpenFeatureSuite.report(test, skipped: reason)
            return
        }
        let payload = try OpenFeatureFlags.payload()
        var runner = ConformanceRunner(.payload(payload))
        for step in test.steps {
            try await runner.run(step)
        }
        OpenFeatureSuite.report(test, skipped: nil)
    }

    @Test("every case through the client: RemoteConfigClient.details(_:for:)", arguments: OpenFeatureSuite.cases)
    func throughClient(_ test: Gherkin.Case) async throws {
        if let reason = OpenFeatureSuite.skipReason(test, client: true) {
            #expect(
                OpenFeatureSuite.skipReasons.values.contains(reason) || OpenFeatureSuite.clientSkipReasons.values.contains(reason)
            )
            OpenFeatureSuite.report(test, skipped: reason, through: "client")
            return
        }
        let clients = try await OpenFeatureFlags.clients()
        var runner = ConformanceRunner(.client(stable: clients.stable, others: clients.others))
        for step in test.steps {
            try await runner.run(step)
        }
        OpenFeatureSuite.report(test, skipped: nil, through: "client")
    }

    @Test("the suites have the scenarios and examples their README counts")
    func counts() throws {
        let cases = OpenFeatureSuite.cases
        let v1 = cases.filter { $0.file == "evaluation.feature" }
        let v2 = cases.filter { $0.file == "evaluation_v2.feature" }
        #expect(v1.count == 13)
        #expect(Set(v2.map(\.scenario)).count == 21)
        #expect(v2.filter { $0.example == nil }.count == 5)
        #expect(v2.filter { $0.example != nil }.count == 77)
        let passed = cases.filter { OpenFeatureSuite.skipReason($0) == nil }.count
        let skipped = cases.count - passed
        var byReason: [String: Int] = [:]
        for test in cases { if let reason = OpenFeatureSuite.skipReason(test) { byReason[reason, default: 0] += 1 } }
        print(
            "OpenFeature conformance: \(cases.count) cases (\(v1.count) in evaluation.feature, \(v2.count) in evaluation_v2.feature): "
                + "\(passed) run, \(skipped) skipped ("
                + byReason.sorted { $0.key < $1.key }.map { "\($0.value): \($0.key)" }.joined(separator: "; ") + ")")
        #expect(passed >= 70, "most cases run")
        let throughClient = cases.filter { OpenFeatureSuite.skipReason($0, client: true) == nil }.count
        print(
            "OpenFeature conformance through RemoteConfigClient.details: \(throughClient) run, \(cases.count - throughClient) skipped"
        )
        #expect(throughClient >= 70)
    }

    @Test("test-flags.json maps to flagd: every flag reads, and both CEL rules are known")
    func mapping() throws {
        let payload = try OpenFeatureFlags.payload()
        #expect(payload.ruleProblems.isEmpty)
        #expect(payload.keys.count == 26, "the 25 flags of test-flags.json and context-aware")
        let source = try OpenFeatureFlags.source()
        let rules = Set(source.values.compactMap { $0["contextEvaluator"]?.stringValue })
        #expect(rules == Set(OpenFeatureFlags.celToJsonLogic.keys))
    }
}

/// The copied suites, read once.
enum OpenFeatureSuite {
    /// The folder of the copied files in the test bundle.
    static let folder: URL? = Bundle.module.url(forResource: "OpenFeature", withExtension: nil, subdirectory: "Conformance")

    /// Every case of both feature files.
    static let cases: [Gherkin.Case] = ["evaluation.feature", "evaluation_v2.feature"].flatMap { file -> [Gherkin.Case] in
        guard let url = folder?.appendingPathComponent(file), let data = try? Data(contentsOf: url) else { return [] }
        return Gherkin.cases(in: String(decoding: data, as: UTF8.self), file: file)
    }

    /// Why cases are skipped, by the step (prefix) that needs what a payload format does not have.
    static let skipReasons: [String: String] = [
        "a not ready provider":
            "provider state: PROVIDER_NOT_READY is a client's answer before any payload, not a payload format's",
        "a fatal provider": "provider state: PROVIDER_FATAL is a provider lifecycle state the library does not have",
        "a error provider": "provider status: a payload format has none; a client's status has it",
        "a stale provider": "provider status: a payload format has none; a client's status has it",
        "the provider status should be": "provider status: a payload format has none; a client's status has it",
        "evaluation options containing specific hooks": "hooks: OpenFeature SDK hooks are not part of the library",
        "an evaluation context with modifiable data":
            "immutability: Swift values (EvaluationContext, EvaluationDetails) are immutable copies by construction",
        "the reason should be \"CACHED\"":
            "CACHED: a payload format evaluates each time; only a client serving a last good value answers CACHED",
    ]

    /// How a run through a client differs, by step (prefix): a step it runs (an empty reason) or why it skips it.
    static let clientSkipReasons: [String: String] = [
        "a not ready provider": "",
        "a error provider": "",
        "a stale provider": "",
        "the provider status should be": "",
        "the reason should be \"CACHED\"":
            "CACHED: a client answers CACHED when it serves a last good value, not for a repeated evaluation",
    ]

    /// The reason `test` is skipped (on the payload, or through a client), or nil when it runs.
    static func skipReason(_ test: Gherkin.Case, client: Bool = false) -> String? {
        for step in test.steps {
            if client, let reason = clientSkipReasons.first(where: { step.text.hasPrefix($0.key) })?.value {
                if reason.isEmpty { continue }
                return reason
            }
            for (prefix, reason) in skipReasons where step.text.hasPrefix(prefix) { return reason }
        }
        return nil
    }

    /// Prints the outcome of a case: `passed …` or `skipped …: reason`.
    static func report(_ test: Gherkin.Case, skipped reason: String?, through: String = "payload") {
        print(
            "OpenFeature conformance (\(through)): \(reason == nil ? "passed" : "skipped") \(test.testDescription)"
                + (reason.map { ": \($0)" } ?? ""))
    }
}

/// `test-flags.json` as flagd flag definitions.
///
/// The file is OpenFeature's in-memory provider's format: `disabled: true` becomes `state: DISABLED`
/// (else `ENABLED`), `flagMetadata` becomes `metadata` (`null` left out), `variants` and
/// `defaultVariant` stay, and each CEL `contextEvaluator` becomes the JsonLogic `targeting` in
/// ``celToJsonLogic``. A CEL rule answers `''` when it does not match, which that provider reads as
/// "no variant" (the default variant): in flagd that is `null`.
enum OpenFeatureFlags {
    /// The two CEL rules of `test-flags.json`, in JsonLogic.
    static let celToJsonLogic: [String: ConfigValue] = [
        // email == 'ballmer@macrosoft.com' ? 'zero' : ''
        "email == 'ballmer@macrosoft.com' ? 'zero' : ''": [
            "if": [["==": [["var": "email"], "ballmer@macrosoft.com"]], "zero", nil]
        ],
        // !customer && email == 'ballmer@macrosoft.com' && age > 10 ? 'internal' : ''
        "!customer && email == 'ballmer@macrosoft.com' && age > 10 ? 'internal' : ''": [
            "if": [
                [
                    "and": [
                        ["!": ["var": "customer"]], ["==": [["var": "email"], "ballmer@macrosoft.com"]],
                        [">": [["var": "age"], 10]],
                    ]
                ],
                "internal", nil,
            ]
        ],
    ]

    /// The flag the deprecated suite's context scenario names, which `test-flags.json` lacks: written
    /// from that scenario (its four attributes must all match to serve `INTERNAL`).
    static let contextAware: ConfigValue = [
        "state": "ENABLED",
        "variants": ["internal": "INTERNAL", "external": "EXTERNAL"],
        "defaultVariant": "external",
        "targeting": [
            "if": [
                [
                    "and": [
                        ["==": [["var": "fn"], "Sulisław"]], ["==": [["var": "ln"], "Świętopełk"]],
                        ["==": [["var": "age"], 29]], ["==": [["var": "customer"], false]],
                    ]
                ],
                "internal", "external",
            ]
        ],
    ]

    /// `test-flags.json` as it is.
    static func source() throws -> [String: ConfigValue] {
        let url = try #require(OpenFeatureSuite.folder?.appendingPathComponent("test-flags.json"))
        return try #require(try JSONParser().parse(Data(contentsOf: url)).objectValue)
    }

    /// The flagd document made from `test-flags.json` (and ``contextAware``).
    static func document() throws -> ConfigValue {
        var flags: [String: ConfigValue] = ["context-aware": contextAware]
        for (key, flag) in try source() {
            var definition: [String: ConfigValue] = ["state": flag["disabled"]?.boolValue == true ? "DISABLED" : "ENABLED"]
            definition["variants"] = flag["variants"]
            if let defaultVariant = flag["defaultVariant"] { definition["defaultVariant"] = defaultVariant }
            if let metadata = flag["flagMetadata"], !metadata.isNull { definition["metadata"] = metadata }
            if let rule = flag["contextEvaluator"]?.stringValue {
                guard let logic = celToJsonLogic.first(where: { $0.key == rule })?.value else {
                    throw MappingError(description: "a CEL rule with no JsonLogic mapping: \(rule)")
                }
                definition["targeting"] = logic
            }
            flags[key] = .object(definition)
        }
        return ["flags": .object(flags)]
    }

    /// A flag of `test-flags.json` this mapping cannot express.
    struct MappingError: Error, CustomStringConvertible {
        var description: String
    }

    /// The decoded payload.
    static func payload() throws -> DecodedPayload {
        try FlagdFormat().decode(Data(try document().jsonText().utf8))
    }

    /// Clients with the flags in `FlagdFormat`, by the provider status a case names: "stable" has fetched and
    /// activated them (`READY`), "not ready" has fetched nothing yet (`NOT_READY`), "error" failed its first
    /// fetch (`ERROR`), and "stale" holds them past their TTL (`STALE`).
    static func clients() async throws -> (stable: RemoteConfigClient, others: [String: RemoteConfigClient]) {
        let json = try document().jsonText()
        let clock = ManualClock()
        func client(_ fetcher: InMemoryFetcher = InMemoryFetcher(json: json)) throws -> RemoteConfigClient {
            try RemoteConfigClient.builder(fetcher: fetcher).clock(clock).payloadFormat(FlagdFormat())
                .freshness(FreshnessPolicy(ttl: 60, maxStale: .seconds(3_600))).build()
        }
        let stable = try client()
        try await stable.refresh()
        let failing = InMemoryFetcher(json: json)
        failing.failAll(with: FetchError(.transport, retry: .backoff, message: "connection refused"))
        let error = try client(failing)
        _ = try? await error.refresh()
        let stale = try client()
        try await stale.refresh()
        clock.advance(by: 61)  // past the TTL: the stable client is stale too from here, so it is made last
        let fresh = try client()
        try await fresh.refresh()
        return (fresh, ["not ready": try client(), "error": error, "stale": stale])
    }
}
