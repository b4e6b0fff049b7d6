import ConfigDomain
import ConfigPorts
import Foundation

/// Reads Unleash's client features payload (`GET /api/client/features`, format version 2) and
/// evaluates its strategies, constraints, segments, variants and dependencies on the device, as
/// Unleash's engine (Yggdrasil, which most Unleash SDKs embed) evaluates them; FORMAT.md lists the
/// few deliberate differences.
///
/// Each feature becomes up to three keys (see `Modules/UnleashFormat/FORMAT.md`):
///
/// | key | value |
/// |---|---|
/// | `<feature>` | `isEnabled`, a Boolean |
/// | `<feature>.variant` | the variant's name, `"disabled"` when none |
/// | `<feature>.payload` | the variant's payload (`string`, `csv`: a string; `number`: a number; `json`: the JSON value); absent when none |
///
/// ```swift
/// enum Flags {
///     static let checkout = ConfigKey("new-checkout", default: false)
///     static let buttonColor = ConfigKey("new-checkout.variant", default: "disabled")
/// }
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .payloadFormat(UnleashFormat())
///     .context(EvaluationContext(targetingKey: "user-42", attributes: ["environment": "production"]))
///     .register(Flags.checkout, Flags.buttonColor)
///     .build()
/// ```
///
/// The context maps onto Unleash's: `userId` is the attribute `userId`, else the targeting key;
/// `sessionId`, `remoteAddress`, `environment`, `appName`, `currentTime` and custom fields are
/// attributes of those names (or members of an object attribute `properties`).
///
/// A feature that cannot be read (a malformed strategy, an unknown constraint operator, an
/// invalid regular expression, a segment the payload lacks) is rejected alone, reported as a
/// ``RuleProblem``; the rest of the payload activates. Only bytes that are not JSON, or a
/// document without a `features` array, refuse the whole payload.
public struct UnleashFormat: PayloadFormat {
    /// The name of the variant served when a feature is disabled or has no variants: `disabled`.
    public static let disabledVariantName = "disabled"

    /// `unleash`.
    public let name = "unleash"
    /// What follows a feature's name in the key of its variant's name: `.variant`.
    public var variantKeySuffix: String
    /// What follows a feature's name in the key of its variant's payload: `.payload`.
    public var payloadKeySuffix: String
    /// The host name `applicationHostname` strategies compare with; nil for `$HOSTNAME`, else the system's.
    public var hostname: String?
    /// The parser for the payload and for `json` variant payloads, with its depth limit.
    public var parser: JSONParser
    /// The variant hash seed; only tests of fixtures written before Unleash changed it set another.
    var variantSeed = UnleashHash.variantSeed

    /// Creates the format.
    public init(
        variantKeySuffix: String = ".variant", payloadKeySuffix: String = ".payload", hostname: String? = nil,
        parser: JSONParser = JSONParser()
    ) {
        self.variantKeySuffix = variantKeySuffix
        self.payloadKeySuffix = payloadKeySuffix
        self.hostname = hostname
        self.parser = parser
    }


