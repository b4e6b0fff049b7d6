import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import Testing

/// The Firebase template format against Firebase's own server-side evaluation: random server
/// templates and contexts from `Oracles/firebase_oracle.py`, evaluated there by firebase-admin for
/// Python (`init_server_template(…).evaluate(context)`) and here through the library's public API
/// (`FirebaseTemplateFormat().decode` then `DecodedPayload.evaluate`), compared parameter by
/// parameter: the value (firebase-admin's string, converted by the parameter's `valueType` as the
/// format converts it; none when firebase-admin serves the app's default) and where it came from
/// (a condition, by name, or the default value).
///
/// Where the library follows Firebase's reference SDK (Node.js) and firebase-admin for Python does
/// not, the oracle flags the condition with a ``FirebaseKnownDifference`` (each listed in
/// `Modules/FirebaseFormat/FORMAT.md`), and a parameter's answers may differ only when such a
/// condition can decide them. firebase-admin evaluates only top-level parameters: the oracle moves
/// the groups' parameters to the top level for it, and the library reads the template as written.
///
/// Long run: `RC_DIFF_SEED=<seed> RC_DIFF_CASES=20000 swift test --skip-build --filter FirebaseDifferential`.
@Suite("Firebase: the library against firebase-admin's server-side template evaluation", .requiring(.firebase))
struct FirebaseDifferentialTests {
    /// The seed of the default run (`make test`); the long run uses another.
    static let defaultSeed: UInt64 = 31

    @Test("random templates and contexts: every parameter's value and origin agree")
    func agreement() throws {
        try Oracle.firebase.agreement(
            of: "Firebase", comparing: "parameters (value and origin)", suite: "FirebaseDifferential",
            defaultSeed: Self.defaultSeed
        ) { try Self.compare($0) }
    }

    @Test("the comparison has teeth: conditions tried in reverse order disagree, only where a parameter has two or more")
    func reversedConditionsDisagree() throws {
        let lines = try Oracle.firebase.cases(["--seed", "\(Self.defaultSeed)", "--cases", "600"])
        let tally = try Self.compare(lines) { template in
            // A name defined twice takes its last definition: reversing would change more than the order.
            guard var members = template.objectValue, let conditions = members["conditions"]?.arrayValue,
                Set(conditions.compactMap { $0["name"]?.stringValue }).count == conditions.count
            else { return template }
            members["conditions"] = .array(conditions.reversed())
            return .object(members)
        }
        print(
            "Firebase differential, mutation (conditions in reverse order): "
                + "\(tally.failures.count) disagreements in \(lines.count) cases"
        )
        #expect(tally.failures.count > 20, "only \(tally.failures.count) disagreements")
        #expect(tally.failures.allSatisfy { $0.text.contains("(2 or more conditional values)") }, "a disagreement with fewer")
    }

    @Test("the comparison has teeth: percent conditions hashed without their seed disagree, only where one has a seed")
    func unseededPercentDisagrees() throws {
        let lines = try Oracle.firebase.cases(["--seed", "\(Self.defaultSeed)", "--cases", "600"])
        let tally = try Self.compare(lines) { Self.removingSeeds($0) }
        print(
            "Firebase differential, mutation (percent without seeds): "
                + "\(tally.failures.count) disagreements in \(lines.count) cases"
        )
        #expect(tally.failures.count > 20, "only \(tally.failures.count) disagreements")
        #expect(tally.failures.allSatisfy { $0.text.contains("\"seed\":\"") }, "a disagreement in a template without a seed")
    }

    /// Decodes each line's template with the format (after `mutation`) and compares every parameter.
    static func compare(
        _ lines: [ConfigValue], mutation: (ConfigValue) -> ConfigValue = { $0 }
    ) throws -> DifferentialTally<FirebaseKnownDifference> {
        var tally = DifferentialTally<FirebaseKnownDifference>()
        var converter = FirebaseValueConverter()
        for line in lines {
            let oracleCase = try FirebaseCase(line)
            let template = mutation(oracleCase.template)
            let payload = try FirebaseTemplateFormat().decode(Data(template.jsonText(sortedKeys: false).utf8))
            tally.add(try oracleCase.compare(payload, converter: &converter))
        }
        return tally
    }

