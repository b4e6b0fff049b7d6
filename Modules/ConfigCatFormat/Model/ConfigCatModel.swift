import ConfigDomain
import Foundation

/// A setting's type as config JSON numbers it in `t`.
enum SettingType: Int64, Sendable {
    case boolean = 0, string = 1, int = 2, double = 3

    /// `boolean`, `string`, `int`, `double`: the word messages use.
    var name: String {
        switch self {
        case .boolean: "boolean"
        case .string: "string"
        case .int: "int"
        case .double: "double"
        }
    }
}

/// The fields of a setting value object (`{"b": true}`, `{"s": "x"}`, `{"i": 1}`, `{"d": 1.5}`); the
/// setting's type says which one counts.
struct ValueFields: Sendable, Hashable {
    var bool: Bool?
    var string: String?
    var int: Int64?
    var double: Double?

    /// The field a setting of `type` reads, or nil when it is absent.
    func value(for type: SettingType) -> ConfigValue? {
        switch type {
        case .boolean: bool.map(ConfigValue.bool)
        case .string: string.map(ConfigValue.string)
        case .int: int.map(ConfigValue.int)
        case .double: double.map(ConfigValue.double)
        }
    }

    /// The first field present (`b`, `s`, `i`, `d`), for messages.
    var anyValue: ConfigValue? {
        bool.map(ConfigValue.bool) ?? string.map(ConfigValue.string) ?? int.map(ConfigValue.int) ?? double.map(ConfigValue.double)
    }
}

/// A value as the config holds it: the value object of config JSON, or a plain value of the simple
/// local-override form (`{"flags": {"key": true}}`), whose type is the value's own.
enum StoredValue: Sendable {
    /// A value object of config JSON.
    case fields(ValueFields)
    /// A plain JSON value of the simple override form.
    case plain(ConfigValue)
}

/// A value with its variation ID: a setting's own value, a targeting rule's served value, or a percentage option's.
struct ServedValue: Sendable {
    var value: StoredValue
    var variationID: String?
}

/// One percentage option: its share (in percent) and its value.
struct PercentageOption: Sendable {
    var percentage: Int64
    var served: ServedValue
}

/// A condition on one attribute of the User Object (`u`, and each condition of a segment).
struct UserCondition: Sendable {
    /// The attribute's name in the User Object (`Email`, `Identifier`, a custom name).
    var attribute: String
    /// The comparator's number (see ``Comparator``); an unknown one fails the evaluation that reaches it.
    var comparator: Int64
    /// The comparison value `s`.
    var text: String?
    /// The comparison value `d`.
    var number: Double?
    /// The comparison value `l`.
    var list: [String]?
}

/// One condition of a targeting rule.
enum Condition: Sendable {
    /// A condition on a User Object attribute.
    case user(UserCondition)
    /// IS IN (0) or IS NOT IN (1) the segment at `index` of the config's segments.
    case segment(index: Int64, comparator: Int64)
    /// The value of the flag `key` EQUALS (0) or NOT EQUALS (1) `value`.
    case prerequisite(key: String, comparator: Int64, value: ValueFields)
    /// A condition object with none, or more than one, of `u`, `s` and `p`.
    case invalid
}

/// A targeting rule: conditions joined by AND, then a served value or percentage options.
struct TargetingRule: Sendable {
    var conditions: [Condition]
    var served: ServedValue?
    var options: [PercentageOption]?
}

/// A segment: a name (the context salt of its confidential comparisons) and conditions joined by AND.
struct Segment: Sendable {
    var name: String
    var conditions: [UserCondition]
}

/// One feature flag or setting.
struct Setting: Sendable {
    /// `t`; nil for a plain value of the simple override form, whose type is its value's.
    var type: Int64?
    /// `a`: the attribute percentage options hash; nil for the identifier.
    var percentageAttribute: String?
    var rules: [TargetingRule]
    var options: [PercentageOption]
    /// `v` and `i`: the value served when no rule or option decides.
    var served: ServedValue

    /// Whether the setting serves one value to everyone: no targeting rule and no percentage option.
    var isSimple: Bool { rules.isEmpty && options.isEmpty }
}

/// A failure of the config model that stops an evaluation, in ConfigCat's words
/// (`Circular dependency detected between the following depending flags: 'a' -> 'b' -> 'a'.`).
struct ConfigModelError: Error, Sendable {
    var message: String

    init(_ message: String) { self.message = message }
}

/// The whole config, shared by every key's rules: prerequisites and segments refer across settings.
final class ConfigCatConfig: Sendable {
    /// The settings that could be read, by key.
    let settings: [String: Setting]
    /// The keys whose settings could not be read, with why (a prerequisite on one fails with this).
    let unreadable: [String: String]
    /// The config's segments; one that could not be read is nil (the settings that use it were rejected).
    let segments: [Segment?]
    /// `p.s`: the salt of confidential comparisons; nil when the config has none.
    let salt: String?

    init(settings: [String: Setting], unreadable: [String: String], segments: [Segment?], salt: String?) {
        self.settings = settings
        self.unreadable = unreadable
        self.segments = segments
        self.salt = salt
    }
}

extension StoredValue {
    /// The value a setting of `type` serves from this, or ConfigCat's reason it has none. `type` is the
    /// setting's `t` (nil for a plain value, which must be a Boolean, a string or a number).
    func unwrap(as type: Int64?) throws(ConfigModelError) -> ConfigValue {
        switch self {
        case .plain(let value):
            switch value {
            case .bool, .string, .int, .double: return value
            case .null: throw ConfigModelError("Setting value is null.")
            default: throw ConfigModelError("Setting value '\(value.jsonText())' is of an unsupported type (\(value.kind)).")
            }
        case .fields(let fields):
            let settingType = try SettingType.checked(type)
            guard let value = fields.value(for: settingType) else {
                throw ConfigModelError("Setting value is missing or invalid.")
            }
            return value
        }
    }

    /// The type of this value's setting: `t`, or for a plain value the type of the value.
    func settingType(declared type: Int64?) throws(ConfigModelError) -> SettingType {
        guard case .plain(let value) = self else { return try SettingType.checked(type) }
        switch value {
        case .bool: return .boolean
        case .string: return .string
        case .int, .double: return .double
        case .null: throw ConfigModelError("Setting value is null.")
        default: throw ConfigModelError("Setting value '\(value.jsonText())' is of an unsupported type (\(value.kind)).")
        }
    }
}

extension SettingType {
    /// The type `t` names, or `Setting type is invalid.`
    static func checked(_ type: Int64?) throws(ConfigModelError) -> SettingType {
        guard let type, let settingType = SettingType(rawValue: type) else { throw ConfigModelError("Setting type is invalid.") }
        return settingType
    }
}
