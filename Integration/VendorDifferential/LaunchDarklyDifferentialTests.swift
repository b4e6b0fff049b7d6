import ConfigDomain
import ConfigPorts
import Foundation
import LaunchDarklyFormat
import Testing

/// The LaunchDarkly format against LaunchDarkly's own evaluator: random flag data and contexts from
/// `Oracles/launchdarkly_oracle.py`, evaluated there by LaunchDarkly's Python server SDK
/// (`launchdarkly-server-sdk` 9.18.4, its file data source and `variation_detail`, with no network) and
/// here through the library's public API (`LaunchDarklyFormat().decode` then `DecodedPayload.evaluate`),
/// compared flag by flag: the value (or that LaunchDarkly served the caller's default), the variation
/// index (the variant), OpenFeature's reason and error code as `FORMAT.md` maps LaunchDarkly's, and
/// LaunchDarkly's own reason (`reasonKind`, `ruleIndex`, `ruleId`, `prerequisiteKey`, `inExperiment`,
/// `errorKind`, `bigSegmentsStatus`) in the flag metadata.
///
/// Where the library answers otherwise by design, the oracle flags the flag with a
/// ``LaunchDarklyKnownDifference`` (each listed in `Modules/LaunchDarklyFormat/FORMAT.md`), and only there
/// may the answers differ.
///
/// Long run: `RC_DIFF_SEED=<seed> RC_DIFF_CASES=20000 swift test --skip-build --filter LaunchDarklyDifferential`.
@Suite("LaunchDarkly: the library against LaunchDarkly's own evaluator", .requiring(.launchDarkly))
struct LaunchDarklyDifferentialTests {
    /// The seed of the default run (`make test`); the long run uses another.
    static let defaultSeed: UInt64 = 31

    @Test("random flag data and contexts: every flag's value, variation, reason, error and LaunchDarkly reason agree")
    func agreement() throws {
        let tally = try Oracle.launchDarkly.agreement(
            of: "LaunchDarkly", comparing: "flag evaluations", suite: "LaunchDarklyDifferential",
            defaultSeed: Self.defaultSeed
        ) { try Self.compare($0) }
        // Every kind of answer is reached, so that a silent generator cannot pass.
        for kind in [
            "OFF", "FALLTHROUGH", "TARGET_MATCH", "RULE_MATCH", "PREREQUISITE_FAILED", "ERROR MALFORMED_FLAG",
            "ERROR USER_NOT_SPECIFIED", "ERROR FLAG_NOT_FOUND", "ERROR EXCEPTION", "FALLTHROUGH inExperiment",
        ] where tally.cases >= 2_000 {
            #expect((tally.reasons[kind] ?? 0) > 0, "no case reached \(kind)")
        }
    }

    /// The oracle's cases for the negative controls: fewer, computed once for both.
    static let controlLines = Result { try Oracle.launchDarkly.cases(["--seed", "\(defaultSeed)", "--cases", "600"]) }

    @Test("the comparison has teeth: the same flags with other salts and seeds disagree where rollouts decide")
    func negativeControlBucketing() throws {
        let lines = try Self.controlLines.get()
        #expect(try Self.compare(lines).failures.isEmpty, "the unaltered cases must agree for the control to mean anything")
        let tally = try Self.compare(lines, alteringPayload: Self.resalted)
        print("LaunchDarkly negative control, other salts and seeds: \(tally.failures.count) of \(tally.answers) flags disagree")
        #expect(tally.failures.count > 20, "only \(tally.failures.count) disagreements")
        // A rollout decides in the flag, a segment's weighted rule, or a prerequisite.
        let reached = ["rollout", #""weight""#, "prerequisites"]
        #expect(
            tally.failures.allSatisfy { failure in reached.contains { failure.text.contains($0) } },
            "a disagreement where no rollout decides")
    }

