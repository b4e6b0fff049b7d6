import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import Testing

/// OpenFeature's typed evaluation details over a payload: what an SDK client answers for a flag of
/// a type, from ``DecodedPayload/evaluate(_:in:)`` and the library's conversion rules.
///
/// - No value (a missing flag, a disabled flag, no default variant, an error): the caller's default,
///   with the evaluation's reason and error code.
/// - A value that does not convert to the type: the caller's default, reason `ERROR`, `TYPE_MISMATCH`.
/// - Otherwise the value, the variant and the reason.
struct TypedDetails {
    /// The types OpenFeature's typed methods read.
    enum FlagType: String {
        case boolean = "Boolean", string = "String", integer = "Integer", float = "Float", object = "Object"

        /// Whether `value` converts to this type by the library's rules (`ConfigValueConvertible`):
        /// `Bool` only `true`/`false`, `Int` integers (and integral doubles), `Double` numbers, `String`
        /// strings; an object is an object or an array.
        func converts(_ value: ConfigValue) -> Bool {
            switch self {
            case .boolean: (try? Bool(configValue: value)) != nil
            case .string: (try? String(configValue: value)) != nil
            case .integer: (try? Int(configValue: value)) != nil
            case .float: (try? Double(configValue: value)) != nil
            case .object: value.objectValue != nil || value.arrayValue != nil
            }
        }
    }

    var key: String
    var value: ConfigValue
    var variant: String?
    var reason: String
    var errorCode: String?
    var metadata: [String: ConfigValue]

    /// The details a client answers: `RemoteConfigClient.details(_:for:)` for a key of `type` with
    /// the default `fallback`, the value as JSON.
    init(_ client: RemoteConfigClient, key: String, type: FlagType, default fallback: ConfigValue, context: EvaluationContext) {
        func from<Value>(_ details: EvaluationDetails<Value>, _ json: (Value) -> ConfigValue) -> TypedDetails {
            TypedDetails(
                key: details.key, value: json(details.value), variant: details.variant, reason: details.reason.rawValue,
                errorCode: details.errorCode?.rawValue, metadata: details.flagMetadata)
        }
        switch type {
        case .boolean:
            self = from(client.details(ConfigKey(key, default: fallback.boolValue ?? false), for: context)) { .bool($0) }
        case .string:
            self = from(client.details(ConfigKey(key, default: fallback.stringValue ?? ""), for: context)) { .string($0) }
        case .integer:
            let key = ConfigKey(key, default: Int((try? Int(configValue: fallback)) ?? 0))
            self = from(client.details(key, for: context)) { .int(Int64($0)) }
        case .float:
            self = from(client.details(ConfigKey(key, default: (try? Double(configValue: fallback)) ?? 0), for: context)) {
                .double($0)
            }
        case .object:
            self = from(client.details(Self.objectKey(key, default: fallback), for: context)) { $0 }
        }
    }

    /// A key whose value is a JSON object or array, as OpenFeature's object type reads it.
    static func objectKey(_ name: String, default fallback: ConfigValue) -> ConfigKey<ConfigValue> {
        let converter = ValueConverter<ConfigValue>(
            typeName: "Object",
            fromValue: { value throws(ConversionError) in
                guard value.objectValue != nil || value.arrayValue != nil else {
                    throw ConversionError(expected: "Object", value: value)
                }
                return value
            },
            fromText: { text throws(ConversionError) in
                throw ConversionError(expectedType: "Object", found: text, reason: "objects are not read from text here")
            },
            toValue: { $0 })
        return ConfigKey(name: name, default: fallback, converter: converter)
    }

    private init(
        key: String, value: ConfigValue, variant: String?, reason: String, errorCode: String?, metadata: [String: ConfigValue]
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.metadata = metadata
    }

