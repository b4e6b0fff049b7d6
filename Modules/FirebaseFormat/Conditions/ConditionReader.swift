import ConfigDomain
import Foundation

/// Reads a server template's `conditions` into ``FirebaseCondition``s. A part that cannot be read
/// becomes an ``FirebaseCondition/Node/unreadable`` node and an issue: it never matches, and the
/// rest of the condition and of the template is still served.
struct ConditionReader {
    /// The members of a condition node that name its kind, in the order Firebase's Node.js and
    /// Python SDKs try them: the first one present decides.
    static let kinds = ["orCondition", "andCondition", "true", "false", "percent", "customSignal"]
    /// The `percentOperator`s.
    static let percentOperators = ["LESS_OR_EQUAL", "GREATER_THAN", "BETWEEN"]
    /// The `customSignalOperator`s.
    static let signalOperators = [
        "STRING_CONTAINS", "STRING_DOES_NOT_CONTAIN", "STRING_EXACTLY_MATCHES", "STRING_CONTAINS_REGEX",
        "NUMERIC_LESS_THAN", "NUMERIC_LESS_EQUAL", "NUMERIC_EQUAL", "NUMERIC_NOT_EQUAL", "NUMERIC_GREATER_THAN",
        "NUMERIC_GREATER_EQUAL", "SEMANTIC_VERSION_LESS_THAN", "SEMANTIC_VERSION_LESS_EQUAL", "SEMANTIC_VERSION_EQUAL",
        "SEMANTIC_VERSION_NOT_EQUAL", "SEMANTIC_VERSION_GREATER_THAN", "SEMANTIC_VERSION_GREATER_EQUAL",
    ]
    /// How deep a node may be: Firebase's Node.js and Python SDKs count two levels for each
    /// `orCondition` or `andCondition` and answer false from level 10, so a node inside five of them
    /// never matches.
    static let maxDepth = 5

    /// The named conditions, in template order (a name defined twice keeps its first place and its last
    /// definition, as Firebase's SDKs evaluate it), and the conditions that have no name.
    let conditions: [FirebaseCondition]
    /// The entries of `conditions` that cannot be referred to (not an object, or without a name), with their index.
    let unnamed: [(index: Int, issue: FirebaseCondition.Issue)]

    /// Reads `value`, the template's `conditions` member (nil when absent).
    ///
    /// - Throws: ``PayloadError`` when `conditions` is not an array.
    init(_ value: ConfigValue?, format: String) throws(PayloadError) {
        guard let value else {
            (conditions, unnamed) = ([], [])
            return
        }
        guard case .array(let entries) = value else {
            throw PayloadError(
                format: format, reason: "\"conditions\" must be an array of conditions, found a JSON \(value.kind)",
                path: "conditions")
        }
        var conditions: [FirebaseCondition] = []
        var unnamed: [(index: Int, issue: FirebaseCondition.Issue)] = []
        var places: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "conditions[\(index)]"
            guard case .object(let members) = entry, case .string(let name)? = members["name"], !name.isEmpty else {
                let why =
                    entry.objectValue == nil
                    ? "a condition must be an object, found a JSON \(entry.kind)" : "a condition needs a \"name\""
                unnamed.append((index, FirebaseCondition.Issue(path: path, kind: .unparsable(why))))
                continue
            }
            var reader = TreeReader()
            let root: FirebaseCondition.Node
            if let tree = members["condition"], !tree.isNull {
                root = reader.node(tree, path: path + ".condition", depth: 0)
            } else {
                let why =
                    members["expression"] != nil
                    ? "it is a client template's condition (an \"expression\"); server-side evaluation reads a server "
                        + "template's \"condition\" tree, so it never matches"
                    : "it has no \"condition\""
                reader.issues.append(FirebaseCondition.Issue(path: path, kind: .unparsable(why)))
                root = .unreadable
            }
            if let earlier = places[name] {
                let why =
                    "the name \"\(name)\" is also defined at conditions[\(conditions[earlier].index)]; Firebase's SDKs "
                    + "evaluate the last definition in the first one's place, and so does this format: rename one"
                reader.issues.insert(FirebaseCondition.Issue(path: path + ".name", kind: .unparsable(why)), at: 0)
                conditions[earlier] = FirebaseCondition(name: name, index: index, root: root, issues: reader.issues)
            } else {
                places[name] = conditions.count
                conditions.append(FirebaseCondition(name: name, index: index, root: root, issues: reader.issues))
            }
        }
        self.conditions = conditions
        self.unnamed = unnamed
    }
}

