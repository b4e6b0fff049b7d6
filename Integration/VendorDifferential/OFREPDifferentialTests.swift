import ConfigDomain
import ConfigPorts
import Foundation
import OFREPAdapter
import RemoteConfig
import Testing

/// The OFREP adapter against a real OFREP server: fast-feature (PyPI), over random flag sets
/// (``OFREPCaseGenerator``) and random contexts. For each case the test writes the flags file, asks
/// the server itself for its bulk evaluation of the context (a plain POST, the oracle), then builds a
/// `RemoteConfigClient` with `OFREPFetcher` and `OFREPFormat` for the same context, refreshes it, and
/// compares every flag's details with the server's answer: the value (the key's default where the
/// server sent none, or failed the flag), the variant, the reason, the error code and message, and
/// the metadata. It also checks that a key the server did not list answers `FLAG_NOT_FOUND`, that a
/// read for another context answers `INVALID_CONTEXT` with the key's default, never this user's value,
/// and that an unchanged context costs a `304`.
///
/// fast-feature is the oracle for the OFREP protocol, not for flagd's semantics: it evaluates with
/// its own JsonLogic engine, which the library never runs here. No difference is tolerated
/// (`Modules/OFREPAdapter/README.md`, "Differences from fast-feature", says what fast-feature itself does).
///
/// Long run (`make test-differential-long`, about 2.5 minutes for 20,000 cases):
/// `RC_DIFF_SEED=<seed> RC_DIFF_CASES=20000 swift test --skip-build --filter OFREPDifferential`.
@Suite("OFREP: the library against fast-feature, an OFREP server", .requiringFastFeature)
struct OFREPDifferentialTests {
    /// The seed of the default run (`make test`); the long run uses another.
    static let defaultSeed: UInt64 = 29
    /// The cases of the default run.
    static let defaultCases = 1_000
    /// The most disagreements a failure prints.
    static let printedLimit = 20

    @Test("random flag sets and contexts: every flag's value, variant, reason, error and metadata agree with the server's")
    func agreement() async throws {
        let (seed, count) = Oracle.run(defaultSeed: Self.defaultSeed, defaultCases: Self.defaultCases)
        let clock = ContinuousClock()
        let start = clock.now
        let tally = try await FastFeatureOracle.with { server in
            try await Self.run(seed: seed, cases: count, format: OFREPFormat(), server: server)
        }
        let elapsed = clock.now - start
        print(
            "OFREP differential: seed \(seed), \(tally.cases) cases, \(tally.flags) flag answers compared "
                + "(server: \(tally.reasonSummary)); per field: \(tally.fieldSummary); "
                + "\(tally.agreeingCases) cases agree in every flag; \(tally.allowedSummary); "
                + "\(tally.failures.count) other disagreements; protocol checks: \(tally.protocolChecks); \(elapsed)")
        #expect(tally.cases == count)
        let shown = tally.failures.prefix(Self.printedLimit).joined(separator: "\n\n")
        #expect(
            tally.failures.isEmpty,
            """
            seed \(seed): \(tally.failures.count) disagreements outside the known differences (first \(Self.printedLimit)):
            \(shown)
            Reproduce: RC_DIFF_SEED=\(seed) RC_DIFF_CASES=\(count) swift test --skip-build --filter OFREPDifferential
            """)
    }

    @Test("the comparison has teeth: each of six plausible mistakes in reading the answer is caught, in its own field alone")
    func negativeControl() async throws {
        let outcomes = try await FastFeatureOracle.with { server in
            var outcomes: [(OFREPMutant, OFREPTally)] = []
            for mutant in OFREPMutant.allCases {
                outcomes.append(
                    (mutant, try await Self.run(seed: Self.defaultSeed, cases: 40, format: mutant.format, server: server)))
            }
            return outcomes
        }
        for (mutant, tally) in outcomes {
            print("OFREP negative control, \(mutant): \(tally.flagFailures) flag answers disagree (\(tally.failedFieldSummary))")
            #expect(tally.flagFailures > 5, "\(mutant): only \(tally.flagFailures) disagreements")
            #expect(
                Set(tally.failedFields.keys) == [mutant.field] && tally.failures.count == tally.flagFailures,
                "\(mutant): disagreements beyond its field \(mutant.field): \(tally.failedFieldSummary); \(tally.failures.first ?? "")"
            )
        }
    }

    /// Runs `cases` cases from `seed` against `server`, reading through a client that decodes with `format`.
    static func run(seed: UInt64, cases: Int, format: any PayloadFormat, server: FastFeatureOracle) async throws -> OFREPTally {
        var generator = OFREPCaseGenerator(seed: seed)
        let fetcher = try OFREPFetcher(endpoint: server.endpoint)
        var tally = OFREPTally()
        for number in 0..<cases {
            let oracleCase = generator.next(number: number)
            try server.serve(PlainJSON.text(oracleCase.flagsFile))
            let (status, etag, body) = try await server.bulkEvaluation(oracleCase.requestBody)
            guard status == 200, let etag else {
                tally.failures.append(
                    "case \(number): fast-feature answered \(status) (ETag \(etag ?? "none")): \(String(decoding: body, as: UTF8.self))\n"
                        + "  flags: \(PlainJSON.text(oracleCase.flagsFile))\n  server output: \(server.printed.suffix(2000))")
                continue
            }
            let answers = try ServerAnswer.all(in: body)
            let other = number % 5 == 0 ? generator.otherContext(than: oracleCase.context) : nil
            let client = try oracleCase.client(fetcher: fetcher, format: format)
            tally.add(await oracleCase.check(client, answers: answers, etag: etag, otherContext: other, server: server))
            await client.stop()
        }
        return tally
    }
}

