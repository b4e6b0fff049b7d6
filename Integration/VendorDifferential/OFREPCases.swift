import ConfigDomain
import Foundation

/// A seeded generator of random flag sets in fast-feature's flags-file format
/// (`Integration/OFREPServer/fast_feature_server.py`) and of random evaluation contexts.
///
/// Every flag set mixes Boolean, string, number, object and array variants (now and then a `null`
/// one, which fast-feature sends without a `value`: OFREP's code default), static, empty-targeting
/// and disabled flags, targeting on attributes, nested attributes, the targeting key and the flag's
/// own key with the operators fast-feature's JsonLogic engine knows (comparisons, `in`, `starts_with`,
/// `ends_with`, `sem_ver`, `fractional`, arithmetic, `missing`, `cat`, `var` with a default), targeting
/// that fails (an unknown operator, a name that is no variant, a number as a variant, a division by
/// zero, a text that is no number), and metadata or none. It never writes what makes fast-feature
/// answer 500 for the whole request (a flag key outside `[A-Za-z0-9_.-]`, an operator with too few
/// arguments): the point is each flag's answer.
struct OFREPCaseGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The next case.
    mutating func next(number: Int) -> OFREPCase {
        let count = 1 + random.below(10)
        var flags: [GeneratedFlag] = []
        for index in 0..<count { flags.append(flag(index: index)) }
        return OFREPCase(number: number, flags: flags, context: context())
    }

    // MARK: Flags

    private static let keySuffixes = ["", "-new", ".beta", "_x", "-checkout.v2", "_A9"]
    private static let variantNames = ["on", "off", "control", "treatment", "a", "b", "v1", "v2", "grün", "red team", "x"]
    private static let strings: [ConfigValue] = [
        "", "Hello", "grüß dich", "emoji 🎉", "quote \" and \\ backslash", "line\nbreak\ttab", "日本語", "null", "true", "0",
    ]
    private static let integers: [ConfigValue] = [
        0, 1, -1, 42, -17, 1_000_000, .int(9_007_199_254_740_993), .int(Int64.min), .int(1 << 62),
    ]
    private static let doubles: [ConfigValue] = [0.5, -1.25, 3.0, 0.1, 1e-7, 1e21, 123456.789, 2.5e-300, -0.0]
    private static let objects: [ConfigValue] = [
        ["a": 1], ["nested": ["x": [1, 2.5, "s", nil, true]]], [:], ["k": nil], ["title": "Hi", "color": "blue", "size": 3],
    ]
    private static let arrays: [ConfigValue] = [[], [1, "a"], [["a": nil]], [true, false]]

    private enum Family: CaseIterable { case bool, string, integer, double, object, array, mixed }

    private mutating func value(of family: Family) -> ConfigValue {
        if random.chance(0.04) { return .null }
        switch family {
        case .bool: return .bool(random.chance(0.5))
        case .string: return random.pick(Self.strings)
        case .integer: return random.pick(Self.integers)
        case .double: return random.pick(Self.doubles)
        case .object: return random.pick(Self.objects)
        case .array: return random.pick(Self.arrays)
        case .mixed:
            return value(of: random.pick([.bool, .string, .integer, .double, .object, .array]))
        }
    }

    private mutating func flag(index: Int) -> GeneratedFlag {
        let key = "f\(index)" + random.pick(Self.keySuffixes)
        let family = random.pick(Family.allCases)
        let names = random.distinct(Self.variantNames, count: 1 + random.below(4))
        let variants = names.map { ($0, value(of: family)) }
        let defaultVariant = random.pick(names)
        let state: String? = random.chance(0.15) ? "DISABLED" : random.chance(0.3) ? "ENABLED" : nil
        var targeting: ConfigValue?
        let shape = random.below(100)
        if shape < 20 {
            targeting = nil
        } else if shape < 25 {
            targeting = [:]  // falsy: fast-feature evaluates no targeting (STATIC)
        } else if shape < 35 {
            targeting = failing(names: names)
        } else if shape < 43 {
            targeting = fractional(names: names)
        } else if shape < 48 {
            targeting = ["var": .string(random.pick(["chosen", "plan", "missing"]))]  // the context names the variant
        } else {
            targeting = ifChain(names: names, key: key)
        }
        var metadata: [String: ConfigValue]?
        let metadataShape = random.below(10)
        if metadataShape >= 5 {
            var entries: [String: ConfigValue] = [:]
            for _ in 0..<(1 + random.below(3)) {
                switch random.below(5) {
                case 0: entries["team"] = .string(random.pick(["web", "growth", "Zürich"]))
                case 1: entries["version"] = .int(Int64(random.below(10)))
                case 2: entries["ratio"] = .double(random.pick([0.5, 3.0, 1e-7]))
                case 3: entries["experimental"] = .bool(random.chance(0.5))
                default: entries["flagSetId"] = .string("set-\(random.below(3))")
                }
            }
            metadata = entries
        } else if metadataShape == 4 {
            metadata = [:]
        }
        let kinds: [GeneratedFlag.KeyKind]
        let plain = variants.map(\.1)
        if plain.allSatisfy({ $0.boolValue != nil }) {
            kinds = [.raw(default: "app-default"), .bool(default: random.chance(0.5)), .unregistered]
        } else if plain.allSatisfy({ $0.stringValue != nil }) {
            kinds = [.raw(default: .int(-7)), .string(default: "app-default"), .unregistered]
        } else {
            kinds = [.raw(default: "app-default"), .raw(default: ["app": true]), .unregistered]
        }
        return GeneratedFlag(
            key: key, variants: variants, defaultVariant: defaultVariant, state: state, targeting: targeting,
            metadata: metadata, keyKind: random.pick(kinds))
    }

    /// `{"if": [condition, variant, (condition, variant,) else]}`: a match, `DEFAULT` when it gives `null`.
    private mutating func ifChain(names: [String], key: String) -> ConfigValue {
        var arguments: [ConfigValue] = []
        for _ in 0..<(1 + random.below(2)) {
            arguments.append(condition(depth: 0, key: key))
            arguments.append(result(names: names))
        }
        switch random.below(4) {
        case 0: break  // no else: null
        case 1: arguments.append(.null)
        default: arguments.append(result(names: names))
        }
        return ["if": .array(arguments)]
    }

    /// What a branch gives: a variant's name, rarely one computed with `cat` or one that is no variant.
    private mutating func result(names: [String]) -> ConfigValue {
        switch random.below(20) {
        case 0: return "no-such-variant"
        case 1: return .int(7)
        case 2: return ["cat": ["v", "1"]]
        default: return .string(random.pick(names))
        }
    }

    /// Targeting that fails for every context, or for some.
    private mutating func failing(names: [String]) -> ConfigValue {
        switch random.below(6) {
        case 0: return ["nope_op": [1]]
        case 1: return ["if": [true, "missing-variant", nil]]
        case 2: return ["if": [["var": "beta"], true, nil]]  // a Boolean result is no variant name
        case 3: return ["if": [[">": [["/": [100, ["var": "zero"]]], 1]], .string(random.pick(names)), nil]]
        case 4: return ["if": [["<": [["var": "plan"], 3]], .string(random.pick(names)), nil]]  // "pro" is no number
        default: return ["if": [["missing": ["plan"]], .string(random.pick(names)), ["max": [["var": "age"], 1]]]]
        }
    }

    /// `fractional`: by the flag key and targeting key, or by an attribute.
    private mutating func fractional(names: [String]) -> ConfigValue {
        var buckets: [ConfigValue] = []
        for name in random.distinct(names + ["unlisted"], count: min(names.count + 1, 1 + random.below(3))) {
            buckets.append([.string(name), .int(Int64(1 + random.below(60)))])
        }
        if random.chance(0.5) { return ["fractional": .array(buckets)] }
        let by: ConfigValue = random.chance(0.5) ? ["var": "email"] : ["cat": [["var": "targetingKey"], "-salt"]]
        return ["fractional": .array([by] + buckets)]
    }

    private static let comparisons = ["==", "!=", "===", "!==", "<", "<=", ">", ">="]

    /// A condition on the context.
    private mutating func condition(depth: Int, key: String) -> ConfigValue {
        let choice = random.below(depth < 2 ? 16 : 13)
        switch choice {
        case 0, 1:
            let attribute = random.pick(Self.attributeNames)
            return [random.pick(Self.comparisons): [["var": .string(attribute)], literal(for: attribute)]]
        case 2:
            return [random.pick(["<", "<="]): [10, ["var": "age"], .int(Int64(20 + random.below(40)))]]
        case 3:
            return ["in": [["var": .string(random.pick(["plan", "country", "tags"]))], ["pro", "DE", "vip", "enterprise"]]]
        case 4:
            return ["in": [.string(random.pick(["@example", "corp", "ü"])), ["var": "email"]]]
        case 5:
            return [
                random.pick(["starts_with", "ends_with"]): [
                    ["var": .string(random.pick(["email", "targetingKey", "country"]))],
                    .string(random.pick(["u1", "a", ".com", "example.de", "D"])),
                ]
            ]
        case 6:
            return [
                "sem_ver": [
                    ["var": "version"], .string(random.pick(["=", "!=", "<", "<=", ">", ">=", "^", "~"])),
                    .string(random.pick(["1.2.3", "2.0.0", "1.10", "v1"])),
                ]
            ]
        case 7:
            return [
                random.pick(["==", "!=", "in"]): [
                    ["var": "targetingKey"],
                    random.chance(0.5) ? .string(random.pick(Self.targetingKeys)) : ["u1", "u2", "user-ä"],
                ]
            ]
        case 8:
            return ["==": [["var": "$flag.key"], .string(random.chance(0.7) ? key : "other")]]
        case 9:
            return [">": [[random.pick(["+", "-", "*", "%"]): [["var": "age"], 2]], .int(Int64(random.below(70)))]]
        case 10:
            return ["==": [["var": "address.country"], .string(random.pick(["DE", "FR"]))]]
        case 11:
            return ["==": [["var": ["plan", "free"]], .string(random.pick(["free", "pro"]))]]
        case 12:
            return random.chance(0.5)
                ? ["missing": ["plan", "age"]] : ["!!": [["var": .string(random.pick(Self.attributeNames))]]]
        case 13:
            return ["!": [condition(depth: depth + 1, key: key)]]
        default:
            return [
                random.pick(["and", "or"]): [condition(depth: depth + 1, key: key), condition(depth: depth + 1, key: key)]
            ]
        }
    }

    /// A literal to compare `attribute` with: mostly of its own kind, sometimes of another.
    private mutating func literal(for attribute: String) -> ConfigValue {
        if random.chance(0.2) { return random.pick(["30", 30, true, nil, 0.5, "pro"]) }
        return attributeValue(attribute)
    }

    // MARK: Contexts

    private static let targetingKeys = ["u1", "u2", "u3", "u10", "user-ä", "", "00042", "u1-beta"]
    private static let attributeNames = [
        "plan", "country", "age", "beta", "score", "version", "email", "tags", "address", "zero", "nothing", "chosen",
    ]

    private mutating func attributeValue(_ name: String) -> ConfigValue {
        switch name {
        case "plan": return random.pick(["free", "pro", "enterprise", "", 3])
        case "country": return random.pick(["DE", "FR", "US", "de", ""])
        case "age": return random.pick([0, 17, 18, 30, 65, -1, 17.5, 30.0, "30", "abc", true, nil])
        case "beta": return random.pick([true, false, "true", 1])
        case "score": return random.pick([0.1, 0.5, 0.99, 1e-7, 1, "0.5"])
        case "version": return random.pick(["1.2.3", "2.0.0", "1.10.0", "v3.1", "1.2", "1.2.3-beta.1", "x.y", 2])
        case "email": return random.pick(["a@example.com", "bob@corp.example", "ünï@example.de", ""])
        case "tags": return random.pick([["beta", "vip"], [], ["pro"]])
        case "address": return random.pick([["country": "DE", "city": "Köln"], ["country": "FR"], [:], "DE"])
        case "zero": return random.pick([0, 0.0, 1, "0"])
        case "nothing": return nil
        default: return .string(random.pick(Self.variantNames + ["none"]))  // "chosen": may name a variant
        }
    }

    private mutating func context() -> EvaluationContext {
        var attributes: [String: ConfigValue] = [:]
        for name in Self.attributeNames where random.chance(0.5) { attributes[name] = attributeValue(name) }
        return EvaluationContext(
            targetingKey: random.chance(0.8) ? random.pick(Self.targetingKeys) : nil, attributes: attributes)
    }

    /// Another context than `context`: another targeting key, or other attributes.
    mutating func otherContext(than context: EvaluationContext) -> EvaluationContext {
        var other = context
        if random.chance(0.5) {
            other.targetingKey = (context.targetingKey ?? "") + "-other"
        } else {
            other.attributes["plan"] = context.attributes["plan"] == "pro" ? "free" : "pro"
        }
        return other
    }
}