/// Reads one condition's tree, collecting what cannot be read.
private struct TreeReader {
    var issues: [FirebaseCondition.Issue] = []

    /// An unreadable node, with the issue `kind` at `path`.
    private mutating func unreadable(_ path: String, _ kind: RuleProblem.Kind) -> FirebaseCondition.Node {
        issues.append(FirebaseCondition.Issue(path: path, kind: kind))
        return .unreadable
    }

    private mutating func unreadable(_ path: String, _ why: String) -> FirebaseCondition.Node {
        unreadable(path, .unparsable(why))
    }

    /// The node `value` at `path`, `depth` `orCondition`s and `andCondition`s deep.
    mutating func node(_ value: ConfigValue, path: String, depth: Int) -> FirebaseCondition.Node {
        guard case .object(let members) = value else {
            return unreadable(
                path,
                "a condition is an object with one of \(ConditionReader.kinds.joined(separator: ", ")), "
                    + "found a JSON \(value.kind)"
            )
        }
        if depth >= ConditionReader.maxDepth {
            return unreadable(
                path,
                "it is nested inside \(depth) orCondition and andCondition levels; Firebase's Node.js and Python SDKs answer "
                    + "false for a condition inside \(ConditionReader.maxDepth) or more, so it never matches")
        }
        // The first kind present decides, as in Firebase's Node.js and Python SDKs (a `null` member is absent).
        guard let kind = ConditionReader.kinds.first(where: { members[$0].map { !$0.isNull } ?? false }),
            let body = members[kind]
        else {
            guard let unknown = members.filter({ !$0.value.isNull }).keys.sorted().first else {
                return unreadable(path, "an empty condition: it needs one of \(ConditionReader.kinds.joined(separator: ", "))")
            }
            return unreadable(path, .unknownOperator(unknown, known: ConditionReader.kinds))
        }
        let at = path + "." + kind
        guard case .object(let fields) = body else {
            return unreadable(at, "\"\(kind)\" must be an object, found a JSON \(body.kind)")
        }
        switch kind {
        case "orCondition", "andCondition":
            let children: [ConfigValue]
            switch fields["conditions"] {
            case nil, .null?: children = []
            case .array(let elements)?: children = elements
            case let other?: return unreadable(at + ".conditions", "must be an array of conditions, found a JSON \(other.kind)")
            }
            let nodes = children.enumerated().map { node($1, path: "\(at).conditions[\($0)]", depth: depth + 1) }
            return kind == "orCondition" ? .or(nodes) : .and(nodes)
        case "true": return .constant(true)
        case "false": return .constant(false)
        case "percent": return percent(fields, path: at)
        default: return signal(fields, path: at)
        }
    }

    /// A `percent` condition's fields.
    private mutating func percent(_ fields: [String: ConfigValue], path: String) -> FirebaseCondition.Node {
        guard case .string(let name)? = fields["percentOperator"], !name.isEmpty else {
            return unreadable(
                path + ".percentOperator",
                "a percent condition needs a \"percentOperator\" (\(ConditionReader.percentOperators.joined(separator: ", ")))")
        }
        guard ConditionReader.percentOperators.contains(name) else {
            return unreadable(path + ".percentOperator", .unknownOperator(name, known: ConditionReader.percentOperators))
        }
        let seed: String
        switch fields["seed"] {
        case nil, .null?: seed = ""
        case .string(let text)?: seed = text
        case let other?: return unreadable(path + ".seed", "\"seed\" must be a string, found a JSON \(other.kind)")
        }
        var range: [String: ConfigValue] = [:]
        switch fields["microPercentRange"] {
        case nil, .null?: break
        case .object(let members)?: range = members
        case let other?:
            return unreadable(path + ".microPercentRange", "\"microPercentRange\" must be an object, found a JSON \(other.kind)")
        }
        // A limit left out is 0, as proto3's JSON leaves out zeros.
        var limits: [Double] = []
        for (field, value, at) in [
            ("microPercent", fields["microPercent"], path),
            ("microPercentLowerBound", range["microPercentLowerBound"], path + ".microPercentRange"),
            ("microPercentUpperBound", range["microPercentUpperBound"], path + ".microPercentRange"),
        ] {
            switch value {
            case nil, .null?: limits.append(0)
            case .int(let number)?: limits.append(Double(number))
            case .double(let number)? where number.isFinite: limits.append(number)
            case let other?:
                return unreadable("\(at).\(field)", "\"\(field)\" must be a number of micro-percents, found a JSON \(other.kind)")
            }
        }
        switch name {
        case "LESS_OR_EQUAL": return .percent(PercentCondition(seed: seed, range: .atMost(limits[0])))
        case "GREATER_THAN": return .percent(PercentCondition(seed: seed, range: .above(limits[0])))
        default: return .percent(PercentCondition(seed: seed, range: .between(lower: limits[1], upper: limits[2])))
        }
    }

