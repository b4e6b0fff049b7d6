import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import Testing

/// The flagd format against flagd's own evaluator: random flag definitions and contexts from
/// `Oracles/flagd_oracle.py`, resolved there by flagd-core (`openfeature-flagd-core`, the in-process
/// evaluator of flagd's Python provider) and here through the library's public API
/// (`FlagdFormat().decode` then `DecodedPayload.evaluate`), compared flag by flag: the value
/// (or that flagd served the caller's default), the variant, the reason, the error code, and the
/// metadata (`DecodedPayload.flagMetadata`).
///
/// Where the library answers otherwise by design, the oracle flags the flag with a
/// ``FlagdKnownDifference`` (each listed in `Modules/FlagdFormat/FORMAT.md`), and only there may
/// the answers differ.
///
/// Long run: `RC_DIFF_SEED=<seed> RC_DIFF_CASES=20000 swift test --skip-build --filter FlagdDifferential`.
@Suite("flagd: the library against flagd's own evaluator", .requiring(.flagd))
struct FlagdDifferentialTests {
    /// The seed of the default run (`make test`); the long run uses another.
    static let defaultSeed: UInt64 = 29

    @Test("random flag definitions and contexts: every flag's value, variant, reason, error code and metadata agree")
    func agreement() throws {
        try Oracle.flagd.agreement(
            of: "flagd", comparing: "flag evaluations", suite: "FlagdDifferential", defaultSeed: Self.defaultSeed
        ) { try Self.compare($0, with: FlagdFormat()) }
    }

    @Test("the comparison has teeth: fractional hashed as text (flagd's daemon) disagrees with flagd-core's CBOR")
    func negativeControl() throws {
        let lines = try Oracle.flagd.cases(["--seed", "\(Self.defaultSeed)", "--cases", "400"])
        let tally = try Self.compare(lines, with: FlagdFormat(fractionalHashing: .concatenatedString))
        #expect(tally.failures.count > 20, "only \(tally.failures.count) disagreements")
        #expect(tally.failures.allSatisfy { $0.text.contains("fractional") }, "a disagreement without a fractional")
    }

    /// Decodes each line's payload with `format` (once per payload) and compares every flag.
    static func compare(
        _ lines: [ConfigValue], with format: FlagdFormat
    ) throws -> DifferentialTally<FlagdKnownDifference> {
        var tally = DifferentialTally<FlagdKnownDifference>()
        var decoded: (text: String, payload: DecodedPayload)?
        for line in lines {
            let oracleCase = try FlagdCase(line)
            let text = oracleCase.payload.jsonText()
            if decoded?.text != text { decoded = (text, try format.decode(Data(text.utf8))) }
            if let payload = decoded?.payload { tally.add(oracleCase.compare(payload)) }
        }
        return tally
    }
}

extension Oracle {
    /// flagd's in-process evaluator (`openfeature-flagd-core` on PyPI).
    static let flagd = Oracle(script: "flagd_oracle.py", module: "openfeature.contrib.tools.flagd.core")
}

/// Where the library answers otherwise than flagd-core by design (`Modules/FlagdFormat/FORMAT.md`,
/// "Differences from flagd"); the oracle computes each predicate by watching flagd-core's own functions.
enum FlagdKnownDifference: String, CaseIterable, KnownDifference {
    /// The targeting has an operator flagd does not know, or a `$ref` to an evaluator the payload
    /// lacks: the library rejects the flag when it reads the payload (`PARSE_ERROR` for every
    /// context); flagd-core fails only when an evaluation reaches that operator.
    case unknownOperator = "unknown-operator"
    /// `==` or `!=` compared an array or object with itself: flagd-core's JsonLogic compares arrays
    /// and objects by identity (true for the same context value read twice); the library's JSON
    /// values have no identity, and it answers false.
    case identityEquality = "identity-equality"
}

/// One line of the oracle: a flag definition, a context, and what flagd answered for each flag.
struct FlagdCase {
    let number: Int
    let payload: ConfigValue
    let targetingKey: String?
    let attributes: [String: ConfigValue]
    let expected: [String: ConfigValue]
    let flags: [String: ConfigValue]

