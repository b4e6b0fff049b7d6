import ConfigCatFormat
import ConfigDomain
import ConfigPorts
import Foundation
import Testing

/// The ConfigCat format against ConfigCat's own Python SDK: random configs and users from
/// `Oracles/configcat_oracle.py`, evaluated there by `configcat-client` (a client reading the config
/// from a local override file, offline) and here through the library's public API
/// (`ConfigCatFormat().decode` then `DecodedPayload.evaluate`), compared setting by setting: the
/// value (or that ConfigCat served the caller's default), the variation ID (the variant), the
/// targeting rule and percentage option that matched, the reason, the error code, and the message
/// of a circular dependency.
///
/// Where the library follows ConfigCat's reference SDK rather than the Python one, the oracle flags
/// the setting with a ``ConfigCatKnownDifference`` (each listed in `Modules/ConfigCatFormat/FORMAT.md`),
/// and only there may the answers differ.
///
/// Long run: `RC_DIFF_SEED=<seed> RC_DIFF_CASES=20000 swift test --skip-build --filter ConfigCatDifferential`.
@Suite("ConfigCat: the library against ConfigCat's Python SDK", .requiring(.configCat))
struct ConfigCatDifferentialTests {
    /// The seed of the default run (`make test`); the long run uses another.
    static let defaultSeed: UInt64 = 31

    @Test("random configs and users: every setting's value, variation ID, match, reason and error agree")
    func agreement() throws {
        try Oracle.configCat.agreement(
            of: "ConfigCat", comparing: "answers", suite: "ConfigCatDifferential", defaultSeed: Self.defaultSeed
        ) { try Self.compare($0) }
    }

    @Test("the comparison has teeth: evaluating for a mutated identifier disagrees, always where the identifier was read")
    func mutation() throws {
        let lines = try Oracle.configCat.cases(["--seed", "\(Self.defaultSeed)", "--cases", "400"])
        let tally = try Self.compare(lines, mutatingIdentifier: true)
        #expect(tally.failures.count > 20, "only \(tally.failures.count) disagreements")
        let withoutIdentifier = tally.failures.filter { !$0.read.contains(EvaluationContext.targetingKeyAttribute) }
        #expect(withoutIdentifier.isEmpty, "\(withoutIdentifier.count) disagreements where the identifier was not read")
    }

    /// Decodes each config once and compares every answer of every case; with `mutatingIdentifier`, the
    /// library evaluates for the targeting key with `~` appended (a deliberately wrong evaluation).
    static func compare(
        _ lines: [ConfigValue], mutatingIdentifier: Bool = false
    ) throws -> DifferentialTally<ConfigCatKnownDifference> {
        var tally = DifferentialTally<ConfigCatKnownDifference>()
        var payloads: [Int64: (document: ConfigValue, decoded: DecodedPayload)] = [:]
        for line in lines {
            if let payload = line["payload"], let id = line["id"]?.intValue {
                payloads = [id: (payload, try ConfigCatFormat().decode(payload.jsonData()))]
                continue
            }
            let oracleCase = try ConfigCatCase(line, mutatingIdentifier: mutatingIdentifier)
            guard let payload = payloads[oracleCase.payloadID] else {
                throw OracleError(
                    description: "case \(oracleCase.number) names config \(oracleCase.payloadID), not printed before it")
            }
            tally.add(oracleCase.compare(payload.decoded, document: payload.document))
        }
        return tally
    }
}

extension Oracle {
    /// ConfigCat's Python SDK (`configcat-client` on PyPI).
    static let configCat = Oracle(script: "configcat_oracle.py", module: "configcatclient")
}

/// Where the library answers otherwise than ConfigCat's Python SDK, following ConfigCat's reference
/// SDK (`Modules/ConfigCatFormat/FORMAT.md`, "Differences from ConfigCat's SDKs"); the oracle computes
/// each predicate by watching the Python SDK's own functions.
enum ConfigCatKnownDifference: String, CaseIterable, KnownDifference {
    /// A non-string attribute written as text otherwise than the reference writes it (`True`, `1e+16`).
    case attributeText = "attribute-text"
    /// A number or date attribute Python's `float()` reads otherwise than ConfigCat's number syntax.
    case numberSyntax = "number-syntax"
    /// A list or object for a number or date comparator: Python fails the evaluation, the reference skips the rule.
    case numberTypeError = "number-type-error"
    /// The bucket fell after the last percentage option: Python goes on, the reference fails the evaluation.
    case percentageGap = "percentage-gap"
    /// A blank or invalid comparison version: Python errs (and skips blank list items), the reference is false.
    case semverComparisonValue = "semver-comparison-value"
    /// Semantic-version IS (NOT) ONE OF without a comparison version: Python never checks the attribute, the reference skips the rule.
    case semverEmptyList = "semver-empty-list"
    /// A confidential ENDS WITH value of 0 bytes: Python hashes the whole text (`[-0:]`), the reference the empty suffix.
    case emptyHashedSuffix = "empty-hashed-suffix"
    /// A setting of an invalid type: the reference fails at once, Python may fail otherwise first (another message).
    case settingTypeFirst = "setting-type-first"
    /// A targeting rule's served value not of the setting's type: Python fails on reaching the rule, the reference on serving it.
    case eagerServedValue = "eager-served-value"
    /// Percentage options on `Identifier` for a user without one: Python skips them, the reference hashes `""`.
    case identifierAttribute = "identifier-attribute"
}

