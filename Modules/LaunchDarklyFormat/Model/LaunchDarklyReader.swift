import ConfigDomain
import Foundation

/// Reads LaunchDarkly's server-side flag data: the `{"flags": …, "segments": …}` data of a streaming `put`
/// or of `/sdk/latest-all` (also wrapped as the `put` event's `{"path": "/", "data": …}`), and the file data
/// source's `flags`, `flagValues` and `segments`. Member types are checked as LaunchDarkly's SDK checks them;
/// a flag or segment that fails is kept aside with why.
struct LaunchDarklyReader {
    /// The flags that could be read.
    private(set) var flags: [ExactText: LDFlag] = [:]
    /// The segments that could be read.
    private(set) var segments: [ExactText: LDSegment] = [:]
    /// The problems of the flags that could not be read, by key.
    private(set) var problems: [String: [RuleProblem]] = [:]
    /// Why each unreadable flag could not be read.
    private(set) var unreadableFlags: [ExactText: String] = [:]
    /// Why each unreadable segment could not be read.
    private(set) var unreadableSegments: [ExactText: String] = [:]

    /// Reads `document`, or throws why the whole document cannot be used.
    init(_ document: [String: ConfigValue], format: String) throws(PayloadError) {
        var document = document
        var prefix = ""
        if document["flags"] == nil, document["flagValues"] == nil, document["segments"] == nil,
            case .object(let data)? = document["data"]
        {
            // The streaming `put` event: {"path": "/", "data": {"flags": …, "segments": …}}.
            document = data
            prefix = "data."
        }
        guard document["flags"] != nil || document["flagValues"] != nil || document["segments"] != nil else {
            throw PayloadError(
                format: format,
                reason: "expected LaunchDarkly flag data: an object with \"flags\" and \"segments\" (or a file data "
                    + "source's \"flagValues\"), or a put event's {\"path\": \"/\", \"data\": {…}}",
                path: prefix.isEmpty ? nil : "data")
        }
        let flagDefinitions = try Self.section(document, "flags", prefix: prefix, format: format)
        let values = try Self.section(document, "flagValues", prefix: prefix, format: format)
        let segmentDefinitions = try Self.section(document, "segments", prefix: prefix, format: format)

        for (key, definition) in segmentDefinitions {
            let path = "\(prefix)segments.\(key)"
            do {
                if let segment = try Self.segment(key: key, definition, path: path) { segments[ExactText(key)] = segment }
            } catch {
                unreadableSegments[ExactText(key)] = error.description
            }
        }
        for (key, definition) in flagDefinitions {
            let path = "\(prefix)flags.\(key)"
            do {
                if let flag = try Self.flag(key: key, definition, path: path) { flags[ExactText(key)] = flag }
            } catch {
                reject(key, error)
            }
        }
        for (key, value) in values {
            let exact = ExactText(key)
            guard flags[exact] == nil, unreadableFlags[exact] == nil, flagDefinitions[key] == nil else {
                reject(
                    key,
                    ReadFailure(
                        path: "\(prefix)flagValues.\(key)",
                        reason: "the key \"\(key)\" is both in \"flags\" and in \"flagValues\"; keep it in one of them"))
                continue
            }
            // The file data source's shorthand: on, one variation, served to everyone.
            flags[exact] = LDFlag(
                key: key, on: true, variations: [value], offVariation: nil,
                fallthrough: LDVariationOrRollout(variation: 0, rollout: nil), prerequisites: [], targets: [],
                contextTargets: [], rules: [], salt: "")
        }
    }

    /// The data set every flag's rules share.
    var dataSet: LDDataSet {
        LDDataSet(flags: flags, segments: segments, unreadableFlags: unreadableFlags, unreadableSegments: unreadableSegments)
    }

    private mutating func reject(_ key: String, _ failure: ReadFailure) {
        flags[ExactText(key)] = nil
        unreadableFlags[ExactText(key)] = failure.description
        problems[key, default: []].append(RuleProblem(key: key, path: failure.path, kind: .unparsable(failure.reason)))
    }

    /// The object `name` of the document, or empty when it is absent or null.
    private static func section(
        _ document: [String: ConfigValue], _ name: String, prefix: String, format: String
    ) throws(PayloadError) -> [String: ConfigValue] {
        guard let value = document[name], !value.isNull else { return [:] }
        guard case .object(let members) = value else {
            throw PayloadError(
                format: format, reason: "\"\(name)\" must be an object by key, found a \(value.kind)", path: prefix + name)
        }
        return members
    }

    // MARK: Flags