    /// `value` without any `seed` member, at any depth.
    static func removingSeeds(_ value: ConfigValue) -> ConfigValue {
        switch value {
        case .object(let members): .object(members.filter { $0.key != "seed" }.mapValues(removingSeeds))
        case .array(let elements): .array(elements.map(removingSeeds))
        default: value
        }
    }
}

extension Oracle {
    /// firebase-admin for Python (`firebase-admin` on PyPI), whose `remote_config` evaluates server templates.
    static let firebase = Oracle(script: "firebase_oracle.py", module: "firebase_admin.remote_config")
}

/// Where the library answers otherwise than firebase-admin for Python by design
/// (`Modules/FirebaseFormat/FORMAT.md`, "Differences from firebase-admin for Python"); the oracle
/// computes each predicate by watching firebase-admin's own functions.
enum FirebaseKnownDifference: String, CaseIterable, KnownDifference {
    /// A custom signal was 0, 0.0 or "": Python takes it for a missing signal, the Node.js SDK compares it.
    case falsySignal = "falsy-signal"
    /// A numeric operator read text Python's `float()` reads otherwise (`1_000`, `inf`, `nan`, other digits or white space).
    case numberSpelling = "number-spelling"
    /// A string or version operator read a float signal whose Python text is not JavaScript's (`2.0` against `2`).
    case numberText = "number-text"
    /// A version operator read text Python's `int()` per segment reads otherwise (spaces or a sign inside, six segments).
    case versionSpelling = "version-spelling"
    /// `STRING_EXACTLY_MATCHES` trimmed text Python's `strip()` trims otherwise than JavaScript's `trim()`.
    case trim = "trim"
}

/// Firebase's string values converted by `valueType` as the format converts them: through the
/// format itself, decoding a one-parameter template (each text and type once).
struct FirebaseValueConverter {
    /// A text by its bytes: Swift's strings compare by canonical equivalence, the format's values do not.
    private struct Memo: Hashable {
        let text: [UInt8]
        let valueType: String
    }

    /// Each conversion so far; `.some(nil)` for a text the format does not convert.
    private var known: [Memo: ConfigValue?] = [:]

    mutating func convert(_ text: String, valueType: String) -> ConfigValue? {
        let memo = Memo(text: Array(text.utf8), valueType: valueType)
        if let value = known[memo] { return value }
        let template = ConfigValue.object([
            "parameters": ["x": ["defaultValue": ["value": .string(text)], "valueType": .string(valueType)]]
        ])
        let value = (try? FirebaseTemplateFormat().decodeTemplate(Data(template.jsonText().utf8)))?.values["x"]
        known[memo] = .some(value)
        return value
    }
}

/// One line of the oracle: a template, a context, and what firebase-admin served each parameter.
struct FirebaseCase {
    let number: Int
    let template: ConfigValue
    let targetingKey: String?
    let attributes: [String: ConfigValue]
    let expected: [String: ConfigValue]
    /// The oracle's flags, by condition name.
    let flags: [String: ConfigValue]

    init(_ line: ConfigValue) throws {
        guard let number = line["case"]?.intValue, let template = line["template"],
            let attributes = line["attributes"]?.objectValue, let expected = line["expected"]?.objectValue
        else { throw OracleError(description: "a case line without case, template, attributes or expected") }
        self.number = Int(number)
        self.template = template
        self.targetingKey = line["targetingKey"]?.stringValue
        self.attributes = attributes
        self.expected = expected
        self.flags = line["flags"]?.objectValue ?? [:]
    }