    init(_ payload: DecodedPayload, key: String, type: FlagType, default fallback: ConfigValue, context: EvaluationContext) {
        let evaluation = payload.evaluate(key, in: context)
        self.key = key
        metadata = payload.flagMetadata[key] ?? [:]
        guard let served = evaluation.value else {
            value = fallback
            variant = evaluation.variant
            reason = evaluation.reason.rawValue
            errorCode = evaluation.errorCode?.rawValue
            return
        }
        guard type.converts(served) else {
            value = fallback
            variant = nil
            reason = EvaluationReason.error.rawValue
            errorCode = EvaluationErrorCode.typeMismatch.rawValue
            return
        }
        value = served
        variant = evaluation.variant
        reason = evaluation.reason.rawValue
        errorCode = nil
    }
}

/// Runs the steps of one OpenFeature Gherkin case against a payload, or a client holding it. A step it does not know fails the case.
struct ConformanceRunner {
    /// What evaluates: the decoded payload itself, or a client (`RemoteConfigClient.details(_:for:)`).
    enum Evaluator: Sendable {
        case payload(DecodedPayload)
        /// A client that holds the payload (for "a stable provider"), and others by the provider status a
        /// case names ("not ready", "error", "stale"), each in that state.
        case client(stable: RemoteConfigClient, others: [String: RemoteConfigClient])
    }

    var evaluator: Evaluator
    /// The status of the provider the case asked for: `a <status> provider`.
    var provider = "stable"
    var type = TypedDetails.FlagType.string
    var key = ""
    var fallback = ConfigValue.null
    var attributes: [String: ConfigValue] = [:]
    var details: TypedDetails?

    init(_ evaluator: Evaluator) {
        self.evaluator = evaluator
    }

