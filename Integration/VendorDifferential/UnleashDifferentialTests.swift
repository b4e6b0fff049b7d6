import ConfigDomain
import ConfigPorts
import Foundation
import Testing
import UnleashFormat

/// `UnleashFormat` against Unleash's own engine, Yggdrasil, on random payloads and contexts.
///
/// `Oracles/unleash_oracle.py` generates the cases from a seed and evaluates them with Yggdrasil
/// (`yggdrasil-engine`, which `UnleashClient` installs); this suite evaluates the same payloads
/// through the public API, `UnleashFormat(hostname:).decode(_:)` then
/// `DecodedPayload.evaluate(_:in:)` on `<flag>`, `<flag>.variant` and `<flag>.payload`, all in this
/// process, and compares the Boolean, the variant's name, its payload and whether it is enabled.
///
/// - A case is one payload-context pair. The default run is ``defaultCases`` cases from
///   ``defaultSeed``; `RC_DIFF_SEED` and `RC_DIFF_CASES` choose others, as in the long run:
///   `RC_DIFF_SEED=7 RC_DIFF_CASES=20000 swift test --skip-build --filter UnleashDifferential`.
/// - Answers that depend on a random draw (`gradualRolloutRandom`, `random` stickiness, `default`
///   stickiness without a `userId` or `sessionId`, a stickiness field the context lacks) cannot be
///   compared by value: Yggdrasil draws on every call, the format once per payload and context.
///   The oracle marks them, and for them only invariants are checked: the payload is the served
///   variant's, a variant is served only when the feature is enabled, and an enabled feature with
///   variants serves one. The invariants are checked on every answer.
/// - The oracle's context maps onto an `EvaluationContext` in turns, so that every route is taken:
///   the `userId` is an attribute or the targeting key, and custom properties are attributes or
///   members of a `properties` object.
/// - Yggdrasil as the Python SDK embeds it has no host name, so `applicationHostname` is always
///   off there; the format is given ``hostname``, which no generated `hostNames` holds.
/// - A feature the format rejects is a disagreement: the oracle writes only payloads the engine reads.
/// - Every disagreement fails, with its payload, context and both answers (the first
///   ``printedLimit`` in full), unless it matches an entry of ``knownDifferences``.
@Suite("Unleash format against Unleash's engine", .requiring(.yggdrasil))
struct UnleashDifferentialTests {
    /// The seed of the default run (`make test`); the long run uses another.
    static let defaultSeed: UInt64 = 29
    /// The cases of the default run.
    static let defaultCases = 5_000
    /// The host name the format compares `applicationHostname` with: never one the oracle generates.
    static let hostname = "no-such-host.invalid"
    /// How many disagreements are printed in full.
    static let printedLimit = 20

    /// The deliberate differences from Yggdrasil that the comparison tolerates, each also listed in
    /// `Modules/UnleashFormat/FORMAT.md` ("Differences from Unleash's engine"). None is needed:
    /// the two the random payloads reach, random draws and `applicationHostname`, are handled as
    /// the suite's documentation says, and the others lie outside what the oracle generates.
    static let knownDifferences: [KnownDifference] = []

    @Test("random payloads and contexts: every answer is Yggdrasil's")
    func agreesWithYggdrasil() throws {
        let (seed, cases) = Oracle.run(defaultSeed: Self.defaultSeed, defaultCases: Self.defaultCases)
        let started = Date()
        let lines = try Oracle.yggdrasil.cases(["--seed", "\(seed)", "--cases", "\(cases)"])
        let oracleSeconds = Date().timeIntervalSince(started)
        var tally = Tally()
        for line in lines {
            try Self.compare(line, into: &tally)
        }
        print(
            "Unleash differential: seed \(seed), \(tally.cases) cases (payload-context pairs), "
                + "\(tally.cases - tally.casesDisagreeing) agree; \(tally.answers) feature answers, "
                + "\(tally.answers - tally.disagreements.count) agree (\(tally.randomAnswers) by invariants only), "
                + "\(tally.tolerated) known differences tolerated, \(tally.disagreements.count) disagreements; "
                + String(format: "%.1f s, of which the oracle %.1f s", Date().timeIntervalSince(started), oracleSeconds))
        #expect(tally.cases == cases, "the oracle wrote \(tally.cases) cases, asked for \(cases)")
        for disagreement in tally.disagreements.prefix(Self.printedLimit) {
            Issue.record(Comment(rawValue: disagreement))
        }
        #expect(
            tally.disagreements.isEmpty,
            """
            \(tally.disagreements.count) disagreements with Yggdrasil (seed \(seed), \(cases) cases); the first \
            \(Self.printedLimit) are above. Reproduce: RC_DIFF_SEED=\(seed) RC_DIFF_CASES=\(cases) swift test \
            --skip-build --filter UnleashDifferential
            """)
    }
}

