import ConfigDomain
import Foundation

/// Reads config JSON v6 (`{"p": …, "s": […], "f": {…}}`) and the simple local-override form
/// (`{"flags": {"key": value}}`) into a ``ConfigCatConfig``.
///
/// It checks the shape of each member as ConfigCat's SDKs do when they load a config (types, and
/// the members the schema requires), and nothing more: what the SDKs check while evaluating (a
/// value of the wrong type for the setting, an unknown comparator, a prerequisite flag that is not
/// there) fails the evaluations that reach it, as in the SDKs. A setting of the wrong shape, or that
/// uses a segment of the wrong shape, is rejected alone.
struct ConfigCatReader {
    let format: String
    private(set) var problems: [String: [RuleProblem]] = [:]

    init(format: String) { self.format = format }

    /// The config in `document`.
    ///
    /// - Throws: ``PayloadError`` when the document has none of `f`, `p` (config JSON) and `flags` (the
    ///   simple override form), when `f`, `flags` or `p` is not an object, `s` not an array, or the salt `p.s` not a string.
    mutating func read(_ document: [String: ConfigValue]) throws(PayloadError) -> ConfigCatConfig {
        let top: Members
        do throws(ShapeError) {
            top = try Members(.object(document), at: "$")
        } catch {
            throw PayloadError(format: format, reason: error.reason)
        }
        if let flags = top["flags"] { return try simpleOverrides(flags) }
        guard top["f"] != nil || top["p"] != nil else {
            throw PayloadError(
                format: format,
                reason:
                    "not ConfigCat config JSON: expected \"f\" (the settings of config JSON v6) or \"flags\" (a local override file)"
            )
        }
        let salt: String?
        let segmentValues: [ConfigValue]
        let settingValues: [String: ConfigValue]
        do throws(ShapeError) {
            salt = try top["p"].map { preferences throws(ShapeError) in try Members(preferences, at: "p").string("s") } ?? nil
            segmentValues = try top.array("s") ?? []
            settingValues = try top["f"].map { settings throws(ShapeError) in try Members(settings, at: "f").members } ?? [:]
        } catch {
            throw PayloadError(format: format, reason: error.reason, path: error.path)
        }
        var segments: [Segment?] = []
        var segmentErrors: [Int: ShapeError] = [:]
        for (index, value) in segmentValues.enumerated() {
            do throws(ShapeError) {
                segments.append(try Self.segment(value, at: "s[\(index)]"))
            } catch {
                segments.append(nil)
                segmentErrors[index] = error
            }
        }
        var settings: [String: Setting] = [:]
        var unreadable: [String: String] = [:]
        for (key, value) in settingValues {
            do throws(ShapeError) {
                let setting = try Self.setting(value, at: "f.\(key)")
                if let broken = setting.segmentIndices.lazy.compactMap({ Int(exactly: $0).flatMap { segmentErrors[$0] } }).first {
                    throw ShapeError(
                        path: broken.path, reason: "the setting uses a segment that cannot be read: \(broken.reason)")
                }
                settings[key] = setting
            } catch {
                problems[key] = [error.problem(key: key)]
                unreadable[key] = error.reason
            }
        }
        return ConfigCatConfig(settings: settings, unreadable: unreadable, segments: segments, salt: salt)
    }

    /// `{"flags": {"key": value}}`: each value a setting of its own type, without rules or a variation ID.
    private func simpleOverrides(_ flags: ConfigValue) throws(PayloadError) -> ConfigCatConfig {
        guard case .object(let values) = flags else {
            throw PayloadError(
                format: format, reason: "\"flags\" must be an object of values, found \(Members.describe(flags))", path: "flags")
        }
        let settings = values.mapValues { value in
            Setting(type: nil, rules: [], options: [], served: ServedValue(value: .plain(value), variationID: nil))
        }
        return ConfigCatConfig(settings: settings, unreadable: [:], segments: [], salt: nil)
    }

    static func segment(_ value: ConfigValue, at path: String) throws(ShapeError) -> Segment {
        let members = try Members(value, at: path)
        var conditions: [UserCondition] = []
        for (index, condition) in (try members.array("r") ?? []).enumerated() {
            conditions.append(try userCondition(condition, at: "\(path).r[\(index)]"))
        }
        return Segment(name: try members.string("n", required: true) ?? "", conditions: conditions)
    }

