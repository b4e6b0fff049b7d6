import ConfigDomain
import Foundation
import Targeting

/// Reads one feature of the payload into an ``UnleashFeature``, or throws the first problem that
/// makes it unusable.
///
/// The line between the two follows Unleash's engine: what it cannot compile at all (it then
/// turns the whole feature off) rejects the feature; what it reads as never on or never matching
/// (an unknown strategy, a gradual rollout without a `groupId`, a percentage that is not a whole
/// number, an invalid IP in a list, an invalid regular expression) is read the same way here and
/// collected as a warning.
struct FeatureParser {
    /// The feature's name (the key problems are reported under).
    let name: String
    /// Where the feature is in the payload: `features[3]`.
    let path: String
    /// The payload's top-level segments by id, unparsed.
    let segments: [Int: ConfigValue]
    /// The parser for `json` variant payloads.
    let parser: JSONParser
    /// Problems that do not stop the feature from working.
    private(set) var warnings: [RuleProblem] = []

    init(name: String, path: String, segments: [Int: ConfigValue], parser: JSONParser) {
        self.name = name
        self.path = path
        self.segments = segments
        self.parser = parser
    }

    /// Parses the feature object `members`.
    mutating func parse(_ members: [String: ConfigValue]) throws(RuleProblem) -> UnleashFeature {
        guard case .bool(let enabled)? = members["enabled"] else {
            throw problem("\"enabled\" must be true or false, found \(kind(members["enabled"]))", at: path + ".enabled")
        }
        var strategies: [UnleashStrategy] = []
        for (index, strategy) in try array(members["strategies"], at: path + ".strategies").enumerated() {
            strategies.append(try parseStrategy(strategy, at: "\(path).strategies[\(index)]", index: index))
        }
        let variants = try parseVariants(members["variants"], at: path + ".variants")
        var dependencies: [UnleashDependency] = []
        for (index, dependency) in try array(members["dependencies"], at: path + ".dependencies").enumerated() {
            dependencies.append(try parseDependency(dependency, at: "\(path).dependencies[\(index)]"))
        }
        return UnleashFeature(
            name: name, enabled: enabled, strategies: strategies, variants: variants, dependencies: dependencies,
            warnings: warnings)
    }

    // MARK: Strategies

    private mutating func parseStrategy(_ value: ConfigValue, at path: String, index: Int) throws(RuleProblem) -> UnleashStrategy
    {
        let members = try object(value, at: path)
        let strategyName = try string(members["name"], at: path + ".name")
        let parameters = try parseParameters(members["parameters"], at: path + ".parameters")
        let ruleID = members["id"]?.stringValue ?? "strategies[\(index)]:\(strategyName)"
        let activationKind = try strategyKind(strategyName, parameters, at: path)

        var constraints = try parseConstraints(members["constraints"], at: path + ".constraints")
        for (position, segmentID) in try array(members["segments"], at: path + ".segments").enumerated() {
            let segmentPath = "\(path).segments[\(position)]"
            guard let id = segmentID.intValue.map(Int.init) else {
                throw problem("a segment reference must be an integer id, found \(kind(segmentID))", at: segmentPath)
            }
            guard let segment = segments[id] else {
                throw RuleProblem(key: name, ruleID: ruleID, path: segmentPath, kind: .unknownGroup(String(id)))
            }
            constraints += try parseConstraints(segment["constraints"], at: "segments[id=\(id)].constraints")
        }
        // Strategy variants have no overrides in Unleash's schema; the engine ignores any.
        return UnleashStrategy(
            ruleID: ruleID, path: path, kind: activationKind, constraints: constraints,
            variants: try parseVariants(members["variants"], at: path + ".variants", readingOverrides: false),
            variantGroupId: parameters["groupId"] ?? name, variantStickiness: parameters["stickiness"] ?? "default")
    }