    @Test("the comparison has teeth: every clause negated the other way disagrees, only where a clause is reached")
    func negativeControlClauses() throws {
        let lines = try Self.controlLines.get()
        let tally = try Self.compare(lines, alteringPayload: Self.negated)
        print("LaunchDarkly negative control, every negate turned: \(tally.failures.count) of \(tally.answers) flags disagree")
        #expect(tally.failures.count > 100, "only \(tally.failures.count) disagreements")
        // A clause is in the flag, a segment, or a prerequisite.
        let reached = [#""op""#, "prerequisites"]
        #expect(
            tally.failures.allSatisfy { failure in reached.contains { failure.text.contains($0) } },
            "a disagreement where no clause is reached")
    }

    /// Decodes each payload once (a line without one is for the payload of the line before) and compares every
    /// flag; `alteringPayload` changes the payload the library reads (not the oracle's), for the negative controls.
    static func compare(
        _ lines: [ConfigValue], alteringPayload: (ConfigValue) -> ConfigValue = { $0 }
    ) throws -> DifferentialTally<LaunchDarklyKnownDifference> {
        var tally = DifferentialTally<LaunchDarklyKnownDifference>()
        var current: (source: ConfigValue, decoded: DecodedPayload)?
        let format = LaunchDarklyFormat()
        for line in lines {
            if let source = line["payload"] {
                current = (source, try format.decode(Data(alteringPayload(source).jsonText().utf8)))
            }
            guard let current else { throw OracleError(description: "a case line before the first payload") }
            tally.add(try LaunchDarklyCase(line, payload: current.source).compare(current.decoded))
        }
        return tally
    }

    /// The payload with every clause's `negate` turned the other way.
    static func negated(_ payload: ConfigValue) -> ConfigValue {
        switch payload {
        case .object(var members):
            members = members.mapValues(negated)
            if members["op"] != nil { members["negate"] = .bool(!(members["negate"]?.boolValue ?? false)) }
            return .object(members)
        case .array(let elements): return .array(elements.map(negated))
        default: return payload
        }
    }

    /// The payload with every flag's and segment's salt changed and every rollout's seed moved by one.
    static func resalted(_ payload: ConfigValue) -> ConfigValue {
        func moveSeeds(_ value: ConfigValue) -> ConfigValue {
            switch value {
            case .object(var members):
                members = members.mapValues(moveSeeds)
                if case .int(let seed)? = members["seed"] { members["seed"] = .int(seed &+ 1) }
                return .object(members)
            case .array(let elements): return .array(elements.map(moveSeeds))
            default: return value
            }
        }
        func resalt(_ items: ConfigValue?) -> ConfigValue? {
            guard case .object(let byKey)? = items else { return items }
            return .object(
                byKey.mapValues { item in
                    guard case .object(var members) = item else { return item }
                    members["salt"] = .string((members["salt"]?.stringValue ?? "") + "-other")
                    return moveSeeds(.object(members))
                })
        }
        guard case .object(var document) = payload else { return payload }
        document["flags"] = resalt(document["flags"])
        document["segments"] = resalt(document["segments"])
        return .object(document)
    }
}

extension Oracle {
    /// LaunchDarkly's Python server SDK (`launchdarkly-server-sdk` on PyPI).
    static let launchDarkly = Oracle(script: "launchdarkly_oracle.py", module: "ldclient")
}

/// Where the library answers otherwise than LaunchDarkly's Python SDK by design
/// (`Modules/LaunchDarklyFormat/FORMAT.md`, "Differences from LaunchDarkly"); the oracle computes each
/// predicate by watching the SDK's own functions.
enum LaunchDarklyKnownDifference: String, CaseIterable, KnownDifference {
    /// A `matches` clause where ICU (the library's regular expressions) and Python's `re` may answer
    /// differently: a pattern only one of them compiles or reads alike, or a text beyond printable ASCII
    /// met by a construct whose meaning there differs.
    case regexDialect = "regex-dialect"
    /// A flag the payload lacks, for an invalid context: LaunchDarkly answers `USER_NOT_SPECIFIED` before
    /// it looks for the flag; the payload answers `FLAG_NOT_FOUND`.
    case invalidContextUnknownFlag = "invalid-context-unknown-flag"
}