extension OFREPCase {
    /// Refreshes `client` and compares its details with the server's `answers`; every fifth case also
    /// reads for `otherContext`, every tenth refreshes again and expects the server's 304.
    func check(
        _ client: RemoteConfigClient, answers: [String: ServerAnswer], etag: String, otherContext: EvaluationContext?,
        server: FastFeatureOracle
    ) async -> OFREPOutcome {
        var outcome = OFREPOutcome()
        guard refreshed(await Self.refresh(client), answers: answers, into: &outcome) != nil else { return outcome }
        outcome.merge(compare(answers, client: client))
        outcome.cases = 1
        if let otherContext { outcome.merge(checkOtherContext(client: client, other: otherContext)) }
        if number % 10 == 0 {
            // The same context again: the server answers 304 to its own ETag, so the client's refresh is "unchanged".
            let again = try? await server.bulkEvaluation(requestBody, ifNoneMatch: etag)
            let result = refreshed(await Self.refresh(client, force: true), answers: answers, into: &outcome)
            outcome.protocolChecks += 1
            if again?.status != 304 || result != .unchanged {
                outcome.failures.append(
                    "case \(number): the same context again: fast-feature answered \(again.map { "\($0.status)" } ?? "nothing") to "
                        + "If-None-Match \(etag), the client's forced refresh gave \(result.map { "\($0)" } ?? "an error") "
                        + "(a 304 is .unchanged)")
            }
        }
        return outcome
    }

    /// A refresh's result, without its typed throw.
    static func refresh(_ client: RemoteConfigClient, force: Bool = false) async -> Result<RefreshResult, ConfigError> {
        do throws(ConfigError) {
            return .success(try await client.refresh(force: force))
        } catch {
            return .failure(error)
        }
    }

    /// The refresh's result; nil, with a failure recorded, when it failed (a server's per-flag errors
    /// are its answers: they fail no refresh).
    func refreshed(
        _ result: Result<RefreshResult, ConfigError>, answers: [String: ServerAnswer], into outcome: inout OFREPOutcome
    ) -> RefreshResult? {
        switch result {
        case .success(let result):
            return result
        case .failure(let error):
            outcome.failures.append("case \(number): the refresh failed: \(error)")
            return nil
        }
    }
}