    /// Evaluates every parameter of the line through the public API and compares it with firebase-admin's answer.
    func compare(_ payload: DecodedPayload, converter: inout FirebaseValueConverter) throws -> CaseOutcome {
        let context = EvaluationContext(targetingKey: targetingKey, attributes: attributes)
        var disagreements: [Disagreement] = []
        var origins: [String: Int] = [:]
        for (key, answer) in expected.sorted(by: { $0.key < $1.key }) {
            guard let origin = answer["origin"]?.stringValue, let valueType = answer["valueType"]?.stringValue else {
                throw OracleError(description: "case \(number): parameter \(key) has no origin or valueType")
            }
            origins[origin.hasPrefix("cond:") ? "condition" : origin, default: 0] += 1
            let expectedValue = answer["value"]?.stringValue.map { converter.convert($0, valueType: valueType) } ?? nil
            let evaluation = payload.evaluate(key, in: context)
            var differences: [String] = []
            if !Self.same(evaluation.value, expectedValue) {
                differences.append(
                    "value \(expectedValue?.jsonText() ?? "none"), library \(evaluation.value?.jsonText() ?? "none")")
            }
            let libraryOrigin = Self.origin(of: evaluation)
            if libraryOrigin != origin { differences.append("origin \(origin), library \(libraryOrigin)") }
            guard !differences.isEmpty else { continue }
            let flagged = flags(deciding: key, library: evaluation.decision?.match?.ruleID, oracle: origin)
            // A difference a known entry explains is only counted: its text is never shown.
            if flagged.contains(where: { FirebaseKnownDifference(rawValue: $0) != nil }) {
                disagreements.append(Disagreement(text: "", flags: flagged))
                continue
            }
            let conditional = Self.parameter(key, in: template)?["conditionalValues"]?.objectValue?.count ?? 0
            let text = """
                case \(number), parameter \(key) (\(conditional >= 2 ? "2 or more" : "\(conditional)") conditional values)\
                \(flagged.isEmpty ? "" : " (flags \(flagged))"): \(differences.joined(separator: "; "))
                  library: \(evaluation)
                  targetingKey: \(targetingKey.map { "\"\($0)\"" } ?? "none"), \
                attributes: \(ConfigValue.object(attributes).jsonText())
                  template: \(template.jsonText())
                """
            disagreements.append(Disagreement(text: text, flags: flagged))
        }
        return CaseOutcome(answers: expected.count, reasons: origins, disagreements: disagreements)
    }

    /// The flags of the conditions that can decide the parameter `key`: those it has a value for, in
    /// the template's order, up to the later of the conditions the library and the oracle (`cond:<name>`)
    /// answered from; all of them when either answered from no condition.
    func flags(deciding key: String, library: String?, oracle origin: String) -> [String] {
        let values = Self.parameter(key, in: template)?["conditionalValues"]?.objectValue ?? [:]
        var names: [String] = []
        for condition in template["conditions"]?.arrayValue ?? [] {
            guard let name = condition["name"]?.stringValue, values[name] != nil, !names.contains(name) else { continue }
            names.append(name)
        }
        let oracle = origin.hasPrefix("cond:") ? String(origin.dropFirst("cond:".count)) : nil
        let places = [library, oracle].map { name in name.flatMap { names.firstIndex(of: $0) } }
        let last = places.contains(nil) ? names.count - 1 : places.compactMap { $0 }.max() ?? -1
        let met = names.prefix(last + 1).flatMap { flags[$0]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return Set(met).sorted()
    }

    /// Where the library's value came from, in the oracle's words: `cond:<name>`, `default` or `in-app`.
    static func origin(of evaluation: EvaluationDetails<ConfigValue?>) -> String {
        guard evaluation.value != nil else { return "in-app" }
        guard evaluation.reason == .targetingMatch else {
            return evaluation.reason == .defaultValue || evaluation.reason == .staticValue ? "default" : "\(evaluation.reason)"
        }
        return "cond:" + (evaluation.decision?.match?.ruleID ?? "?")
    }

    /// The parameter `key`, at the top level or in a group.
    static func parameter(_ key: String, in template: ConfigValue) -> ConfigValue? {
        if let parameter = template["parameters"]?[key] { return parameter }
        return template["parameterGroups"]?.objectValue?.values.lazy.compactMap { $0["parameters"]?[key] }.first
    }

    /// JSON values compared exactly: `1` and `1.0` differ, strings by code points.
    static func same(_ a: ConfigValue?, _ b: ConfigValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.string(let x)?, .string(let y)?): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case (.array(let x)?, .array(let y)?): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x)?, .object(let y)?):
            return x.count == y.count && x.allSatisfy { name, value in y[name].map { same(value, $0) } ?? false }
        case (let x?, let y?): return x == y
        default: return false
        }
    }
}
