import ConfigDomain
import ConfigPorts
import Foundation
import GrowthBookFormat
import Testing

/// The GrowthBook format against GrowthBook's own engine: random payloads and contexts from
/// `Oracles/growthbook_oracle.py`, evaluated by GrowthBook's Python SDK there and by the library's
/// public API here (`GrowthBookFormat().decode` then `DecodedPayload.evaluate`).
///
/// GrowthBook's JavaScript SDK is the reference. Where its Python SDK answers otherwise, the oracle
/// flags the feature with a ``GrowthBookKnownDifference``, and only there may the answers differ.
///
/// Long run: `RC_DIFF_SEED=<seed> RC_DIFF_CASES=20000 swift test --skip-build --filter GrowthBookDifferential`.
@Suite("GrowthBook: the library against GrowthBook's own SDK", .requiring(.growthBook))
struct GrowthBookDifferentialTests {
    @Test("random payloads and contexts: every feature's value, source, rule and variation agree")
    func agreement() throws {
        try Oracle.growthBook.agreement(
            of: "GrowthBook", comparing: "feature evaluations", suite: "GrowthBookDifferential", defaultSeed: 29
        ) { lines in
            var tally = DifferentialTally<GrowthBookKnownDifference>()
            for line in lines { tally.add(try GrowthBookCase(line).compare()) }
            return tally
        }
    }
}

extension Oracle {
    /// GrowthBook's Python SDK (`growthbook` on PyPI).
    static let growthBook = Oracle(script: "growthbook_oracle.py", module: "growthbook")
}

/// Where GrowthBook's Python SDK answers otherwise than its JavaScript SDK, which the library follows.
/// The oracle computes each predicate from the case by watching the Python SDK's own functions.
enum GrowthBookKnownDifference: String, CaseIterable, KnownDifference {
    /// A condition compared values of different types (a string with a number, a boolean with a
    /// number, a version with a number, a regular expression with a non-string). Python answers
    /// false; JavaScript converts the values as its operators `+ ""`, `* 1`, `<` and `RegExp.test` do.
    case typedCompare = "typed-compare"
    /// The attribute to hash held `true`, an array or an object. Python hashes only non-empty
    /// strings and numbers and leaves the context out; JavaScript hashes any truthy value's text.
    case hashValue = "hash-value"
    /// `$elemMatch` met an element `0`, `""` or `false`: JavaScript skips falsy elements, Python tests them.
    case elemMatchFalsy = "elemmatch-falsy"
    /// A force rule's rollout hashed its `fallbackAttribute`. JavaScript reads the fallback only
    /// with sticky bucketing, which these cases do not use; Python always does.
    case rolloutFallback = "rollout-fallback"
    /// A force rule's bucket equals its `coverage`: JavaScript includes the context (`<=`), Python does not (`<`).
    case coverageBoundary = "coverage-boundary"
    /// The assigned variation's meta `key` is `""`: JavaScript names the variation by its index
    /// (`meta.key || index`), Python names it `""`.
    case emptyMetaKey = "empty-meta-key"

    /// The answers the difference may change: every one, or for an empty meta key the variation's key alone.
    var affects: Set<GrowthBookAnswer.Field> {
        self == .emptyMetaKey ? [.variation] : Set(GrowthBookAnswer.Field.allCases)
    }

    /// The differences flagged explain a disagreement when every answer that differs is one they may change.
    static func explain(_ disagreement: Disagreement, by known: [Self]) -> Bool {
        let explained = known.reduce(into: Set<String>()) { fields, entry in fields.formUnion(entry.affects.map(\.rawValue)) }
        return !known.isEmpty && disagreement.fields.isSubset(of: explained)
    }
}

/// One line of the oracle: a payload, a context, and what GrowthBook answered for each feature.
struct GrowthBookCase {
    let number: Int
    let payload: ConfigValue
    let attributes: [String: ConfigValue]
    let usesTargetingKey: Bool
    let expected: [String: ConfigValue]
    let flags: [String: ConfigValue]

    init(_ line: ConfigValue) throws {
        guard let number = line["case"]?.intValue, let payload = line["payload"],
            let attributes = line["attributes"]?.objectValue, let expected = line["expected"]?.objectValue
        else { throw OracleError(description: "a case line without case, payload, attributes or expected") }
        self.number = Int(number)
        self.payload = payload
        self.attributes = attributes
        self.usesTargetingKey = line["targetingKey"]?.boolValue ?? false
        self.expected = expected
        self.flags = line["flags"]?.objectValue ?? [:]
    }