    init(_ line: ConfigValue) throws {
        guard let number = line["case"]?.intValue, let payload = line["payload"],
            let attributes = line["attributes"]?.objectValue, let expected = line["expected"]?.objectValue
        else { throw OracleError(description: "a case line without case, payload, attributes or expected") }
        self.number = Int(number)
        self.payload = payload
        self.targetingKey = line["targetingKey"]?.stringValue
        self.attributes = attributes
        self.expected = expected
        self.flags = line["flags"]?.objectValue ?? [:]
    }

    /// Evaluates every flag of the line through the public API and compares it with flagd's answer.
    func compare(_ decoded: DecodedPayload) -> CaseOutcome {
        let context = EvaluationContext(targetingKey: targetingKey, attributes: attributes)
        var disagreements: [Disagreement] = []
        var reasons: [String: Int] = [:]
        for (key, answer) in expected.sorted(by: { $0.key < $1.key }) {
            let evaluation = decoded.evaluate(key, in: context)
            let flagd = FlagdAnswer(answer)
            reasons[flagd.reason + (flagd.errorCode.map { " " + $0 } ?? ""), default: 0] += 1
            let differences = flagd.differences(from: evaluation, metadata: decoded.flagMetadata[key])
            guard !differences.isEmpty else { continue }
            let flagged = flags[key]?.arrayValue?.compactMap(\.stringValue) ?? []
            let text = """
                case \(number), flag \(key)\(flagged.isEmpty ? "" : " (flags \(flagged))"): \(differences.joined(separator: "; "))
                  library: \(evaluation)
                  targetingKey: \(targetingKey.map { "\"\($0)\"" } ?? "none"), attributes: \(ConfigValue.object(attributes).jsonText())
                  flag: \(payload["flags"]?[key]?.jsonText() ?? "(none)")
                  $evaluators: \(payload["$evaluators"]?.jsonText() ?? "(none)")
                """
            disagreements.append(Disagreement(text: text, flags: flagged))
        }
        return CaseOutcome(answers: expected.count, reasons: reasons, disagreements: disagreements)
    }
}

/// What flagd-core answered for one flag, and how the library's `EvaluationDetails` must match it.
struct FlagdAnswer {
    let value: ConfigValue
    let servedDefault: Bool
    let variant: String?
    let reason: String
    let errorCode: String?
    let metadata: [String: ConfigValue]?

    init(_ json: ConfigValue) {
        value = json["value"] ?? .null
        servedDefault = json["default"]?.boolValue ?? false
        variant = json["variant"]?.stringValue
        reason = json["reason"]?.stringValue ?? "?"
        errorCode = json["errorCode"]?.stringValue
        metadata = json["metadata"]?.objectValue
    }

    /// What differs between this answer and the library's `evaluation` (with the payload's `metadata` for the flag), in words.
    func differences(from evaluation: EvaluationDetails<ConfigValue?>, metadata libraryMetadata: [String: ConfigValue]?)
        -> [String]
    {
        var differences: [String] = []
        if servedDefault {
            if let served = evaluation.value {
                differences.append("flagd served the caller's default, library \(served.jsonText())")
            }
        } else if !Self.same(evaluation.value, value) {
            differences.append("value \(value.jsonText()), library \(evaluation.value?.jsonText() ?? "none")")
        }
        if evaluation.variant != variant {
            differences.append(
                "variant \(variant.map { "\"\($0)\"" } ?? "none"), library \(evaluation.variant.map { "\"\($0)\"" } ?? "none")")
        }
        if evaluation.reason.rawValue != reason { differences.append("reason \(reason), library \(evaluation.reason.rawValue)") }
        if evaluation.errorCode?.rawValue != errorCode {
            differences.append("error code \(errorCode ?? "none"), library \(evaluation.errorCode?.rawValue ?? "none")")
        }
        if let metadata, !Self.same(.object(metadata), .object(libraryMetadata ?? [:])) {
            differences.append(
                "metadata \(ConfigValue.object(metadata).jsonText()), library \(ConfigValue.object(libraryMetadata ?? [:]).jsonText())"
            )
        }
        return differences
    }

    /// JSON values compared exactly: `1` and `1.0` differ (flagd serves the variant's value as written), strings by code points.
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