/// One case: a flag set written to fast-feature's flags file, and a context.
struct OFREPCase {
    let number: Int
    let flags: [GeneratedFlag]
    let context: EvaluationContext

    /// The flags file: `{"flags": [...]}`.
    var flagsFile: ConfigValue { ["flags": .array(flags.map(\.definition))] }

    /// The body of a bulk evaluation for the context, written by the test (not the library):
    /// `{"context": {"targetingKey": …, <attributes>}}`.
    var requestBody: String {
        var members = context.attributes
        if let key = context.targetingKey { members["targetingKey"] = .string(key) }
        return PlainJSON.text(["context": .object(members)])
    }
}

/// One generated flag, and how the test reads it through the library.
struct GeneratedFlag {
    /// The key the test reads the flag with.
    enum KeyKind {
        /// A registered `ConfigKey<ConfigValue>` with this default, read by name (`view().details(forKey:)`).
        case raw(default: ConfigValue)
        /// A registered `ConfigKey<Bool>` (all the flag's variants are Booleans), read with `details(_:)`.
        case bool(default: Bool)
        /// A registered `ConfigKey<String>` (all the flag's variants are strings), read with `details(_:)`.
        case string(default: String)
        /// No registered key: read by name, its default is nil.
        case unregistered

        /// The default as a value (nil for an unregistered name).
        var defaultValue: ConfigValue? {
            switch self {
            case .raw(let value): value
            case .bool(let value): .bool(value)
            case .string(let value): .string(value)
            case .unregistered: nil
            }
        }
    }