    static func setting(_ value: ConfigValue, at path: String) throws(ShapeError) -> Setting {
        let members = try Members(value, at: path)
        var rules: [TargetingRule] = []
        for (index, rule) in (try members.array("r") ?? []).enumerated() {
            rules.append(try targetingRule(rule, at: "\(path).r[\(index)]"))
        }
        return Setting(
            type: try members.integer("t", required: true), percentageAttribute: try members.string("a"), rules: rules,
            options: try percentageOptions(members, "p") ?? [], served: try servedValue(members))
    }

    static func targetingRule(_ value: ConfigValue, at path: String) throws(ShapeError) -> TargetingRule {
        let members = try Members(value, at: path)
        var conditions: [Condition] = []
        for (index, condition) in (try members.array("c") ?? []).enumerated() {
            conditions.append(try self.condition(condition, at: "\(path).c[\(index)]"))
        }
        let served = try members["s"].map { value throws(ShapeError) in try servedValue(Members(value, at: members.path("s"))) }
        return TargetingRule(conditions: conditions, served: served, options: try percentageOptions(members, "p"))
    }

    static func condition(_ value: ConfigValue, at path: String) throws(ShapeError) -> Condition {
        let members = try Members(value, at: path)
        var found: [Condition] = []
        if let user = members["u"] { found.append(.user(try userCondition(user, at: members.path("u")))) }
        if let prerequisite = members["p"] {
            let condition = try Members(prerequisite, at: members.path("p"))
            found.append(
                .prerequisite(
                    key: try condition.string("f", required: true) ?? "",
                    comparator: try condition.integer("c", required: true) ?? 0,
                    value: try valueFields(condition, "v")))
        }
        if let segment = members["s"] {
            let condition = try Members(segment, at: members.path("s"))
            found.append(
                .segment(
                    index: try condition.integer("s", required: true) ?? 0,
                    comparator: try condition.integer("c", required: true) ?? 0))
        }
        return found.count == 1 ? found[0] : .invalid
    }

    static func userCondition(_ value: ConfigValue, at path: String) throws(ShapeError) -> UserCondition {
        let members = try Members(value, at: path)
        return UserCondition(
            attribute: try members.string("a", required: true) ?? "", comparator: try members.integer("c", required: true) ?? 0,
            text: try members.string("s"), number: try members.number("d"), list: try members.strings("l"))
    }

    static func percentageOptions(_ members: Members, _ name: String) throws(ShapeError) -> [PercentageOption]? {
        guard let elements = try members.array(name) else { return nil }
        var options: [PercentageOption] = []
        for (index, element) in elements.enumerated() {
            let option = try Members(element, at: "\(members.path(name))[\(index)]")
            options.append(
                PercentageOption(percentage: try option.integer("p", required: true) ?? 0, served: try servedValue(option)))
        }
        return options
    }

    /// `v` (required) and `i` of a setting, a served value or a percentage option.
    static func servedValue(_ members: Members) throws(ShapeError) -> ServedValue {
        ServedValue(value: .fields(try valueFields(members, "v")), variationID: try members.string("i"))
    }

    /// The required value object `name`.
    static func valueFields(_ members: Members, _ name: String) throws(ShapeError) -> ValueFields {
        guard let value = members[name] else { throw ShapeError(path: members.path(name), reason: "\"\(name)\" is required") }
        guard case .object = value else {
            throw ShapeError(
                path: members.path(name),
                reason: "\"\(name)\" must be a value object such as {\"b\": true}, found \(Members.describe(value)) "
                    + "(config JSON v5 holds plain values there; download config_v6.json)")
        }
        let fields = try Members(value, at: members.path(name))
        return ValueFields(
            bool: try fields.bool("b"), string: try fields.string("s"), int: try fields.integer("i"),
            double: try fields.number("d"))
    }
}

extension Setting {
    /// The indices of the segments the setting's conditions use.
    var segmentIndices: [Int64] {
        rules.flatMap(\.conditions).compactMap { condition in
            if case .segment(let index, _) = condition { index } else { nil }
        }
    }
}