/// One line of the oracle: flag data, a context, and what LaunchDarkly answered for each flag.
struct LaunchDarklyCase {
    let number: Int
    let payload: ConfigValue
    let targetingKey: String?
    let attributes: [String: ConfigValue]
    let ldContext: String
    let contextError: String?
    let expected: [String: ConfigValue]
    let flags: [String: ConfigValue]

    /// The case of `line`, for the flag data `payload` (its own, or that of the line before).
    init(_ line: ConfigValue, payload: ConfigValue) throws {
        guard let number = line["case"]?.intValue, let attributes = line["attributes"]?.objectValue,
            let expected = line["expected"]?.objectValue
        else { throw OracleError(description: "a case line without case, attributes or expected") }
        self.number = Int(number)
        self.payload = payload
        self.targetingKey = line["targetingKey"]?.stringValue
        self.attributes = attributes
        self.ldContext = line["context"]?.stringValue ?? "?"
        self.contextError = line["contextError"]?.stringValue
        self.expected = expected
        self.flags = line["flags"]?.objectValue ?? [:]
    }

    /// Evaluates every flag of the line through the public API and compares it with LaunchDarkly's answer.
    func compare(_ decoded: DecodedPayload) -> CaseOutcome {
        let context = EvaluationContext(targetingKey: targetingKey, attributes: attributes)
        var disagreements: [Disagreement] = []
        var reasons: [String: Int] = [:]
        for (key, answer) in expected.sorted(by: { $0.key < $1.key }) {
            let evaluation = decoded.evaluate(key, in: context)
            let launchDarkly = LaunchDarklyAnswer(answer)
            reasons[launchDarkly.tally, default: 0] += 1
            let definition = payload["flags"]?[key]
            let differences = launchDarkly.differences(from: evaluation, flag: definition, contextError: contextError)
            guard !differences.isEmpty else { continue }
            let flagged = flags[key]?.arrayValue?.compactMap(\.stringValue) ?? []
            let text = """
                case \(number), flag "\(key)"\(flagged.isEmpty ? "" : " (flags \(flagged))"): \(differences.joined(separator: "; "))
                  library: \(evaluation)
                  LaunchDarkly: \(answer.jsonText())
                  context: \(ldContext)\(contextError.map { " (invalid: \($0))" } ?? "")
                  targetingKey: \(targetingKey.map { "\"\($0)\"" } ?? "none"), attributes: \(ConfigValue.object(attributes).jsonText())
                  flag: \(definition?.jsonText() ?? payload["flagValues"]?[key]?.jsonText() ?? "(none)")
                  segments: \(payload["segments"]?.jsonText() ?? "(none)")
                """
            disagreements.append(Disagreement(text: text, flags: flagged))
        }
        return CaseOutcome(answers: expected.count, reasons: reasons, disagreements: disagreements)
    }
}

/// What LaunchDarkly answered for one flag, and how the library's `EvaluationDetails` must match it.
struct LaunchDarklyAnswer {
    let value: ConfigValue?
    let variationIndex: Int64?
    let reason: [String: ConfigValue]

    init(_ json: ConfigValue) {
        variationIndex = json["variationIndex"]?.intValue
        if variationIndex == nil { value = nil } else { value = json["value"] ?? .null }
        reason = (json["reason"]?.objectValue ?? [:]).filter { !$0.value.isNull }
    }

    var kind: String { reason["kind"]?.stringValue ?? "?" }
    var errorKind: String? { reason["errorKind"]?.stringValue }

    /// `RULE_MATCH`, `ERROR MALFORMED_FLAG`, `FALLTHROUGH inExperiment`.
    var tally: String {
        if let errorKind { return "\(kind) \(errorKind)" }
        if reason["inExperiment"]?.boolValue == true { return "\(kind) inExperiment" }
        return kind
    }