    let key: String
    let variants: [(String, ConfigValue)]
    let defaultVariant: String
    let state: String?
    let targeting: ConfigValue?
    let metadata: [String: ConfigValue]?
    let keyKind: KeyKind

    /// The flag in fast-feature's flags file.
    var definition: ConfigValue {
        var members: [String: ConfigValue] = [
            "key": .string(key), "defaultVariant": .string(defaultVariant),
            "variants": .object(Dictionary(variants, uniquingKeysWith: { first, _ in first })),
        ]
        if let state { members["state"] = .string(state) }
        if let targeting { members["targeting"] = targeting }
        if let metadata { members["metadata"] = .object(metadata) }
        return .object(members)
    }
}

/// JSON text written by the test itself, not by the library's writer: object members sorted, every
/// character outside ASCII escaped as `\uXXXX` (as Python's `json.dumps` does), doubles as Swift prints them.
enum PlainJSON {
    static func text(_ value: ConfigValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: ConfigValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .int(let number): out += String(number)
        case .double(let number): out += "\(number)"  // 3.0, 1e-07, 1e+21: JSON numbers that read back as doubles
        case .string(let text): write(string: text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                write(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { out += ", " }
                write(string: name, to: &out)
                out += ": "
                write(members[name] ?? .null, to: &out)
            }
            out += "}"
        }
    }

    private static func write(string: String, to out: inout String) {
        out += "\""
        for unit in string.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out += String(UnicodeScalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        out += "\""
    }
}

/// SplitMix64: a small seeded generator whose sequence is the same on every platform and Swift version.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(UInt64(1) << 53) < p }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `count` distinct elements of `items`, in a random order.
    mutating func distinct<T>(_ items: [T], count: Int) -> [T] {
        var pool = items
        var chosen: [T] = []
        while chosen.count < count, !pool.isEmpty { chosen.append(pool.remove(at: below(pool.count))) }
        return chosen
    }
}
