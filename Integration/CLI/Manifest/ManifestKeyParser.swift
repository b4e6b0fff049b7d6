import ConfigDomain
import Foundation

/// Parses one entry of a manifest's `keys` array into a ``ManifestKey``, checking its default against its rules.
struct ManifestKeyParser {
    /// The manifest's path, for messages.
    var source: String
    /// The entry's index in `keys`, for messages.
    var index: Int

    static let fields = ["name", "type", "default", "rules", "secret", "summary"]
    /// The order rules run in, whatever order the manifest lists them.
    static let ruleOrder = ["range", "min", "max", "oneOf", "nonEmpty", "length", "pattern"]

    func parse(_ entry: ConfigValue) throws(ManifestError) -> ManifestKey {
        guard case .object(let fields) = entry else {
            throw fail(
                at: "keys[\(index)]",
                "each key must be an object with \"name\", \"type\" and \"default\", found a JSON \(entry.kind)")
        }
        guard case .string(let name)? = fields["name"], !name.isEmpty else {
            throw fail(at: "keys[\(index)]", "\"name\" must be a non-empty string (the key's name in the config)")
        }
        let location = "keys[\(index)] \"\(name)\""
        try KeyManifest.refuseUnknownFields(fields, allowed: Self.fields, source: source, location: location)
        guard case .string(let typeName)? = fields["type"] else {
            throw fail(at: location, "\"type\" must be one of \(ManifestValueType.list)")
        }
        guard let type = ManifestValueType(rawValue: typeName) else {
            var message = "unknown type \"\(typeName)\""
            if let hint = NameSimilarity.closest(to: typeName, among: ManifestValueType.allCases.map(\.rawValue)) {
                message += "; did you mean \"\(hint)\"?"
            }
            throw fail(at: location, message + " (types: \(ManifestValueType.list))")
        }
        guard let defaultValue = fields["default"] else {
            throw fail(at: location, "\"default\" is missing; every key needs the value used when no layer supplies a valid one")
        }
        var secret = false
        if let value = fields["secret"] {
            guard case .bool(let flag) = value else { throw fail(at: location, "\"secret\" must be true or false") }
            secret = flag
        }
        var summary: String?
        if let value = fields["summary"] {
            guard case .string(let text) = value else { throw fail(at: location, "\"summary\" must be a string") }
            summary = text
        }
        var rules: [String: ConfigValue] = [:]
        if let value = fields["rules"] {
            guard case .object(let members) = value else {
                throw fail(at: location, "\"rules\" must be an object such as { \"range\": [0, 10] }")
            }
            try KeyManifest.refuseUnknownFields(members, allowed: Self.ruleOrder, source: source, location: location + " rules")
            for rule in members.keys.sorted() where !type.allowedRules.contains(rule) {
                let allowed =
                    type.allowedRules.isEmpty
                    ? "\(type.rawValue) keys take no rules"
                    : "\(type.rawValue) keys take \(type.allowedRules.joined(separator: ", "))"
                throw fail(at: location, "the rule \"\(rule)\" does not apply to a \(type.rawValue) key; \(allowed)")
            }
            rules = members
        }
        let builder = KeyBuilder(
            name: name, defaultValue: defaultValue, secret: secret, summary: summary, rules: rules, location: location,
            source: source)
        let typed: any ManifestTypedKey
        switch type {
        case .bool: typed = try builder.make(converter: ValueConverter<Bool>.convertible, rules: [])
        case .int: typed = try builder.make(converter: ValueConverter<Int>.convertible, rules: builder.comparableRules(Int.self))
        case .double:
            typed = try builder.make(converter: ValueConverter<Double>.convertible, rules: builder.comparableRules(Double.self))
        case .string: typed = try builder.make(converter: ValueConverter<String>.convertible, rules: builder.stringRules())
        case .url: typed = try builder.make(converter: ValueConverter<URL>.convertible, rules: builder.urlRules())
        case .stringArray:
            typed = try builder.make(converter: ValueConverter<[String]>.convertible, rules: builder.arrayRules([String].self))
        case .intArray:
            typed = try builder.make(converter: ValueConverter<[Int]>.convertible, rules: builder.arrayRules([Int].self))
        case .json: typed = try builder.make(converter: ValueConverter<ConfigValue>.anyJSON, rules: [])
        }
        return ManifestKey(name: name, type: type, isSecret: secret, summary: summary, typed: typed)
    }

    private func fail(at location: String, _ message: String) -> ManifestError {
        ManifestError(source: source, location: location, message: message)
    }
}

/// Builds a typed key and its rules from one manifest entry.
private struct KeyBuilder {
    var name: String
    var defaultValue: ConfigValue
    var secret: Bool
    var summary: String?
    var rules: [String: ConfigValue]
    var location: String
    var source: String

    func fail(_ message: String) -> ManifestError { ManifestError(source: source, location: location, message: message) }

