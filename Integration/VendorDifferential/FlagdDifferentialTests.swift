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
    /// The cases of the default run.
    static let defaultCases = 5_000
    /// The most disagreements a failure prints.
    static let printedLimit = 20

    @Test("random flag definitions and contexts: every flag's value, variant, reason, error code and metadata agree")
    func agreement() throws {
        let (seed, count) = Oracle.run(defaultSeed: Self.defaultSeed, defaultCases: Self.defaultCases)
        let clock = ContinuousClock()
        let start = clock.now
        let lines = try Oracle.flagd.cases(["--seed", "\(seed)", "--cases", "\(count)"])
        let oracleTime = clock.now - start
        let tally = try Self.compare(lines, with: FlagdFormat())
        let elapsed = clock.now - start
        print(
            "flagd differential: seed \(seed), \(lines.count) cases (\(tally.flags) flag evaluations: \(tally.reasonSummary)): "
                + "\(tally.agreeingCases) cases agree in every flag; \(tally.allowedSummary); "
                + "\(tally.failures.count) other disagreements; \(elapsed), of which the oracle \(oracleTime)")
        #expect(lines.count == count, "the oracle printed \(lines.count) cases of \(count)")
        let unknownFlags = tally.unknownFlags.sorted()
        #expect(unknownFlags.isEmpty, "the oracle flagged differences no entry names: \(unknownFlags)")
        let shown = tally.failures.prefix(Self.printedLimit).joined(separator: "\n\n")
        #expect(
            tally.failures.isEmpty,
            """
            seed \(seed): \(tally.failures.count) flags disagree outside the known differences (first \(Self.printedLimit)):
            \(shown)
            Reproduce: RC_DIFF_SEED=\(seed) RC_DIFF_CASES=\(count) swift test --skip-build --filter FlagdDifferential
            """)
    }

    @Test("the comparison has teeth: fractional hashed as text (flagd's daemon) disagrees with flagd-core's CBOR")
    func negativeControl() throws {
        let lines = try Oracle.flagd.cases(["--seed", "\(Self.defaultSeed)", "--cases", "400"])
        let tally = try Self.compare(lines, with: FlagdFormat(fractionalHashing: .concatenatedString))
        #expect(tally.failures.count > 20, "only \(tally.failures.count) disagreements")
        #expect(tally.failures.allSatisfy { $0.contains("fractional") }, "a disagreement without a fractional")
    }

    /// Decodes each line's payload with `format` (once per payload) and compares every flag.
    static func compare(_ lines: [ConfigValue], with format: FlagdFormat) throws -> FlagdTally {
        var tally = FlagdTally()
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
enum FlagdKnownDifference: String, CaseIterable {
    /// The targeting has an operator flagd does not know, or a `$ref` to an evaluator the payload
    /// lacks: the library rejects the flag when it reads the payload (`PARSE_ERROR` for every
    /// context); flagd-core fails only when an evaluation reaches that operator.
    case unknownOperator = "unknown-operator"
    /// `==` or `!=` compared an array or object with itself: flagd-core's JsonLogic compares arrays
    /// and objects by identity (true for the same context value read twice); the library's JSON
    /// values have no identity, and it answers false.
    case identityEquality = "identity-equality"
}

/// The agreements and disagreements so far.
struct FlagdTally {
    var flags = 0
    var agreeingCases = 0
    /// flagd's reasons (and error codes), counted.
    var reasons: [String: Int] = [:]
    /// Disagreements a known difference explains, by its name.
    var allowed: [String: Int] = [:]
    var unknownFlags: Set<String> = []
    var failures: [String] = []

    mutating func add(_ outcome: FlagdCase.Outcome) {
        flags += outcome.flags
        for (reason, count) in outcome.reasons { reasons[reason, default: 0] += count }
        if outcome.disagreements.isEmpty { agreeingCases += 1 }
        for disagreement in outcome.disagreements {
            let known = disagreement.flags.compactMap(FlagdKnownDifference.init(rawValue:))
            unknownFlags.formUnion(disagreement.flags.filter { FlagdKnownDifference(rawValue: $0) == nil })
            if known.isEmpty {
                failures.append(disagreement.text)
            } else {
                for entry in known { allowed[entry.rawValue, default: 0] += 1 }
            }
        }
    }

    /// `STATIC 2644, TARGETING_MATCH 4554, …`.
    var reasonSummary: String {
        reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// `31 flags differ where a known difference applies (identity-equality 31)`.
    var allowedSummary: String {
        let total = allowed.values.reduce(0, +)
        let parts = allowed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "\(total) flags differ where a known difference applies (\(parts.joined(separator: ", ")))"
    }
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

    /// A flag whose answers differ, and the oracle's flags for it.
    struct Disagreement {
        var text: String
        var flags: [String]
    }

    /// How many flags were compared, flagd's reasons, and the flags that disagree.
    struct Outcome {
        var flags: Int
        var reasons: [String: Int]
        var disagreements: [Disagreement]
    }

    /// Evaluates every flag of the line through the public API and compares it with flagd's answer.
    func compare(_ decoded: DecodedPayload) -> Outcome {
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
        return Outcome(flags: expected.count, reasons: reasons, disagreements: disagreements)
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
    func differences(from evaluation: EvaluationDetails<ConfigValue?>, metadata libraryMetadata: [String: ConfigValue]?) -> [String] {
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