    /// Runs one step: sets up, evaluates, or checks.
    mutating func run(_ step: Gherkin.Step) async throws {
        let text = step.text
        let quoted = Self.quoted(text)
        if text == "a stable provider" { return }
        if case .client(let stable, let others) = evaluator {
            if text.hasPrefix("a "), text.hasSuffix(" provider") {
                provider = String(text.dropFirst(2).dropLast(" provider".count))
                _ = try #require(others[provider], "no client is \(provider)")
                return
            }
            if text.hasPrefix("the provider status should be "), quoted.count == 1 {
                let client = others[provider] ?? stable
                #expect(client.status.state.description == quoted[0], "\(client.status.providers.map(\.stateReason))")
                return
            }
        }

        // MARK: evaluation_v2.feature
        if let type = Self.flagType(prefix: text), text.contains("-flag with key"), quoted.count == 2 {
            self.type = type
            key = quoted[0]
            fallback = try Self.value(quoted[1], as: type)
            return
        }
        if text.hasPrefix("a context containing a key "), text.hasSuffix(" with null value"), quoted.count == 1 {
            attributes[quoted[0]] = .null
            return
        }
        if text.hasPrefix("a context containing a key "), quoted.count == 3 {
            let type = try #require(TypedDetails.FlagType(rawValue: quoted[1]), "an unknown type: \(quoted[1])")
            attributes[quoted[0]] = try Self.value(quoted[2], as: type)
            return
        }
        if text == "the flag was evaluated with details" {
            details = evaluate()
            return
        }
        if text == "the flag was evaluated with details asynchronously" {
            let runner = self
            details = await Task.detached { runner.evaluate() }.value
            return
        }
        if text == "the evaluation should complete without blocking" {
            // The evaluation above finished in a detached task: it does no I/O and takes no lock.
            #expect(details != nil)
            return
        }
        if text.hasPrefix("the resolved details value should be "), quoted.count == 1 {
            try expectValue(quoted[0])
            return
        }
        if text.hasPrefix("the reason should be "), quoted.count == 1 {
            #expect(try current().reason == quoted[0])
            return
        }
        if text.hasPrefix("the error-code should be "), quoted.count == 1 {
            #expect(try current().errorCode == quoted[0])
            return
        }
        if text.hasPrefix("the flag key should be "), quoted.count == 1 {
            #expect(try current().key == quoted[0])
            return
        }
        if text.hasPrefix("the variant should be "), quoted.count == 1 {
            #expect(try current().variant == quoted[0])
            return
        }
        if text == "the resolved metadata should contain" {
            let metadata = try current().metadata
            for row in step.table.dropFirst() where row.count == 3 {
                let type = try #require(TypedDetails.FlagType(rawValue: row[1]))
                #expect(metadata[row[0]] == (try Self.value(row[2], as: type)), "metadata \(row[0])")
            }
            return
        }

        // MARK: evaluation.feature (deprecated)
        if let type = Self.legacyEvaluation(text), let flag = quoted.first {
            // With or without "with details": both evaluate the details, and the steps after check what they name.
            self.type = type
            key = flag
            fallback = text.hasSuffix("a null default value") ? .null : try Self.value(Self.lastArgument(text), as: type)
            details = evaluate()
            return
        }
        if text.hasPrefix("the resolved "), text.contains(" value should be contain fields ") {
            // "… contain fields "showImages", "title", and "imagesPerPage", with values "true", "Check out these pics!" and 100, respectively"
            let value = try current().value
            let names = Array(quoted.prefix(3))
            let expected: [ConfigValue] = [.bool(quoted[3] == "true"), .string(quoted[4]), .int(100)]
            for (name, want) in zip(names, expected) { #expect(value[name] == want, "field \(name)") }
            #expect(text.hasSuffix(" and 100, respectively"))
            return
        }
        if text.hasPrefix("the resolved "), text.contains(" details value should be "), quoted.count >= 2 {
            let parts = text.components(separatedBy: ", the variant should be ")
            try expectValue(Self.unquote(parts[0].components(separatedBy: " details value should be ").last ?? ""))
            #expect(try current().variant == quoted[quoted.count - 2])
            #expect(try current().reason == quoted[quoted.count - 1])
            return
        }
        if text.hasPrefix("the resolved "), text.contains(" value should be ") {
            try expectValue(Self.unquote(text.components(separatedBy: " value should be ").last ?? ""))
            return
        }
        if text.hasPrefix("the variant should be "), quoted.count == 2 {
            #expect(try current().variant == quoted[0])
            #expect(try current().reason == quoted[1])
            return
        }
        if text.hasPrefix("context contains keys ") {
            // context contains keys "fn", "ln", "age", "customer" with values "Sulisław", "Świętopełk", 29, "false"
            let values = text.components(separatedBy: " with values ").last ?? ""
            let items = values.components(separatedBy: ", ")
            let names = quoted.prefix(4)
            for (name, item) in zip(names, items) {
                if item == "\"false\"" || item == "\"true\"" {
                    attributes[name] = .bool(item == "\"true\"")
                } else if let number = Int64(item) {
                    attributes[name] = .int(number)
                } else {
                    attributes[name] = .string(Self.unquote(item))
                }
            }
            return
        }
        if text.hasPrefix("a flag with key "), text.contains(" is evaluated with default value "), quoted.count == 2 {
            type = .string
            key = quoted[0]
            fallback = .string(quoted[1])
            details = evaluate()
            return
        }
        if text.hasPrefix("the resolved string response should be "), quoted.count == 1 {
            #expect(try current().value == .string(quoted[0]))
            return
        }
        if text.hasPrefix("the resolved flag value is "), text.hasSuffix(" when the context is empty"), quoted.count == 1 {
            #expect(evaluate(in: .empty).value == .string(quoted[0]))
            return
        }
        if text.hasPrefix("a non-existent string flag with key "), quoted.count == 2 {
            type = .string
            key = quoted[0]
            fallback = .string(quoted[1])
            details = evaluate()
            return
        }
        if text.hasPrefix("a string flag with key "),
            text.contains(" is evaluated as an integer, with details and a fallback value ")
        {
            type = .integer
            key = quoted[0]
            fallback = try Self.value(Self.lastArgument(text), as: .integer)
            details = evaluate()
            return
        }
        if text == "the default string value should be returned" || text == "the default integer value should be returned" {
            #expect(try current().value == fallback)
            return
        }
        if text.hasPrefix("the reason should indicate an error and the error code should indicate "), quoted.count == 1 {
            #expect(try current().reason == "ERROR")
            #expect(try current().errorCode == quoted[0])
            return
        }
        Issue.record("a step this runner does not know: \(text)")
    }

    // MARK: Helpers

    private func evaluate(in context: EvaluationContext? = nil) -> TypedDetails {
        let context = context ?? EvaluationContext(attributes: attributes)
        switch evaluator {
        case .payload(let payload):
            return TypedDetails(payload, key: key, type: type, default: fallback, context: context)
        case .client(let stable, let others):
            return TypedDetails(others[provider] ?? stable, key: key, type: type, default: fallback, context: context)
        }
    }

    private func current() throws -> TypedDetails {
        try #require(details, "a check before any evaluation")
    }

    /// Checks the resolved value against `text`, read as the case's type.
    private func expectValue(_ text: String) throws {
        let expected = try Self.value(text, as: type)
        let got = try current().value
        switch type {
        case .float:
            let number = try #require(try? Double(configValue: got), "not a number: \(got)")
            #expect(number == (try Double(configValue: expected)))
        case .integer:
            #expect((try? Int(configValue: got)) == (try Int(configValue: expected)))
        default:
            #expect(got == expected)
        }
    }

    /// The type a `Boolean-flag …` step or a legacy `a boolean flag …` step names.
    private static func flagType(prefix text: String) -> TypedDetails.FlagType? {
        for type in [TypedDetails.FlagType.boolean, .string, .integer, .float, .object]
        where text.hasPrefix("a \(type.rawValue)-flag") {
            return type
        }
        return nil
    }

    /// The type a deprecated-suite evaluation step names (`a boolean flag with key "…" is evaluated with …`).
    private static func legacyEvaluation(_ text: String) -> TypedDetails.FlagType? {
        let types: [(String, TypedDetails.FlagType)] = [
            ("a boolean flag", .boolean), ("a string flag", .string), ("an integer flag", .integer), ("a float flag", .float),
            ("an object flag", .object),
        ]
        for (prefix, type) in types where text.hasPrefix(prefix + " with key ") && text.contains(" is evaluated with ") {
            return type
        }
        return nil
    }

    /// The last word of a step, quoted or not (`… default value 13`, `… default value "false"`).
    private static func lastArgument(_ text: String) -> String {
        unquote(String(text.split(separator: " ").last ?? ""))
    }

    /// `"x"` as `x`; anything else as it is.
    private static func unquote(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }

    /// The double-quoted arguments of a step, with `\"` read as a quote.
    static func quoted(_ text: String) -> [String] {
        var found: [String] = []
        var current: String?
        var escaped = false
        for character in text {
            if var open = current {
                if escaped {
                    open.append(character == "\"" ? "\"" : character)
                    escaped = false
                    current = open
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    found.append(open)
                    current = nil
                } else {
                    open.append(character)
                    current = open
                }
            } else if character == "\"" {
                current = ""
            }
        }
        return found
    }

    /// `text` as a value of `type`: `true`, `10`, `0.5`, text, or JSON for an object (`\"` read as a quote).
    static func value(_ text: String, as type: TypedDetails.FlagType) throws -> ConfigValue {
        switch type {
        case .boolean:
            guard text == "true" || text == "false" else { throw ConformanceFailure(description: "not a Boolean: \(text)") }
            return .bool(text == "true")
        case .string:
            return .string(text)
        case .integer:
            return .int(try #require(Int64(text), "not an integer: \(text)"))
        case .float:
            return .double(try #require(Double(text), "not a number: \(text)"))
        case .object:
            return try JSONParser().parse(Data(text.replacingOccurrences(of: "\\\"", with: "\"").utf8))
        }
    }
}

/// A step argument that does not read as its type.
struct ConformanceFailure: Error, CustomStringConvertible {
    var description: String
}