    /// The flag, or nil for a deleted one (a tombstone).
    static func flag(key: String, _ definition: ConfigValue, path: String) throws(ReadFailure) -> LDFlag? {
        let fields = try Fields(definition, path: path, what: "a flag")
        if try fields.bool("deleted") { return nil }
        try fields.checkKey(key)
        var fallthroughOutcome = LDVariationOrRollout(variation: nil, rollout: nil)
        if let object = try fields.object("fallthrough") {
            fallthroughOutcome = try variationOrRollout(Fields(object, path: "\(path).fallthrough", what: "a fallthrough"))
        }
        var prerequisites: [LDPrerequisite] = []
        for (item, itemPath) in try fields.objects("prerequisites") {
            let prerequisite = try Fields(item, path: itemPath, what: "a prerequisite")
            prerequisites.append(
                LDPrerequisite(key: try prerequisite.requiredString("key"), variation: try prerequisite.requiredInt("variation")))
        }
        var rules: [LDFlagRule] = []
        for (item, itemPath) in try fields.objects("rules") {
            let rule = try Fields(item, path: itemPath, what: "a rule")
            rules.append(
                LDFlagRule(
                    id: try rule.string("id"), clauses: try clauses(rule), outcome: try variationOrRollout(rule)))
        }
        return LDFlag(
            key: key, on: try fields.bool("on"), variations: try fields.list("variations"),
            offVariation: try fields.int("offVariation"),
            fallthrough: fallthroughOutcome,
            prerequisites: prerequisites, targets: try targets(fields, "targets"),
            contextTargets: try targets(fields, "contextTargets"), rules: rules, salt: try fields.string("salt") ?? "")
    }

    private static func targets(_ fields: Fields, _ name: String) throws(ReadFailure) -> [LDTarget] {
        var targets: [LDTarget] = []
        for (item, itemPath) in try fields.objects(name) {
            let target = try Fields(item, path: itemPath, what: "a target")
            targets.append(
                LDTarget(
                    contextKind: try target.string("contextKind"), variation: try target.requiredInt("variation"),
                    values: Set(try target.strings("values", required: true).map(ExactText.init))))
        }
        return targets
    }

    private static func variationOrRollout(_ fields: Fields) throws(ReadFailure) -> LDVariationOrRollout {
        let variation = try fields.int("variation")
        guard let object = try fields.object("rollout") else { return LDVariationOrRollout(variation: variation, rollout: nil) }
        let rollout = try Fields(object, path: "\(fields.path).rollout", what: "a rollout")
        let contextKind = try rollout.string("contextKind")
        var variations: [LDWeightedVariation] = []
        for (item, itemPath) in try rollout.objects("variations", required: true) {
            let weighted = try Fields(item, path: itemPath, what: "a weighted variation")
            variations.append(
                LDWeightedVariation(
                    variation: try weighted.requiredInt("variation"), weight: try weighted.requiredInt("weight"),
                    untracked: try weighted.bool("untracked")))
        }
        return LDVariationOrRollout(
            variation: variation,
            rollout: LDRollout(
                contextKind: contextKind, bucketBy: try rollout.reference("bucketBy", contextKind: contextKind),
                isExperiment: try rollout.string("kind") == "experiment", seed: try rollout.int("seed"),
                variations: variations))
    }

    private static func clauses(_ fields: Fields) throws(ReadFailure) -> [LDClause] {
        var clauses: [LDClause] = []
        for (item, itemPath) in try fields.objects("clauses", required: true) {
            let clause = try Fields(item, path: itemPath, what: "a clause")
            let contextKind = try clause.string("contextKind")
            let attribute = AttributeReference(try clause.requiredString("attribute"), contextKind: contextKind)
            let negate = try clause.bool("negate")
            let op = LDOperator(try clause.requiredString("op"))
            let values = try clause.list("values", required: true)
            clauses.append(
                LDClause(
                    contextKind: contextKind, attribute: attribute, op: op, values: values, negate: negate,
                    prepared: prepare(values, for: op)))
        }
        return clauses
    }

    /// The values read for `op`, as LaunchDarkly preprocesses them: patterns compiled, times and versions parsed.
    static func prepare(_ values: [ConfigValue], for op: LDOperator) -> [LDPreparedValue] {
        switch op {
        case .matches: return values.map { .regex($0.stringValue.flatMap(LDRegex.init)) }
        case .before, .after: return values.map { .time(LDTime.milliseconds($0)) }
        case .semVerEqual, .semVerLessThan, .semVerGreaterThan:
            return values.map { .version($0.stringValue.flatMap(LDSemanticVersion.init)) }
        default: return []
        }
    }

    // MARK: Segments

    /// The segment, or nil for a deleted one.
    static func segment(key: String, _ definition: ConfigValue, path: String) throws(ReadFailure) -> LDSegment? {
        let fields = try Fields(definition, path: path, what: "a segment")
        if try fields.bool("deleted") { return nil }
        try fields.checkKey(key)
        var rules: [LDSegmentRule] = []
        for (item, itemPath) in try fields.objects("rules") {
            let rule = try Fields(item, path: itemPath, what: "a segment rule")
            let kind = try rule.string("rolloutContextKind")
            rules.append(
                LDSegmentRule(
                    clauses: try clauses(rule), rolloutContextKind: kind,
                    bucketBy: try rule.reference("bucketBy", contextKind: kind),
                    weight: try rule.int("weight")))
        }
        return LDSegment(
            key: key, included: Set(try fields.strings("included").map(ExactText.init)),
            excluded: Set(try fields.strings("excluded").map(ExactText.init)),
            includedContexts: try segmentTargets(fields, "includedContexts"),
            excludedContexts: try segmentTargets(fields, "excludedContexts"), rules: rules,
            salt: try fields.string("salt") ?? "", unbounded: try fields.bool("unbounded"),
            unboundedContextKind: try fields.string("unboundedContextKind"), generation: try fields.int("generation"))
    }