extension UnleashDifferentialTests {
    /// The running counts of one run.
    struct Tally {
        var cases = 0
        var casesDisagreeing = 0
        var answers = 0
        var randomAnswers = 0
        var tolerated = 0
        var disagreements: [String] = []
    }

    /// Decodes the line's payload, evaluates each feature for each of its contexts, and records what differs.
    static func compare(_ line: ConfigValue, into tally: inout Tally) throws {
        let index = try #require(line["case"]?.intValue)
        let document = try #require(line["payload"])
        let contexts = try #require(line["contexts"]?.arrayValue)
        let expectations = try #require(line["expected"]?.arrayValue)
        let decoded = try UnleashFormat(hostname: hostname).decode(Data(document.jsonText().utf8))
        if !decoded.ruleProblems.isEmpty {
            let problems = decoded.ruleProblems.values.joined().map(\.description)
            tally.disagreements.append(
                "case \(index): the format rejects features Yggdrasil reads: \(problems)\n  payload: \(document.jsonText())")
        }
        var definitions: [String: ConfigValue] = [:]
        for feature in document["features"]?.arrayValue ?? [] {
            if let name = feature["name"]?.stringValue { definitions[name] = feature }
        }
        for (position, (oracleContext, expected)) in zip(contexts, expectations).enumerated() {
            let turn = tally.cases
            tally.cases += 1
            let context = evaluationContext(oracleContext, turn: turn)
            var caseDisagrees = false
            for (name, answer) in expected.objectValue ?? [:] {
                tally.answers += 1
                let expectation = try Expectation(answer)
                if expectation.randomEnabled || expectation.randomVariant { tally.randomAnswers += 1 }
                let sample = Sample(feature: name, definition: definitions[name] ?? .null, decoded: decoded, context: context)
                let differences = sample.invariantViolations() + sample.differences(from: expectation)
                guard !differences.isEmpty else { continue }
                if knownDifferences.contains(where: { $0.applies(document, oracleContext, name) }) {
                    tally.tolerated += 1
                    continue
                }
                caseDisagrees = true
                tally.disagreements.append(
                    """
                    case \(index).\(position) (turn \(turn)), feature "\(name)": \(differences.joined(separator: "; "))
                      format:    \(sample.summary)
                      Yggdrasil: \(expectation.summary)
                      context:   \(oracleContext.jsonText()) → \(context)
                      payload:   \(document.jsonText())
                    """)
            }
            if caseDisagrees { tally.casesDisagreeing += 1 }
        }
    }

    /// The oracle's Unleash context as an `EvaluationContext`. Turns alternate how it is written:
    /// odd turns pass `userId` as the targeting key, and turns 2 and 3 of every 4 pass custom
    /// properties inside a `properties` object attribute instead of as attributes.
    static func evaluationContext(_ value: ConfigValue, turn: Int) -> EvaluationContext {
        var attributes: [String: ConfigValue] = [:]
        var targetingKey: String?
        for (name, field) in value.objectValue ?? [:] where name != "properties" {
            if name == "userId", turn % 2 == 1 {
                targetingKey = field.stringValue
            } else {
                attributes[name] = field
            }
        }
        if let properties = value["properties"]?.objectValue {
            if turn / 2 % 2 == 1 {
                attributes["properties"] = .object(properties)
            } else {
                attributes.merge(properties) { standard, _ in standard }
            }
        }
        return EvaluationContext(targetingKey: targetingKey, attributes: attributes)
    }

    /// What Yggdrasil answered for one feature and context.
    struct Expectation {
        let enabled: Bool
        let variant: String
        /// The payload as Yggdrasil gives it (`type`, `value`), or nil.
        let payload: ConfigValue?
        let variantEnabled: Bool
        /// Whether `enabled` depends on a random draw for this context.
        let randomEnabled: Bool
        /// Whether the variant depends on a random draw for this context.
        let randomVariant: Bool

        init(_ answer: ConfigValue) throws {
            enabled = try Self.flag(answer, "enabled")
            variant = try #require(answer["variant"]?.stringValue)
            payload = answer["payload"].flatMap { $0.isNull ? nil : $0 }
            variantEnabled = try Self.flag(answer, "variantEnabled")
            randomEnabled = try Self.flag(answer, "randomEnabled")
            randomVariant = try Self.flag(answer, "randomVariant")
        }

        /// The Boolean member `name` of `answer`.
        private static func flag(_ answer: ConfigValue, _ name: String) throws -> Bool {
            guard case .bool(let value)? = answer[name] else { throw OracleError(description: "no Boolean \(name) in \(answer)") }
            return value
        }