/// The agreements and disagreements so far.
struct OFREPTally {
    var cases = 0
    var flags = 0
    var agreeingCases = 0
    /// The server's reasons (and error codes), counted.
    var reasons: [String: Int] = [:]
    /// How many answers agreed, by field.
    var agreeing: [OFREPField: Int] = [:]
    /// Disagreements a known difference explains, by its name.
    var allowed: [String: Int] = [:]
    /// Checks beyond a flag's answer: a key the server did not list, reads for another context, 304s.
    var protocolChecks = 0
    /// Flag answers that disagree outside the known differences, and their fields.
    var flagFailures = 0
    var failedFields: [OFREPField: Int] = [:]
    var failures: [String] = []

    mutating func add(_ outcome: OFREPOutcome) {
        cases += outcome.cases
        flagFailures += outcome.flagFailures
        for (field, count) in outcome.failedFields { failedFields[field, default: 0] += count }
        flags += outcome.flags
        protocolChecks += outcome.protocolChecks
        for (reason, count) in outcome.reasons { reasons[reason, default: 0] += count }
        for (field, count) in outcome.agreeing { agreeing[field, default: 0] += count }
        for (name, count) in outcome.allowed { allowed[name, default: 0] += count }
        if outcome.cases > 0 && outcome.failures.isEmpty && outcome.allowed.isEmpty { agreeingCases += 1 }
        failures += outcome.failures
    }

    /// `DEFAULT 120, ERROR PARSE_ERROR 80, …`.
    var reasonSummary: String {
        reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// `value 3510/3512, variant 3512/3512, …`.
    var fieldSummary: String {
        OFREPField.allCases.map { "\($0.rawValue) \(agreeing[$0] ?? 0)/\(flags)" }.joined(separator: ", ")
    }

    /// `value 12, metadata 3`.
    var failedFieldSummary: String {
        failedFields.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }

    /// `12 flags differ where a known difference applies (…)`.
    var allowedSummary: String {
        let total = allowed.values.reduce(0, +)
        let parts = allowed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(total) answers differ where a known difference applies (\(parts.joined(separator: ", ")))"
    }
}

/// The details compared.
enum OFREPField: String, CaseIterable, Hashable {
    case value, variant, reason, errorCode, errorMessage, metadata
}

/// What one comparison found.
struct OFREPOutcome {
    var cases = 0
    var flags = 0
    var flagFailures = 0
    var failedFields: [OFREPField: Int] = [:]
    var protocolChecks = 0
    var reasons: [String: Int] = [:]
    var agreeing: [OFREPField: Int] = [:]
    var allowed: [String: Int] = [:]
    var failures: [String] = []

    mutating func merge(_ other: OFREPOutcome) {
        cases += other.cases
        flags += other.flags
        flagFailures += other.flagFailures
        for (field, count) in other.failedFields { failedFields[field, default: 0] += count }
        protocolChecks += other.protocolChecks
        for (reason, count) in other.reasons { reasons[reason, default: 0] += count }
        for (field, count) in other.agreeing { agreeing[field, default: 0] += count }
        for (name, count) in other.allowed { allowed[name, default: 0] += count }
        failures += other.failures
    }
}

/// One flag of fast-feature's bulk answer.
struct ServerAnswer {
    let key: String
    /// The value; nil when the server sent none (OFREP's code default) or failed the flag.
    let value: ConfigValue?
    let variant: String?
    let reason: String?
    let errorCode: String?
    let errorDetails: String?
    let metadata: [String: ConfigValue]