    private static func segmentTargets(_ fields: Fields, _ name: String) throws(ReadFailure) -> [LDSegmentTarget] {
        var targets: [LDSegmentTarget] = []
        for (item, itemPath) in try fields.objects(name) {
            let target = try Fields(item, path: itemPath, what: "a segment target")
            targets.append(
                LDSegmentTarget(
                    contextKind: try target.string("contextKind"),
                    values: Set(try target.strings("values", required: true).map(ExactText.init))))
        }
        return targets
    }
}

/// Why part of the payload could not be read, and where.
struct ReadFailure: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "at \(path): \(reason)" }
}

/// The members of one object of the payload, read with LaunchDarkly's type checks: a member that is `null`
/// counts as absent; one of another type than expected fails the read.
struct Fields {
    let members: [String: ConfigValue]
    let path: String

    init(_ value: ConfigValue, path: String, what: String) throws(ReadFailure) {
        guard case .object(let members) = value else {
            throw ReadFailure(path: path, reason: "\(what) must be an object, found a \(value.kind)")
        }
        self.members = members
        self.path = path
    }

    private func value(_ name: String) -> ConfigValue? {
        guard let value = members.exactMember(name), !value.isNull else { return nil }
        return value
    }

    private func failure(_ name: String, _ expected: String, _ found: ConfigValue) -> ReadFailure {
        ReadFailure(path: "\(path).\(name)", reason: "\"\(name)\" must be \(expected), found a \(found.kind)")
    }

    private func missing(_ name: String, _ expected: String) -> ReadFailure {
        ReadFailure(path: "\(path).\(name)", reason: "\"\(name)\" is required: \(expected)")
    }

    /// A member `key`, if any, must be the key the object is listed under.
    func checkKey(_ key: String) throws(ReadFailure) {
        guard let stated = value("key") else { return }
        guard case .string(let text) = stated else { throw failure("key", "a string", stated) }
        guard text.isExactly(key) else {
            throw ReadFailure(
                path: "\(path).key",
                reason: "\"key\" is \"\(text)\" but the object is listed under \"\(key)\"; make them the same")
        }
    }

    func bool(_ name: String) throws(ReadFailure) -> Bool {
        guard let value = value(name) else { return false }
        guard case .bool(let flag) = value else { throw failure(name, "a Boolean", value) }
        return flag
    }

    func int(_ name: String) throws(ReadFailure) -> Int64? {
        guard let value = value(name) else { return nil }
        guard case .int(let integer) = value else { throw failure(name, "an integer", value) }
        return integer
    }

    func requiredInt(_ name: String) throws(ReadFailure) -> Int64 {
        guard let integer = try int(name) else { throw missing(name, "an integer") }
        return integer
    }

    func string(_ name: String) throws(ReadFailure) -> String? {
        guard let value = value(name) else { return nil }
        guard case .string(let text) = value else { throw failure(name, "a string", value) }
        return text
    }

    func requiredString(_ name: String) throws(ReadFailure) -> String {
        guard let text = try string(name) else { throw missing(name, "a string") }
        return text
    }

    func object(_ name: String) throws(ReadFailure) -> ConfigValue? {
        guard let value = value(name) else { return nil }
        guard case .object = value else { throw failure(name, "an object", value) }
        return value
    }

    func list(_ name: String, required: Bool = false) throws(ReadFailure) -> [ConfigValue] {
        guard let value = value(name) else {
            if required { throw missing(name, "an array") }
            return []
        }
        guard case .array(let elements) = value else { throw failure(name, "an array", value) }
        return elements
    }

    func strings(_ name: String, required: Bool = false) throws(ReadFailure) -> [String] {
        var texts: [String] = []
        for (index, element) in try list(name, required: required).enumerated() {
            guard case .string(let text) = element else {
                throw ReadFailure(
                    path: "\(path).\(name)[\(index)]", reason: "\"\(name)\" must hold strings, found a \(element.kind)")
            }
            texts.append(text)
        }
        return texts
    }

    /// The objects of the array `name`, each with its path.
    func objects(_ name: String, required: Bool = false) throws(ReadFailure) -> [(ConfigValue, String)] {
        var objects: [(ConfigValue, String)] = []
        for (index, element) in try list(name, required: required).enumerated() {
            guard case .object = element else {
                throw ReadFailure(
                    path: "\(path).\(name)[\(index)]", reason: "\"\(name)\" must hold objects, found a \(element.kind)")
            }
            objects.append((element, "\(path).\(name)[\(index)]"))
        }
        return objects
    }

    /// The attribute reference `name` (a path with `contextKind`, else a literal name); nil when absent or empty.
    func reference(_ name: String, contextKind: String?) throws(ReadFailure) -> AttributeReference? {
        guard let text = try string(name), !text.isEmpty else { return nil }
        return AttributeReference(text, contextKind: contextKind)
    }
}