    /// A `customSignal` condition's fields.
    private mutating func signal(_ fields: [String: ConfigValue], path: String) -> FirebaseCondition.Node {
        guard case .string(let name)? = fields["customSignalOperator"], !name.isEmpty else {
            return unreadable(path + ".customSignalOperator", "a custom signal condition needs a \"customSignalOperator\"")
        }
        guard ConditionReader.signalOperators.contains(name) else {
            return unreadable(path + ".customSignalOperator", .unknownOperator(name, known: ConditionReader.signalOperators))
        }
        guard case .string(let key)? = fields["customSignalKey"], !key.isEmpty else {
            return unreadable(
                path + ".customSignalKey", "a custom signal condition needs a \"customSignalKey\" (a non-empty string)")
        }
        guard case .array(let values)? = fields["targetCustomSignalValues"], !values.isEmpty else {
            return unreadable(
                path + ".targetCustomSignalValues",
                "a custom signal condition needs \"targetCustomSignalValues\", a non-empty array of strings")
        }
        var targets: [String] = []
        for (index, value) in values.enumerated() {
            guard case .string(let text) = value else {
                return unreadable(
                    "\(path).targetCustomSignalValues[\(index)]", "a target value must be a string, found a JSON \(value.kind)")
            }
            targets.append(text)
        }
        let first = path + ".targetCustomSignalValues[0]"
        let comparison: SignalCondition.Comparison
        switch name {
        case "STRING_CONTAINS": comparison = .contains(targets)
        case "STRING_DOES_NOT_CONTAIN": comparison = .doesNotContain(targets)
        case "STRING_EXACTLY_MATCHES": comparison = .exactly(targets)
        case "STRING_CONTAINS_REGEX":
            var patterns: [CompiledPattern] = []
            for (index, target) in targets.enumerated() {
                guard let expression = try? NSRegularExpression(pattern: target) else {
                    return unreadable(
                        "\(path).targetCustomSignalValues[\(index)]", "/\(target)/ is not a valid regular expression")
                }
                patterns.append(CompiledPattern(source: target, expression: expression))
            }
            comparison = .regex(patterns)
        default:
            // The numeric and version operators compare with the first target only, as Firebase's Node.js
            // and Python SDKs do.
            let relation = Self.relation(of: name)
            if name.hasPrefix("NUMERIC_") {
                guard let number = SignalValues.number(targets[0]) else {
                    return unreadable(first, "\"\(targets[0])\" is not a number, so \(name) never matches")
                }
                comparison = .numeric(relation, number)
            } else {
                guard let version = SignalVersion(targets[0]) else {
                    return unreadable(
                        first, "\"\(targets[0])\" is not a version (one to five dot-separated numbers), so \(name) never matches")
                }
                comparison = .version(relation, version)
            }
        }
        return .signal(SignalCondition(key: key, comparison: comparison))
    }

    /// The relation a `NUMERIC_…` or `SEMANTIC_VERSION_…` operator names by its suffix.
    private static func relation(of name: String) -> Relation {
        if name.hasSuffix("_NOT_EQUAL") { return .notEqual }
        if name.hasSuffix("_LESS_THAN") { return .less }
        if name.hasSuffix("_LESS_EQUAL") { return .lessOrEqual }
        if name.hasSuffix("_GREATER_THAN") { return .greater }
        if name.hasSuffix("_GREATER_EQUAL") { return .greaterOrEqual }
        return .equal
    }
}