    init(_ json: ConfigValue) throws {
        guard let key = json["key"]?.stringValue else { throw OracleError(description: "a flag without a key: \(json)") }
        self.key = key
        value = json["value"]
        variant = json["variant"]?.stringValue
        reason = json["reason"]?.stringValue
        errorCode = json["errorCode"]?.stringValue
        errorDetails = json["errorDetails"]?.stringValue
        metadata = json["metadata"]?.objectValue ?? [:]
    }

    /// Every flag of a bulk answer, by key.
    static func all(in body: Data) throws -> [String: ServerAnswer] {
        let document = try JSONParser(maxDepth: 256).parse(body)
        guard let flags = document["flags"]?.arrayValue else {
            throw OracleError(description: "a bulk answer without flags: \(String(decoding: body, as: UTF8.self))")
        }
        var answers: [String: ServerAnswer] = [:]
        for flag in flags {
            let answer = try ServerAnswer(flag)
            answers[answer.key] = answer
        }
        return answers
    }

    /// `DEFAULT`, or `ERROR PARSE_ERROR` for a failed flag.
    var summary: String { errorCode.map { "ERROR " + $0 } ?? reason ?? "?" }
}

/// A key the server does not know, registered in every case: it must answer `FLAG_NOT_FOUND`.
private let absentKey = ConfigKey<ConfigValue>(name: "absent-key", default: "absent", converter: passThrough)

/// The converter of a `ConfigKey<ConfigValue>`: any value as it arrived.
let passThrough = ValueConverter<ConfigValue>(
    typeName: "ConfigValue", fromValue: { $0 }, fromText: { .string($0) }, toValue: { $0 }, isEqual: { $0 == $1 })

extension GeneratedFlag {
    /// The registered key, if any.
    var registeredKey: (any ConfigKeyRepresentable)? {
        switch keyKind {
        case .raw(let value): ConfigKey<ConfigValue>(name: key, default: value, converter: passThrough)
        case .bool(let value): ConfigKey(key, default: value)
        case .string(let value): ConfigKey(key, default: value)
        case .unregistered: nil
        }
    }

    /// The library's details of this flag for `context` (nil: the client's own).
    func details(in client: RemoteConfigClient, for context: EvaluationContext? = nil) -> EvaluationDetails<ConfigValue?> {
        switch keyKind {
        case .raw, .unregistered:
            return client.view(for: context).details(forKey: key)
        case .bool(let value):
            let details = client.details(ConfigKey(key, default: value), for: context)
            return details.with(value: Optional(ConfigValue.bool(details.value)))
        case .string(let value):
            let details = client.details(ConfigKey(key, default: value), for: context)
            return details.with(value: Optional(ConfigValue.string(details.value)))
        }
    }
}

extension OFREPCase {
    /// A client over `fetcher` for this case's context, with the case's keys and ``absentKey`` registered.
    func client(fetcher: OFREPFetcher, format: any PayloadFormat) throws -> RemoteConfigClient {
        try RemoteConfigClient.builder(fetcher: fetcher)
            .payloadFormat(format)
            .context(context)
            .register(flags.compactMap(\.registeredKey) + [absentKey])
            .build()
    }

