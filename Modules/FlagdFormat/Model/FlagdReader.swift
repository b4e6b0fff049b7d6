import ConfigDomain
import Foundation

/// Reads a flagd flag definition document: its flags, its `$evaluators`, its flag set `metadata`,
/// and the problems that reject single flags.
struct FlagdReader {
    /// The flags that could be read, by key.
    private(set) var flags: [String: FlagdFlag] = [:]
    /// The problems that rejected flags, by key.
    private(set) var problems: [String: [RuleProblem]] = [:]
    /// Each flag's metadata over the flag set's, by key (rejected flags included).
    private(set) var metadata: [String: [String: ConfigValue]] = [:]

    /// Reads `document`, or throws why the whole document cannot be used.
    init(_ document: [String: ConfigValue], format: String) throws(PayloadError) {
        guard let flagsValue = document["flags"] else {
            throw PayloadError(
                format: format, reason: "expected a \"flags\" object of flag definitions by key (flagd's schema v0)",
                path: "flags")
        }
        guard case .object(let definitions) = flagsValue else {
            throw PayloadError(
                format: format, reason: "\"flags\" must be an object of flag definitions by key, found a \(flagsValue.kind)",
                path: "flags")
        }
        var evaluators: [String: ConfigValue] = [:]
        if let value = document["$evaluators"], !value.isNull {
            guard case .object(let members) = value else {
                throw PayloadError(
                    format: format, reason: "\"$evaluators\" must be an object of JsonLogic rules by name, found a \(value.kind)",
                    path: "$evaluators")
            }
            evaluators = members
        }
        var setMetadata: [String: ConfigValue] = [:]
        if let value = document["metadata"], !value.isNull {
            switch Self.readMetadata(value) {
            case .success(let members): setMetadata = members
            case .failure(let problem):
                throw PayloadError(format: format, reason: problem.reason, path: "metadata" + problem.suffix)
            }
        }
        for (key, definition) in definitions {
            var flagMetadata = setMetadata
            if case .object(let members) = definition, let value = members["metadata"], !value.isNull,
                case .success(let own) = Self.readMetadata(value)
            {
                flagMetadata.merge(own) { _, flags in flags }
            }
            metadata[key] = flagMetadata
            switch Self.readFlag(key: key, definition, evaluators: evaluators) {
            case .success(let flag): flags[key] = flag
            case .failure(let found): problems[key] = found.list
            }
        }
    }

    /// The problems of one flag, as an error.
    struct Problems: Error {
        var list: [RuleProblem]
    }

    /// One flag, or the problems that reject it.
    private static func readFlag(
        key: String, _ definition: ConfigValue, evaluators: [String: ConfigValue]
    ) -> Result<FlagdFlag, Problems> {
        let base = "flags.\(key)"
        func problem(_ path: String, _ why: String) -> RuleProblem {
            RuleProblem(key: key, path: path, kind: .unparsable(why))
        }
        guard case .object(let members) = definition else {
            return .failure(
                Problems(list: [
                    problem(base, "a flag must be an object with \"state\" and \"variants\", found a \(definition.kind)")
                ]))
        }
        var found: [RuleProblem] = []
        var isEnabled = true
        switch members["state"] {
        case .string("ENABLED")?: isEnabled = true
        case .string("DISABLED")?: isEnabled = false
        case nil:
            found.append(problem("\(base).state", "\"state\" is missing; set it to \"ENABLED\" or \"DISABLED\""))
        case let other?:
            found.append(problem("\(base).state", "\"state\" must be \"ENABLED\" or \"DISABLED\", found \(other.jsonText())"))
        }
        var variants: [String: ConfigValue] = [:]
        switch members["variants"] {
        case .object(let members)? where !members.isEmpty: variants = members
        case .object?:
            found.append(problem("\(base).variants", "\"variants\" is empty; give the flag at least one variant"))
        case nil:
            found.append(
                problem("\(base).variants", "\"variants\" is missing; give the flag an object of values by variant name"))
        case let other?:
            found.append(
                problem("\(base).variants", "\"variants\" must be an object of values by variant name, found a \(other.kind)"))
        }
        var defaultVariant: String?
        switch members["defaultVariant"] {
        case nil, .null?: defaultVariant = nil
        case .string(let name)?: defaultVariant = name.isEmpty ? nil : name
        // flagd's evaluators take a Boolean default variant as the name "true" or "false".
        case .bool(let flag)?: defaultVariant = flag ? "true" : "false"
        case let other?:
            found.append(
                problem(
                    "\(base).defaultVariant",
                    "\"defaultVariant\" must name a variant (a string) or be null, found a \(other.kind)"))
        }
        if let value = members["metadata"], !value.isNull, case .failure(let bad) = readMetadata(value) {
            found.append(problem("\(base).metadata" + bad.suffix, bad.reason))
        }
        var targeting: Logic?
        switch members["targeting"] {
        case nil, .null?: targeting = nil
        case .object(let rule)? where rule.isEmpty: targeting = nil
        case .object?:
            var reader = LogicReader(evaluators: evaluators, key: key)
            if let rule = members["targeting"] { targeting = reader.read(rule, path: "\(base).targeting") }
            found.append(contentsOf: reader.problems)
        case let other?:
            found.append(
                problem("\(base).targeting", "\"targeting\" must be a JsonLogic object (or {} for none), found a \(other.kind)"))
        }
        guard found.isEmpty else { return .failure(Problems(list: found)) }
        return .success(
            FlagdFlag(key: key, isEnabled: isEnabled, variants: variants, defaultVariant: defaultVariant, targeting: targeting))
    }

    /// What is wrong with a metadata object: why, and the path below it.
    struct MetadataProblem: Error {
        var reason: String
        var suffix: String
    }

    /// A metadata object: names to strings, numbers or Booleans.
    static func readMetadata(_ value: ConfigValue) -> Result<[String: ConfigValue], MetadataProblem> {
        guard case .object(let members) = value else {
            return .failure(
                MetadataProblem(
                    reason: "metadata must be an object of strings, numbers and Booleans, found a \(value.kind)", suffix: ""))
        }
        for (name, member) in members.sorted(by: { $0.key < $1.key }) {
            if name.isEmpty {
                return .failure(MetadataProblem(reason: "a metadata name must not be empty", suffix: "[\"\"]"))
            }
            switch member {
            case .string, .int, .double, .bool: continue
            default:
                return .failure(
                    MetadataProblem(
                        reason: "metadata \"\(name)\" must be a string, a number or a Boolean, found a \(member.kind)",
                        suffix: ".\(name)"))
            }
        }
        return .success(members)
    }
}