    /// The key, after checking that every rule is valid and that the default converts and passes them.
    func make<Value: Sendable>(converter: ValueConverter<Value>, rules: [ValidationRule<Value>]) throws(ManifestError)
        -> TypedManifestKey<Value>
    {
        for rule in rules {
            if let problem = rule.configurationProblem { throw fail("the rule \(rule.name) is invalid: \(problem)") }
        }
        let shown = secret ? Rejection.redacted : defaultValue.jsonText()
        let typedDefault: Value
        do throws(ConversionError) {
            typedDefault = try converter.fromValue(defaultValue)
        } catch {
            throw fail("the default \(shown) is not a valid \(converter.typeName): \(secret ? "wrong type" : error.reason)")
        }
        let key = ConfigKey(
            name: name, default: typedDefault, converter: converter, rules: rules, secret: secret, summary: summary)
        if case .failure(let rejection) = key.validate(typedDefault) {
            throw fail(
                "the default \(shown) is rejected by its own rule \(rejection.rule): \(rejection.reason); change the default or the rule"
            )
        }
        return TypedManifestKey(key: key)
    }

    /// `range`, `min`, `max` and `oneOf` for numbers.
    func comparableRules<T: Comparable & ConfigValueConvertible>(_ type: T.Type) throws(ManifestError) -> [ValidationRule<T>] {
        var result: [ValidationRule<T>] = []
        if let value = rules["range"] {
            let (lower, upper) = try pair(value, rule: "range", as: T.self)
            result.append(.range(lower...upper))
        }
        if let value = rules["min"] { result.append(.atLeast(try convert(value, rule: "min", as: T.self))) }
        if let value = rules["max"] { result.append(.atMost(try convert(value, rule: "max", as: T.self))) }
        if let value = rules["oneOf"] { result.append(.oneOf(try list(value, rule: "oneOf", as: T.self))) }
        return result
    }

    /// `oneOf`, `nonEmpty`, `length` and `pattern` for strings.
    func stringRules() throws(ManifestError) -> [ValidationRule<String>] {
        var result: [ValidationRule<String>] = []
        if let value = rules["oneOf"] { result.append(.oneOf(try list(value, rule: "oneOf", as: String.self))) }
        if let value = rules["nonEmpty"], try flag(value, rule: "nonEmpty") { result.append(.nonEmpty) }
        if let value = rules["length"] { result.append(.length(try lengthRange(value))) }
        if let value = rules["pattern"] { result.append(.pattern(try pattern(value))) }
        return result
    }

    /// `oneOf` and `pattern` (matched against the URL's text) for URLs.
    func urlRules() throws(ManifestError) -> [ValidationRule<URL>] {
        var result: [ValidationRule<URL>] = []
        if let value = rules["oneOf"] { result.append(.oneOf(try list(value, rule: "oneOf", as: URL.self))) }
        if let value = rules["pattern"] {
            let textRule = ValidationRule<String>.pattern(try pattern(value))
            result.append(
                ValidationRule<URL>(name: textRule.name, configurationProblem: textRule.configurationProblem) { url in
                    textRule.evaluate(url.absoluteString)
                })
        }
        return result
    }

    /// `nonEmpty` and `length` (the number of elements) for arrays.
    func arrayRules<A: Collection & Sendable>(_ type: A.Type) throws(ManifestError) -> [ValidationRule<A>] {
        var result: [ValidationRule<A>] = []
        if let value = rules["nonEmpty"], try flag(value, rule: "nonEmpty") { result.append(.nonEmpty) }
        if let value = rules["length"] { result.append(.count(try lengthRange(value))) }
        return result
    }

    private func convert<T: ConfigValueConvertible>(_ value: ConfigValue, rule: String, as type: T.Type) throws(ManifestError)
        -> T
    {
        do throws(ConversionError) {
            return try T(configValue: value)
        } catch {
            throw fail("the rule \"\(rule)\" needs \(T.configTypeName) values: \(error.reason)")
        }
    }

    private func pair<T: Comparable & ConfigValueConvertible>(_ value: ConfigValue, rule: String, as type: T.Type)
        throws(ManifestError) -> (T, T)
    {
        guard case .array(let items) = value, items.count == 2 else {
            throw fail("the rule \"\(rule)\" takes two bounds, lowest first, such as [0, 10]")
        }
        let lower = try convert(items[0], rule: rule, as: T.self)
        let upper = try convert(items[1], rule: rule, as: T.self)
        guard lower <= upper else { throw fail("the rule \"\(rule)\" has its lowest bound \(lower) above its highest \(upper)") }
        return (lower, upper)
    }

    private func list<T: ConfigValueConvertible>(_ value: ConfigValue, rule: String, as type: T.Type) throws(ManifestError) -> [T]
    {
        guard case .array(let items) = value, !items.isEmpty else {
            throw fail("the rule \"\(rule)\" takes a non-empty array of the allowed values")
        }
        var result: [T] = []
        for item in items { result.append(try convert(item, rule: rule, as: T.self)) }
        return result
    }

    private func flag(_ value: ConfigValue, rule: String) throws(ManifestError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("the rule \"\(rule)\" takes true or false") }
        return flag
    }

    private func lengthRange(_ value: ConfigValue) throws(ManifestError) -> ClosedRange<Int> {
        let (lower, upper) = try pair(value, rule: "length", as: Int.self)
        guard lower >= 0 else { throw fail("the rule \"length\" cannot have a negative bound") }
        return lower...upper
    }

    private func pattern(_ value: ConfigValue) throws(ManifestError) -> String {
        guard case .string(let text) = value else {
            throw fail("the rule \"pattern\" takes a regular expression as a string, matched against the whole value")
        }
        return text
    }
}