    /// Compares each flag's details in `client` with the server's answer.
    func compare(_ answers: [String: ServerAnswer], client: RemoteConfigClient) -> OFREPOutcome {
        var outcome = OFREPOutcome()
        for flag in flags {
            guard let answer = answers[flag.key] else {
                outcome.failures.append("case \(number), flag \(flag.key): fast-feature did not list it")
                continue
            }
            outcome.flags += 1
            outcome.reasons[answer.summary, default: 0] += 1
            let library = flag.details(in: client)
            let differences = Self.differences(expected: answer, defaultValue: flag.keyKind.defaultValue, library: library)
            for field in OFREPField.allCases where differences[field] == nil { outcome.agreeing[field, default: 0] += 1 }
            guard !differences.isEmpty else { continue }
            outcome.flagFailures += 1
            for field in differences.keys { outcome.failedFields[field, default: 0] += 1 }
            outcome.failures.append(
                """
                case \(number), flag \(flag.key) (\(flag.keyKind)): \(differences.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value).joined(separator: "; "))
                  server: reason \(answer.reason ?? "none"), \(PlainJSON.text(.object(answerJSON(answer))))
                  library: \(library.reason) value \(library.value.map(PlainJSON.text) ?? "none") variant \(library.variant ?? "none") \(library.errorCode.map { "error \($0)" } ?? "")
                  context: targetingKey \(context.targetingKey.map { "\"\($0)\"" } ?? "none"), \(PlainJSON.text(.object(context.attributes)))
                  flag: \(PlainJSON.text(flag.definition))
                """)
        }
        if answers.count != flags.count {
            outcome.failures.append("case \(number): fast-feature listed \(answers.count) flags of \(flags.count)")
        }
        let absent = client.details(absentKey)
        outcome.protocolChecks += 1
        if absent.value != "absent" || absent.reason != .error || absent.errorCode != .flagNotFound {
            outcome.failures.append(
                "case \(number): a key the server did not list answers \(absent.reason) \(absent.errorCode?.rawValue ?? "") "
                    + "value \(absent.value), not ERROR FLAG_NOT_FOUND with its default")
        }
        return outcome
    }

    private func answerJSON(_ answer: ServerAnswer) -> [String: ConfigValue] {
        var members: [String: ConfigValue] = [:]
        if let value = answer.value { members["value"] = value }
        if let variant = answer.variant { members["variant"] = .string(variant) }
        if let code = answer.errorCode { members["errorCode"] = .string(code) }
        if let details = answer.errorDetails { members["errorDetails"] = .string(details) }
        if !answer.metadata.isEmpty { members["metadata"] = .object(answer.metadata) }
        return members
    }

    /// What differs between the server's `expected` answer and the library's details, by field, in words.
    static func differences(
        expected: ServerAnswer, defaultValue: ConfigValue?, library: EvaluationDetails<ConfigValue?>
    ) -> [OFREPField: String] {
        var differences: [OFREPField: String] = [:]
        let failed = expected.errorCode != nil
        // A failed flag, or one without a value (OFREP's code default), serves the key's default.
        let value = failed ? defaultValue : expected.value ?? defaultValue
        if !same(library.value, value) {
            differences[.value] =
                "value \(value.map(PlainJSON.text) ?? "none"), library \(library.value.map(PlainJSON.text) ?? "none")"
        }
        let variant = failed ? nil : expected.variant
        if library.variant != variant {
            differences[.variant] = "variant \(variant ?? "none"), library \(library.variant ?? "none")"
        }
        let reason = failed ? "ERROR" : expected.reason ?? "?"
        if library.reason.rawValue != reason { differences[.reason] = "reason \(reason), library \(library.reason.rawValue)" }
        if library.errorCode?.rawValue != expected.errorCode {
            differences[.errorCode] =
                "error code \(expected.errorCode ?? "none"), library \(library.errorCode?.rawValue ?? "none")"
        }
        if library.errorMessage != expected.errorDetails {
            differences[.errorMessage] =
                "error message \(expected.errorDetails ?? "none"), library \(library.errorMessage ?? "none")"
        }
        if !same(.object(library.flagMetadata), .object(expected.metadata)) {
            differences[.metadata] =
                "metadata \(PlainJSON.text(.object(expected.metadata))), library \(PlainJSON.text(.object(library.flagMetadata)))"
        }
        return differences
    }