/// One line of the oracle: a user, the config it names, and what ConfigCat answered for each setting.
struct ConfigCatCase {
    let number: Int
    let payloadID: Int64
    let targetingKey: String?
    let attributes: [String: ConfigValue]
    let expected: [String: ConfigValue]
    let flags: [String: ConfigValue]

    init(_ line: ConfigValue, mutatingIdentifier: Bool) throws {
        guard let number = line["case"]?.intValue, let payloadID = line["payloadId"]?.intValue,
            let attributes = line["attributes"]?.objectValue, let expected = line["expected"]?.objectValue
        else { throw OracleError(description: "a case line without case, payloadId, attributes or expected") }
        self.number = Int(number)
        self.payloadID = payloadID
        let key = line["targetingKey"]?.stringValue
        self.targetingKey = mutatingIdentifier ? key.map { $0 + "~" } : key
        self.attributes = attributes
        self.expected = expected
        self.flags = line["flags"]?.objectValue ?? [:]
    }

    /// Evaluates every setting of the line through the public API and compares it with ConfigCat's answer.
    func compare(_ payload: DecodedPayload, document: ConfigValue) -> CaseOutcome {
        let context = EvaluationContext(targetingKey: targetingKey, attributes: attributes)
        var disagreements: [Disagreement] = []
        var reasons: [String: Int] = [:]
        for (key, answer) in expected.sorted(by: { $0.key < $1.key }) {
            let evaluation = payload.evaluate(key, in: context)
            let configCat = ConfigCatAnswer(answer)
            reasons[configCat.reason + (configCat.errorCode.map { " " + $0 } ?? ""), default: 0] += 1
            let differences = configCat.differences(from: evaluation)
            guard !differences.isEmpty else { continue }
            let flagged = flags[key]?.arrayValue?.compactMap(\.stringValue) ?? []
            let read = evaluation.decision?.attributesRead ?? []
            let text = """
                case \(number), setting \(key)\(flagged.isEmpty ? "" : " (flags \(flagged))"): \(differences.joined(separator: "; "))
                  library: \(evaluation.summaryLine); read \(read.joined(separator: ", "))
                  targetingKey: \(targetingKey.map { "\"\($0)\"" } ?? "none"), attributes: \(ConfigValue.object(attributes).jsonText())
                  setting: \((document["f"] ?? document["flags"])?[key]?.jsonText() ?? "(none)")\(payload.rejection(of: key))
                  segments: \(document["s"]?.jsonText() ?? "(none)"), salt: \(document["p"]?["s"]?.jsonText() ?? "(none)")
                """
            disagreements.append(Disagreement(text: text, flags: flagged, read: read))
        }
        return CaseOutcome(answers: expected.count, reasons: reasons, disagreements: disagreements)
    }
}

/// What ConfigCat answered for one setting, and how the library's `EvaluationDetails` must match it.
struct ConfigCatAnswer {
    let value: ConfigValue
    let variationID: String?
    let match: String?
    let reason: String
    let errorCode: String?
    let error: String?

    init(_ json: ConfigValue) {
        value = json["value"] ?? .null
        variationID = json["variationId"]?.stringValue
        match = json["match"]?.stringValue
        reason = json["reason"]?.stringValue ?? "?"
        errorCode = json["errorCode"]?.stringValue
        error = json["error"]?.stringValue
    }

    /// What differs between this answer and the library's `evaluation`, in words.
    func differences(from evaluation: EvaluationDetails<ConfigValue?>) -> [String] {
        var differences: [String] = []
        if !Self.same(evaluation.value ?? .null, value) {
            differences.append("value \(value.jsonText()), library \(evaluation.value?.jsonText() ?? "none")")
        }
        if evaluation.variant != variationID {
            differences.append("variation ID \(variationID ?? "none"), library \(evaluation.variant ?? "none")")
        }
        let libraryMatch = evaluation.decision?.match?.ruleID
        if libraryMatch != match { differences.append("match \(match ?? "none"), library \(libraryMatch ?? "none")") }
        if evaluation.reason.rawValue != reason { differences.append("reason \(reason), library \(evaluation.reason.rawValue)") }
        if evaluation.errorCode?.rawValue != errorCode {
            differences.append("error code \(errorCode ?? "none"), library \(evaluation.errorCode?.rawValue ?? "none")")
        }
        if let error, error.hasPrefix("Circular dependency"), evaluation.errorMessage != error {
            differences.append("error \"\(error)\", library \"\(evaluation.errorMessage ?? "none")\"")
        }
        return differences
    }

    /// Values compared as ConfigCat serves them: numbers by value (Python reads `{"d": 1}` as the integer 1), strings by code points.
    static func same(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): Double(x) == y
        default: a == b
        }
    }
}

extension EvaluationDetails<ConfigValue?> {
    /// `true, variant on, TARGETING_MATCH r[0]`: the parts the comparison reads.
    fileprivate var summaryLine: String {
        var parts = [value?.jsonText() ?? "no value", "variant \(variant ?? "none")", reason.rawValue]
        if let ruleID = decision?.match?.ruleID { parts.append(ruleID) }
        if let errorCode { parts.append("\(errorCode): \(errorMessage ?? "")") }
        return parts.joined(separator: ", ")
    }
}

extension DecodedPayload {
    /// `; rejected: …` when the library rejected the setting when reading the config.
    fileprivate func rejection(of key: String) -> String {
        guard let problems = ruleProblems[key] else { return "" }
        return "; rejected: " + problems.map(\.description).joined(separator: "; ")
    }
}