    /// The context as an app passes it: the string `id` as the targeting key when the case asks so.
    var context: EvaluationContext {
        guard usesTargetingKey, case .string(let id)? = attributes["id"] else { return EvaluationContext(attributes: attributes) }
        var rest = attributes
        rest["id"] = nil
        return EvaluationContext(targetingKey: id, attributes: rest)
    }

    /// Evaluates every feature through the public API and compares it with GrowthBook's answer.
    func compare() throws -> CaseOutcome {
        let decoded = try GrowthBookFormat().decode(Data(payload.jsonText().utf8))
        let context = context
        var disagreements: [Disagreement] = []
        for (feature, answer) in expected.sorted(by: { $0.key < $1.key }) {
            let evaluation = decoded.evaluate(feature, in: context)
            let differences = GrowthBookAnswer(answer).differences(from: evaluation, rules: rules(of: feature))
            guard !differences.isEmpty else { continue }
            let flagged = flags[feature]?.arrayValue?.compactMap(\.stringValue) ?? []
            let text = """
                case \(number), feature \(feature)\(flagged.isEmpty ? "" : " (flags \(flagged))"): \(differences.map(\.text).joined(separator: "; "))
                  library: \(evaluation)
                  attributes: \(ConfigValue.object(attributes).jsonText())\(usesTargetingKey ? " (id as the targeting key)" : "")
                  feature: \(payload["features"]?[feature]?.jsonText() ?? "?")
                """
            disagreements.append(Disagreement(text: text, flags: flagged, fields: Set(differences.map(\.field.rawValue))))
        }
        return CaseOutcome(answers: expected.count, disagreements: disagreements)
    }

    private func rules(of feature: String) -> [ConfigValue] {
        payload["features"]?[feature]?["rules"]?.arrayValue ?? []
    }
}

/// What GrowthBook's SDK answered for one feature, and how the library's `EvaluationDetails` must match it.
///
/// The library serves nothing (nil) where GrowthBook's value is `null`; a feature with rules and
/// no deciding rule answers `DEFAULT`, one without rules `STATIC` (or `FLAG_NOT_FOUND` when its
/// default is null). A force rule answers `TARGETING_MATCH`, or `SPLIT` with a rollout, and an
/// experiment `SPLIT` with its variation key as the variant. A rule without an id is named
/// `rules[<index>]` by the library and `""` by GrowthBook.
struct GrowthBookAnswer {
    let value: ConfigValue
    let source: String
    let ruleID: String
    let on: Bool
    let inExperiment: Bool
    let hashUsed: Bool
    let variationID: Int?
    let variationKey: String?
    let bucket: Double?

    init(_ json: ConfigValue) {
        value = json["value"] ?? .null
        source = json["source"]?.stringValue ?? "?"
        ruleID = json["ruleId"]?.stringValue ?? ""
        on = json["on"]?.boolValue ?? false
        inExperiment = json["inExperiment"]?.boolValue ?? false
        hashUsed = json["hashUsed"]?.boolValue ?? false
        variationID = json["variationId"]?.intValue.map(Int.init)
        variationKey = json["variationKey"]?.stringValue
        bucket = json["bucket"].flatMap(JSONNumbers.number)
    }

    /// The answers compared.
    enum Field: String, CaseIterable {
        case value, on, source, rule, inExperiment, variation, variationID, bucket
    }

    /// One answer that differs, in words.
    struct Difference {
        var field: Field
        var text: String
    }