    /// OpenFeature's reason and error code for this answer, as `FORMAT.md` maps them (`flag` is the flag's
    /// definition in the payload, for whether a rollout decided).
    func openFeature(flag: ConfigValue?, contextError: String?) -> (reason: String, errorCode: String?) {
        func isRollout(_ outcome: ConfigValue?) -> Bool {
            guard let outcome, outcome["variation"]?.intValue == nil else { return false }
            if case .object? = outcome["rollout"] { return true }
            return false
        }
        switch kind {
        case "OFF": return ("DISABLED", nil)
        case "FALLTHROUGH": return (isRollout(flag?["fallthrough"]) ? "SPLIT" : "DEFAULT", nil)
        case "TARGET_MATCH": return ("TARGETING_MATCH", nil)
        case "RULE_MATCH":
            let index = Int(reason["ruleIndex"]?.intValue ?? -1)
            let rules = flag?["rules"]?.arrayValue ?? []
            let rule = rules.indices.contains(index) ? rules[index] : nil
            return (isRollout(rule) ? "SPLIT" : "TARGETING_MATCH", nil)
        case "PREREQUISITE_FAILED": return ("DEFAULT", nil)
        case "ERROR":
            switch errorKind {
            case "MALFORMED_FLAG": return ("ERROR", "PARSE_ERROR")
            case "FLAG_NOT_FOUND": return ("ERROR", "FLAG_NOT_FOUND")
            case "USER_NOT_SPECIFIED":
                let parts = (contextError ?? "").components(separatedBy: ", ")
                let missingKey = parts.allSatisfy { $0 == "context key must not be None or empty" }
                return ("ERROR", missingKey ? "TARGETING_KEY_MISSING" : "INVALID_CONTEXT")
            default: return ("ERROR", "GENERAL")
            }
        default: return ("?", nil)
        }
    }

    /// LaunchDarkly's reason as the metadata the library's details must carry.
    var metadata: [String: ConfigValue] {
        var metadata: [String: ConfigValue] = ["reasonKind": .string(kind)]
        if let variationIndex { metadata["variationIndex"] = .int(variationIndex) }
        for name in ["ruleIndex", "ruleId", "prerequisiteKey", "errorKind", "bigSegmentsStatus"] {
            if let value = reason[name] { metadata[name] = value }
        }
        if reason["inExperiment"]?.boolValue == true { metadata["inExperiment"] = .bool(true) }
        return metadata
    }

    /// What differs between this answer and the library's `evaluation`, in words.
    func differences(from evaluation: EvaluationDetails<ConfigValue?>, flag: ConfigValue?, contextError: String?) -> [String] {
        var differences: [String] = []
        if variationIndex == nil {
            if let served = evaluation.value {
                differences.append("LaunchDarkly served the caller's default, library \(served.jsonText())")
            }
        } else if !Self.same(evaluation.value, value) {
            differences.append("value \(value?.jsonText() ?? "none"), library \(evaluation.value?.jsonText() ?? "none")")
        }
        let variant = variationIndex.map { String($0) }
        if evaluation.variant != variant {
            differences.append(
                "variant \(variant.map { "\"\($0)\"" } ?? "none"), library \(evaluation.variant.map { "\"\($0)\"" } ?? "none")")
        }
        let (reason, errorCode) = openFeature(flag: flag, contextError: contextError)
        if evaluation.reason.rawValue != reason { differences.append("reason \(reason), library \(evaluation.reason.rawValue)") }
        if evaluation.errorCode?.rawValue != errorCode {
            differences.append("error code \(errorCode ?? "none"), library \(evaluation.errorCode?.rawValue ?? "none")")
        }
        // A flag the payload lacks has no rules to state LaunchDarkly's reason.
        if errorKind != "FLAG_NOT_FOUND", !Self.same(.object(metadata), .object(evaluation.flagMetadata)) {
            differences.append(
                "LaunchDarkly's reason \(ConfigValue.object(metadata).jsonText()), library \(ConfigValue.object(evaluation.flagMetadata).jsonText())"
            )
        }
        return differences
    }

    /// JSON values compared exactly: `1` and `1.0` differ (LaunchDarkly serves the variation as written),
    /// strings by code points.
    static func same(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a ?? .null, b ?? .null) {
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { name, value in y[name].map { same(value, $0) } ?? false }
        case (let x, let y): return x == y
        }
    }
}