    /// The strategy's parameters as text (numbers are written as Unleash writes them).
    private func parseParameters(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> [String: String] {
        guard let value, !value.isNull else { return [:] }
        var parameters: [String: String] = [:]
        for (key, parameter) in try object(value, at: path) {
            switch parameter {
            case .string(let text): parameters[key] = text
            case .int(let number): parameters[key] = String(number)
            case .double(let number): parameters[key] = String(number)
            case .null: continue
            default: throw problem("a strategy parameter must be a string, found \(parameter.kind)", at: "\(path).\(key)")
            }
        }
        return parameters
    }

    private mutating func strategyKind(_ strategyName: String, _ parameters: [String: String], at path: String)
        throws(RuleProblem)
        -> UnleashStrategy.Kind
    {
        switch strategyName {
        case "default":
            return .standard
        case "userWithId":
            return .userWithId(ExactTexts(parameters["userIds"].map(items) ?? []))
        case "gradualRolloutUserId", "gradualRolloutSessionId":
            guard let groupId = parameters["groupId"] else {
                return off("\(strategyName) has no groupId", at: path + ".parameters")
            }
            guard let percentage = try percentage(parameters["percentage"], at: path + ".parameters.percentage") else {
                return off(
                    "\(strategyName)'s percentage is \(quoted(parameters["percentage"])), not a whole number",
                    at: path + ".parameters.percentage")
            }
            return strategyName == "gradualRolloutUserId"
                ? .gradualRolloutUserId(percentage: percentage, groupId: groupId)
                : .gradualRolloutSessionId(percentage: percentage, groupId: groupId)
        case "gradualRolloutRandom":
            guard let percentage = parameters["percentage"].flatMap(Self.wholeNumber) else {
                return off(
                    "gradualRolloutRandom's percentage is \(quoted(parameters["percentage"])), not a whole number",
                    at: path + ".parameters.percentage")
            }
            return .gradualRolloutRandom(percentage: percentage)
        case "flexibleRollout":
            guard let rollout = try percentage(parameters["rollout"], at: path + ".parameters.rollout") else {
                return off(
                    "flexibleRollout's rollout is \(quoted(parameters["rollout"])), not a whole number",
                    at: path + ".parameters.rollout")
            }
            return .flexibleRollout(
                rollout: rollout, stickiness: parameters["stickiness"] ?? "default", groupId: parameters["groupId"])
        case "remoteAddress":
            guard let addresses = parameters["IPs"] else { return off("remoteAddress has no IPs", at: path + ".parameters") }
            return .remoteAddress(ranges(items(addresses).filter { !$0.isEmpty }, at: path + ".parameters.IPs"))
        case "applicationHostname":
            return .applicationHostname(ExactTexts(items(parameters["hostNames"] ?? "").map(UnleashText.lowercased)))
        default:
            warnings.append(
                problem(
                    "unknown strategy \"\(strategyName)\" (a custom strategy?); it never enables the feature, as in Unleash's SDKs",
                    at: path + ".name"))
            return .unknown(strategyName)
        }
    }

    /// A strategy Unleash's engine reads as never on, for `why`; the reason is also a warning.
    private mutating func off(_ why: String, at path: String) -> UnleashStrategy.Kind {
        warnings.append(problem(why + ": Unleash's engine never enables it, so it is off here too", at: path))
        return .off(why)
    }

    /// A rollout percentage: a whole number from 0 to 100, nil when it is missing or not a whole
    /// number; a larger number rejects the feature (Unleash's engine cannot compile it either).
    private func percentage(_ text: String?, at path: String) throws(RuleProblem) -> Int? {
        guard let number = text.flatMap(Self.wholeNumber) else { return nil }
        guard number <= 100 else {
            throw problem("the percentage must be a whole number from 0 to 100, found \(quoted(text))", at: path)
        }
        return Int(number)
    }

    /// A whole number as Unleash's engine reads one: an optional `+`, then ASCII digits only.
    static func wholeNumber(_ text: String) -> UInt64? {
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return UInt64(digits)
    }

    /// The items of a comma-separated list, each trimmed of white space; empty items are kept.
    private func items(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).map {
            UnleashText.trimmingWhitespace(String(String.UnicodeScalarView($0)))
        }
    }