    /// What differs between this answer and the library's `evaluation` of a feature with `rules`.
    func differences(from evaluation: EvaluationDetails<ConfigValue?>, rules: [ConfigValue]) -> [Difference] {
        var differences: [Difference] = []
        func differ(_ field: Field, _ text: String) { differences.append(Difference(field: field, text: text)) }
        let match = evaluation.decision?.match
        let servesNothing = value.isNull
        if servesNothing ? evaluation.value != nil : !JSONNumbers.same(evaluation.value, value) {
            differ(.value, "value \(value.jsonText()), library \(evaluation.value?.jsonText() ?? "none")")
        }
        if JSONNumbers.isTruthy(evaluation.value) != on { differ(.on, "on \(on)") }
        switch source {
        case "force", "experiment":
            guard let match else {
                differ(.source, "source \(source) by rule \"\(ruleID)\", library no rule")
                break
            }
            if !sameRule(match.ruleID, rules: rules) { differ(.rule, "rule \"\(ruleID)\", library \(match.ruleID)") }
            let rule = Self.rule(named: match.ruleID, in: rules)
            let isRollout = source == "experiment" || rule?["coverage"] != nil || rule?["range"] != nil
            if evaluation.reason != (isRollout ? .split : .targetingMatch) {
                differ(.source, "source \(source), reason \(evaluation.reason.rawValue)")
            }
        case "defaultValue", "prerequisite", "cyclicPrerequisite":
            if let match { differ(.source, "source \(source), library rule \(match.ruleID)") }
            let reason: EvaluationReason = rules.isEmpty ? (servesNothing ? .error : .staticValue) : .defaultValue
            if evaluation.reason != reason { differ(.source, "source \(source), reason \(evaluation.reason.rawValue)") }
        default:
            differ(.source, "unexpected source \(source)")
        }
        let variant = source == "experiment" ? match?.variant : nil
        if inExperiment != (variant != nil) { differ(.inExperiment, "inExperiment \(inExperiment)") }
        if hashUsed != (variant != nil && match?.bucket != nil) { differ(.inExperiment, "hashUsed \(hashUsed)") }
        if inExperiment {
            if variant != variationKey {
                differ(.variation, "variation \"\(variationKey ?? "?")\", library \(variant ?? "none")")
            }
            if let index = variationIndex(of: variant, rules: rules, ruleID: match?.ruleID), index != variationID {
                differ(.variationID, "variationId \(variationID ?? -1), library \(index)")
            }
            if bucket != match?.bucket?.value {
                differ(
                    .bucket,
                    "bucket \(bucket.map { "\($0)" } ?? "none"), library \(match?.bucket.map { "\($0.value)" } ?? "none")")
            }
        }
        return differences
    }

    /// Whether the library's rule id names GrowthBook's: the same id, or `rules[i]` for a rule without one.
    private func sameRule(_ libraryID: String, rules: [ConfigValue]) -> Bool {
        if !ruleID.isEmpty { return libraryID == ruleID }
        guard let index = Self.ruleIndex(libraryID), index < rules.count else { return false }
        return (rules[index]["id"]?.stringValue ?? "").isEmpty
    }

    /// The rule the library names `name`: by its id, else `rules[i]` by its index.
    static func rule(named name: String, in rules: [ConfigValue]) -> ConfigValue? {
        if let rule = rules.first(where: { $0["id"]?.stringValue == name }) { return rule }
        guard let index = ruleIndex(name), index < rules.count else { return nil }
        return rules[index]
    }

    /// The index in `rules[7]`.
    static func ruleIndex(_ name: String) -> Int? {
        guard name.hasPrefix("rules["), name.hasSuffix("]") else { return nil }
        return Int(name.dropFirst(6).dropLast())
    }

    /// The index of the variation whose key is `variant` in the deciding rule, when exactly one has it.
    private func variationIndex(of variant: String?, rules: [ConfigValue], ruleID libraryID: String?) -> Int? {
        guard let variant, let libraryID else { return nil }
        guard let rule = Self.rule(named: libraryID, in: rules), let count = rule["variations"]?.arrayValue?.count else {
            return nil
        }
        let meta = rule["meta"]?.arrayValue ?? []
        let keys = (0..<count).map { index in
            let key = index < meta.count ? meta[index]["key"]?.stringValue ?? "" : ""
            return key.isEmpty ? String(index) : key
        }
        let indices = keys.indices.filter { keys[$0] == variant }
        return indices.count == 1 ? indices[0] : nil
    }
}

/// JSON values compared as JSON has them: one number type (`1` equals `1.0`), strings by their
/// Unicode scalars (as JavaScript compares them, not by canonical equivalence).
enum JSONNumbers {
    static func number(_ value: ConfigValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    static func same(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a ?? .null, b ?? .null) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { name, value in y[name].map { same(value, $0) } ?? false }
        case (let x, let y):
            guard let left = number(x), let right = number(y) else { return false }
            return left == right
        }
    }

    /// JavaScript's `!!value` (nil is `null`).
    static func isTruthy(_ value: ConfigValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: false
        case .string(let text)?: !text.isEmpty
        case .int(let number)?: number != 0
        case .double(let number)?: number != 0 && !number.isNaN
        default: true
        }
    }
}