        /// The payload as the format serves it.
        var payloadValue: ConfigValue? { payload.flatMap(Self.payloadValue) }

        /// `{"type", "value"}` as the format serves it: `json` parsed, `number` as an integer or a
        /// double, any other type as the text.
        static func payloadValue(_ payload: ConfigValue) -> ConfigValue? {
            guard let type = payload["type"]?.stringValue, let text = payload["value"]?.stringValue else { return nil }
            switch type {
            case "json": return try? JSONParser().parse(Data(text.utf8))
            case "number": return Int64(text).map(ConfigValue.int) ?? Double(text).map(ConfigValue.double)
            default: return .string(text)
            }
        }

        var summary: String {
            "enabled \(enabled), variant \(variant) (enabled \(variantEnabled)), payload \(payload?.jsonText() ?? "none")"
                + (randomEnabled || randomVariant ? " [random: enabled \(randomEnabled), variant \(randomVariant)]" : "")
        }
    }

    /// What the format answered for one feature and context, through the public API.
    struct Sample {
        let feature: String
        /// The feature as the payload defines it.
        let definition: ConfigValue
        let enabled: ConfigValue?
        let variant: ConfigValue?
        let payload: ConfigValue?

        init(feature: String, definition: ConfigValue, decoded: DecodedPayload, context: EvaluationContext) {
            self.feature = feature
            self.definition = definition
            enabled = decoded.evaluate(feature, in: context).value
            variant = decoded.evaluate(feature + ".variant", in: context).value
            payload = decoded.evaluate(feature + ".payload", in: context).value
        }

        var variantName: String { variant?.stringValue ?? "(none)" }
        /// Whether a variant is served (Unleash's `variant.enabled`).
        var variantEnabled: Bool { variantName != UnleashFormat.disabledVariantName }

        /// How the answer differs from Yggdrasil's, on what does not depend on a random draw.
        func differences(from expected: Expectation) -> [String] {
            var differences: [String] = []
            if !expected.randomEnabled, enabled != .bool(expected.enabled) {
                differences.append("enabled: format \(enabled?.jsonText() ?? "none"), Yggdrasil \(expected.enabled)")
            }
            guard !expected.randomVariant else { return differences }
            if variantName != expected.variant {
                differences.append("variant: format \(variantName), Yggdrasil \(expected.variant)")
            } else if payload != expected.payloadValue {
                differences.append(
                    "payload: format \(payload?.jsonText() ?? "none"), Yggdrasil \(expected.payloadValue?.jsonText() ?? "none")")
            }
            if variantEnabled != expected.variantEnabled {
                differences.append("variant enabled: format \(variantEnabled), Yggdrasil \(expected.variantEnabled)")
            }
            return differences
        }

        /// The format's own consistency, random draws or not: the payload is the served variant's, a
        /// variant is served only when the feature is enabled, and an enabled feature with variants serves one.
        func invariantViolations() -> [String] {
            var violations: [String] = []
            if variantEnabled, enabled != .bool(true) {
                violations.append("variant \(variantName) served while the feature is \(enabled?.jsonText() ?? "none")")
            }
            let featureVariants = definition["variants"]?.arrayValue ?? []
            if enabled == .bool(true), !featureVariants.isEmpty, !variantEnabled {
                violations.append("enabled, with variants, but serves \(variantName)")
            }
            if variantEnabled {
                let strategyVariants = (definition["strategies"]?.arrayValue ?? []).flatMap { $0["variants"]?.arrayValue ?? [] }
                let payloads = (featureVariants + strategyVariants).filter { $0["name"]?.stringValue == variantName }.map {
                    $0["payload"].flatMap { $0.isNull ? nil : Expectation.payloadValue($0) }
                }
                if !payloads.contains(payload) {
                    violations.append("payload \(payload?.jsonText() ?? "none") is not variant \(variantName)'s")
                }
            } else if payload != nil {
                violations.append("payload \(payload?.jsonText() ?? "none") without a variant")
            }
            return violations
        }

        var summary: String {
            "enabled \(enabled?.jsonText() ?? "none"), variant \(variantName), payload \(payload?.jsonText() ?? "none")"
        }
    }

    /// A deliberate difference from Yggdrasil that the comparison tolerates.
    struct KnownDifference: Sendable {
        /// What Yggdrasil does, and why the format does otherwise (as FORMAT.md says).
        let description: String
        /// Whether a disagreement on this feature of this payload, for this context, is this difference.
        let applies: @Sendable (_ payload: ConfigValue, _ context: ConfigValue, _ feature: String) -> Bool
    }
}

extension Oracle {
    /// Unleash's engine, Yggdrasil, as `UnleashClient` installs it.
    static let yggdrasil = Oracle(script: "unleash_oracle.py", module: "yggdrasil_engine")
}