    /// The IPs and CIDR ranges of `items`; an invalid one is left out and reported as a warning, as Unleash ignores it.
    private mutating func ranges(_ items: [String], at path: String) -> [IPRange] {
        var ranges: [IPRange] = []
        for item in items {
            if let range = IPRange(item) {
                ranges.append(range)
            } else {
                warnings.append(problem("\"\(item)\" is not an IP address or CIDR range; it is ignored", at: path))
            }
        }
        return ranges
    }

    // MARK: Constraints

    private mutating func parseConstraints(_ value: ConfigValue?, at path: String) throws(RuleProblem) -> [UnleashConstraint] {
        var constraints: [UnleashConstraint] = []
        for (index, constraint) in try array(value, at: path).enumerated() {
            constraints.append(try parseConstraint(constraint, at: "\(path)[\(index)]"))
        }
        return constraints
    }

    private mutating func parseConstraint(_ value: ConfigValue, at path: String) throws(RuleProblem) -> UnleashConstraint {
        let members = try object(value, at: path)
        let contextName = try string(members["contextName"], at: path + ".contextName")
        let operatorName = try string(members["operator"], at: path + ".operator")
        guard let op = ConstraintOperator(rawValue: operatorName) else {
            let kind = RuleProblem.Kind.unknownOperator(operatorName, known: ConstraintOperator.names)
            throw RuleProblem(key: name, path: path + ".operator", kind: kind)
        }
        var inverted = try flag(members["inverted"], at: path + ".inverted")
        let caseInsensitive = try flag(members["caseInsensitive"], at: path + ".caseInsensitive")
        let values = try texts(members["values"], at: path + ".values")
        let single = try text(members["value"], at: path + ".value")

        let operand: UnleashConstraint.Operand
        switch op {
        case .in, .notIn:
            // As written: Unleash's engine neither trims the values nor drops empty ones, and reads no single "value".
            operand = .members(ExactTexts(values ?? []))
        case .stringStartsWith, .stringEndsWith, .stringContains:
            guard let values, !values.isEmpty else {
                throw problem("\(op.rawValue) needs at least one string in \"values\"", at: path + ".values")
            }
            // With caseInsensitive, the values are lower-cased once, here; the field at each evaluation.
            operand = .texts(caseInsensitive ? values.map(UnleashText.lowercased) : values)
        case .numberEqual, .numberGreater, .numberGreaterOrEqual, .numberLess, .numberLessOrEqual:
            guard let single, let number = DecimalNumber.constraintValue(UnleashText.trimmingBlanks(single)), number.isFinite
            else {
                throw problem("\(op.rawValue) needs a number in \"value\", found \(quoted(single))", at: path + ".value")
            }
            operand = .number(number)
        case .dateAfter, .dateBefore:
            guard let single, let date = UnleashDate.parseConstraintValue(single) else {
                throw problem(
                    "\(op.rawValue) needs a date-time in \"value\" (2024-05-01T08:00:00Z, 2024-05-01T08:00:00.000+02:00), found \(quoted(single))",
                    at: path + ".value")
            }
            operand = .date(date)
        case .semverEqual, .semverGreater, .semverGreaterOrEqual, .semverLess, .semverLessOrEqual:
            if let single, single.hasPrefix("v") {
                // Unleash's engine reads such a constraint as false, inverted or not.
                warnings.append(
                    problem(
                        "\(op.rawValue) \"\(single)\": a version with a leading v never matches in Unleash's engine, inverted or not",
                        at: path + ".value"))
                operand = .unmatchable
                inverted = false
            } else if let single, let version = SemanticVersion(UnleashText.trimmingBlanks(single)) {
                operand = .version(version)
            } else {
                throw problem(
                    "\(op.rawValue) needs a semantic version in \"value\" (1.2.3 or 2.0.0-beta.1), found \(quoted(single))",
                    at: path + ".value")
            }
        case .regex:
            let pattern = single ?? ""
            if let why = RegexPattern.problem(in: pattern) {
                warnings.append(problem(why + "; as in Unleash's engine, the constraint never matches", at: path + ".value"))
                operand = .unmatchable
            } else {
                operand = .pattern(pattern)
            }
        case .inCIDR:
            guard let values, !values.isEmpty else {
                throw problem("IN_CIDR needs at least one IP or CIDR range in \"values\"", at: path + ".values")
            }
            operand = .ranges(ranges(values, at: path + ".values"))
        }
        return UnleashConstraint(
            contextName: contextName, op: op, operand: operand, inverted: inverted, caseInsensitive: caseInsensitive,
            origin: path)
    }