    /// Reads for `other` (another context than the client's): `INVALID_CONTEXT` with the key's default, never this user's value.
    func checkOtherContext(client: RemoteConfigClient, other: EvaluationContext) -> OFREPOutcome {
        var outcome = OFREPOutcome()
        for flag in flags {
            outcome.protocolChecks += 1
            let details = flag.details(in: client, for: other)
            if !Self.same(details.value, flag.keyKind.defaultValue) || details.reason != .error
                || details.errorCode != .invalidContext || details.variant != nil
            {
                outcome.failures.append(
                    "case \(number), flag \(flag.key) (\(flag.keyKind)): a read for another context answers \(details.reason) "
                        + "\(details.errorCode?.rawValue ?? "") value \(details.value.map(PlainJSON.text) ?? "none") "
                        + "variant \(details.variant ?? "none"), not ERROR INVALID_CONTEXT with the key's default")
            }
        }
        return outcome
    }

    /// JSON values compared exactly: `1` and `1.0` differ, strings by code points.
    static func same(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (.string(let x)?, .string(let y)?): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x)?, .array(let y)?): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x)?, .object(let y)?):
            return x.count == y.count && x.allSatisfy { name, value in y[name].map { same(value, $0) } ?? false }
        case (.double(let x)?, .double(let y)?): return x == y && x.sign == y.sign
        case (let x?, let y?): return x == y
        }
    }
}

/// The negative control's mistakes: a format that reads the server's answer with one detail changed,
/// as a plausible bug would.
enum OFREPMutant: String, CaseIterable, CustomStringConvertible {
    /// A `DISABLED` flag serves the app's default, as flagd's format does (OFREP passes the server's value through).
    case disabledServesDefault = "DISABLED serves the app's default"
    /// The variant of a `DEFAULT` answer is dropped.
    case defaultWithoutVariant = "DEFAULT without its variant"
    /// `TARGETING_MATCH` is read as `SPLIT`.
    case matchAsSplit = "TARGETING_MATCH read as SPLIT"
    /// Every error code is read as `GENERAL`.
    case everyErrorGeneral = "every error code GENERAL"
    /// The server's words about an error are dropped.
    case errorDetailsDropped = "errorDetails dropped"
    /// The flag's metadata is dropped.
    case metadataDropped = "metadata dropped"

    var description: String { rawValue }

    /// The one field the mistake must show in.
    var field: OFREPField {
        switch self {
        case .disabledServesDefault: .value
        case .defaultWithoutVariant: .variant
        case .matchAsSplit: .reason
        case .everyErrorGeneral: .errorCode
        case .errorDetailsDropped: .errorMessage
        case .metadataDropped: .metadata
        }
    }

    /// One flag of the bulk answer, changed.
    func mutate(_ flag: [String: ConfigValue]) -> [String: ConfigValue] {
        var flag = flag
        switch self {
        case .disabledServesDefault: if flag["reason"] == "DISABLED" { flag["value"] = nil }
        case .defaultWithoutVariant: if flag["reason"] == "DEFAULT" { flag["variant"] = nil }
        case .matchAsSplit: if flag["reason"] == "TARGETING_MATCH" { flag["reason"] = "SPLIT" }
        case .everyErrorGeneral: if flag["errorCode"] != nil { flag["errorCode"] = "GENERAL" }
        case .errorDetailsDropped: flag["errorDetails"] = nil
        case .metadataDropped: flag["metadata"] = nil
        }
        return flag
    }

    /// OFREP's format, reading the answer with this mistake.
    var format: MutatedOFREPFormat { MutatedOFREPFormat(mutant: self) }
}

/// ``OFREPFormat`` over a bulk answer that ``OFREPMutant`` changed first.
struct MutatedOFREPFormat: PayloadFormat {
    let name = "ofrep"
    let mutant: OFREPMutant

    func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        guard case .object(var document)? = try? JSONParser().parse(bytes), case .array(let flags)? = document["flags"] else {
            return try OFREPFormat().decode(bytes)
        }
        document["flags"] = .array(flags.map { flag in flag.objectValue.map { .object(mutant.mutate($0)) } ?? flag })
        return try OFREPFormat().decode(ConfigValue.object(document).jsonData())
    }
}