    /// Decodes the payload into per-key targeting rules, and the problems of features that cannot be read.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        try decode(document: parser.parse(bytes, format: name))
    }

    /// Decodes an already parsed payload document (the object holding `features` and `segments`).
    public func decode(document: ConfigValue) throws(PayloadError) -> DecodedPayload {
        guard case .object(let top) = document else {
            throw PayloadError(
                format: name, reason: "an Unleash payload is a JSON object, found a JSON \(document.kind)", offset: 0)
        }
        guard case .array(let featureList)? = top["features"] else {
            throw PayloadError(
                format: name,
                reason: "this is not an Unleash client features payload: it has no \"features\" array "
                    + "(expected the JSON of GET /api/client/features)",
                path: "features")
        }
        let segments = segmentsByID(top["segments"])
        var parsed = parseFeatures(featureList, segments: segments)
        rejectDependentsOfRejected(&parsed)

        let usesHostname = parsed.features.values.contains { feature in
            feature.strategies.contains { if case .applicationHostname = $0.kind { true } else { false } }
        }
        let evaluator = UnleashEvaluator(
            features: parsed.features, hostname: usesHostname ? UnleashText.lowercased(hostname ?? Self.systemHostname) : "",
            variantSeed: variantSeed, draws: RandomDraws())

        var values: [String: ConfigValue] = [:]
        var rules: [String: any TargetingRules] = [:]
        var ruleProblems: [String: [RuleProblem]] = [:]
        let featureNames = Set(parsed.features.keys).union(parsed.problems.keys)
        for (featureName, feature) in parsed.features {
            values[featureName] = .bool(false)
            rules[featureName] = UnleashFeatureRules(
                key: featureName, feature: featureName, output: .enabled, evaluator: evaluator, warnings: feature.warnings)
            for (key, output) in derivedKeys(featureName) where !featureNames.contains(key) {
                if output == .variantName { values[key] = .string(Self.disabledVariantName) }
                rules[key] = UnleashFeatureRules(
                    key: key, feature: featureName, output: output, evaluator: evaluator, warnings: [])
            }
        }
        for (featureName, problems) in parsed.problems {
            ruleProblems[featureName] = problems
            for (key, _) in derivedKeys(featureName) where !featureNames.contains(key) {
                ruleProblems[key] = problems.map { problem in
                    var moved = problem
                    moved.key = key
                    return moved
                }
            }
        }
        return DecodedPayload(values: values, rules: rules, ruleProblems: ruleProblems)
    }

    /// The variant-name and payload keys of a feature.
    private func derivedKeys(_ featureName: String) -> [(String, UnleashFeatureRules.Output)] {
        [(featureName + variantKeySuffix, .variantName), (featureName + payloadKeySuffix, .payload)]
    }

    /// The payload's features that could be read, and the problems of those that could not.
    private struct ParsedFeatures {
        var features: [String: UnleashFeature] = [:]
        var problems: [String: [RuleProblem]] = [:]
    }

    private func parseFeatures(_ list: [ConfigValue], segments: [Int: ConfigValue]) -> ParsedFeatures {
        var parsed = ParsedFeatures()
        var seen: Set<String> = []
        for (index, element) in list.enumerated() {
            let path = "features[\(index)]"
            guard case .object(let members) = element, case .string(let featureName)? = members["name"] else {
                parsed.problems[path] = [
                    RuleProblem(key: path, path: path, kind: .unparsable("a feature must be an object with a string \"name\""))
                ]
                continue
            }
            guard seen.insert(featureName).inserted else {
                parsed.features[featureName] = nil
                parsed.problems[featureName, default: []].append(
                    RuleProblem(
                        key: featureName, path: path,
                        kind: .unparsable("the feature \"\(featureName)\" appears more than once; all are ignored")))
                continue
            }
            var parser = FeatureParser(name: featureName, path: path, segments: segments, parser: self.parser)
            do throws(RuleProblem) {
                parsed.features[featureName] = try parser.parse(members)
            } catch {
                parsed.problems[featureName] = [error]
            }
        }
        return parsed
    }

    /// A feature whose parent was rejected cannot be decided either: it is rejected too.
    private func rejectDependentsOfRejected(_ parsed: inout ParsedFeatures) {
        var changed = true
        while changed {
            changed = false
            for (featureName, feature) in parsed.features {
                guard let rejected = feature.dependencies.first(where: { parsed.problems[$0.feature] != nil }) else { continue }
                parsed.features[featureName] = nil
                parsed.problems[featureName] = [
                    RuleProblem(
                        key: featureName, path: "dependencies",
                        kind: .unparsable(
                            "it depends on feature \"\(rejected.feature)\", whose rules were rejected; fix that feature"))
                ]
                changed = true
            }
        }
    }

    /// The top-level segments by id; entries without an integer id are left out (features naming them are rejected).
    private func segmentsByID(_ value: ConfigValue?) -> [Int: ConfigValue] {
        guard case .array(let list)? = value else { return [:] }
        var segments: [Int: ConfigValue] = [:]
        for segment in list {
            if case .int(let id)? = segment["id"] { segments[Int(id)] = segment }
        }
        return segments
    }

    /// `$HOSTNAME`, else the system's host name, as Unleash's SDKs read it.
    static let systemHostname: String = ProcessInfo.processInfo.environment["HOSTNAME"] ?? ProcessInfo.processInfo.hostName
}