    // MARK: Variants and dependencies

    private func parseVariants(_ value: ConfigValue?, at path: String, readingOverrides: Bool = true) throws(RuleProblem)
        -> [UnleashVariant]
    {
        var variants: [UnleashVariant] = []
        for (index, variant) in try array(value, at: path).enumerated() {
            variants.append(try parseVariant(variant, at: "\(path)[\(index)]", readingOverrides: readingOverrides))
        }
        return variants
    }

    private func parseVariant(_ value: ConfigValue, at path: String, readingOverrides: Bool) throws(RuleProblem)
        -> UnleashVariant
    {
        let members = try object(value, at: path)
        let variantName = try string(members["name"], at: path + ".name")
        let weight: Int
        switch members["weight"] {
        case .int(let number)? where number >= 0 && number <= Int64(Int32.max): weight = Int(number)
        case nil, .null?: weight = 0
        case let other?: throw problem("a variant's weight must be a whole number from 0, found \(other)", at: path + ".weight")
        }
        let stickiness = try text(members["stickiness"], at: path + ".stickiness")
        var payload: ConfigValue?
        var rawPayload: UnleashVariant.RawPayload?
        if let payloadValue = members["payload"], !payloadValue.isNull {
            let payloadMembers = try object(payloadValue, at: path + ".payload")
            let type = try string(payloadMembers["type"], at: path + ".payload.type")
            guard let text = try text(payloadMembers["value"], at: path + ".payload.value") else {
                throw problem("a payload needs a \"value\"", at: path + ".payload.value")
            }
            rawPayload = UnleashVariant.RawPayload(type: type, value: text)
            payload = try convertPayload(type: type, text: text, at: path + ".payload.value")
        }
        var overrides: [UnleashVariant.Override] = []
        for (index, override) in try array(readingOverrides ? members["overrides"] : nil, at: path + ".overrides").enumerated() {
            let overridePath = "\(path).overrides[\(index)]"
            let overrideMembers = try object(override, at: overridePath)
            overrides.append(
                UnleashVariant.Override(
                    contextName: try string(overrideMembers["contextName"], at: overridePath + ".contextName"),
                    values: ExactTexts(try texts(overrideMembers["values"], at: overridePath + ".values") ?? [])))
        }
        return UnleashVariant(
            name: variantName, weight: weight, stickiness: stickiness, payload: payload, rawPayload: rawPayload,
            overrides: overrides)
    }

    /// A payload's value by its type: `json` parsed, `number` as a number, `string` and `csv` as text.
    private func convertPayload(type: String, text: String, at path: String) throws(RuleProblem) -> ConfigValue {
        switch type {
        case "json":
            do throws(JSONParseError) {
                return try parser.parse(text)
            } catch {
                throw problem("the json payload is not valid JSON at byte \(error.offset): \(error.reason)", at: path)
            }
        case "number":
            let trimmed = UnleashText.trimmingWhitespace(text)
            if let integer = Int64(trimmed) { return .int(integer) }
            if let number = Double(trimmed), number.isFinite { return .double(number) }
            throw problem("the number payload \"\(text)\" is not a number", at: path)
        default:
            return .string(text)
        }
    }

    private func parseDependency(_ value: ConfigValue, at path: String) throws(RuleProblem) -> UnleashDependency {
        let members = try object(value, at: path)
        let parent = try string(members["feature"], at: path + ".feature")
        let enabled: Bool
        switch members["enabled"] {
        case nil, .null?: enabled = true
        case .bool(let flag)?: enabled = flag
        case let other?: throw problem("\"enabled\" must be true or false, found \(other.kind)", at: path + ".enabled")
        }
        return UnleashDependency(
            feature: parent, enabled: enabled, variants: try texts(members["variants"], at: path + ".variants") ?? [])
    }
}
