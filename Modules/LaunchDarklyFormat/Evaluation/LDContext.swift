import ConfigDomain
import Foundation

/// LaunchDarkly's evaluation context, made from the library's ``EvaluationContext`` (the mapping is in
/// `FORMAT.md`, "Contexts"): one context of a kind, or several of different kinds (a multi-context).
struct LDContext {
    /// The individual contexts (one for a single-kind context), sorted by kind; empty when invalid.
    let individuals: [LDIndividualContext]
    /// Why the context is invalid (LaunchDarkly's `USER_NOT_SPECIFIED`), or nil.
    let error: String?
    /// Whether it is invalid because a key is missing or empty (OpenFeature's `TARGETING_KEY_MISSING`).
    let isMissingKey: Bool

    /// The attribute whose value `multi` makes the attributes a multi-context.
    static let kindAttribute = "kind"

    init(_ context: EvaluationContext) {
        let attributes = context.attributes
        if case .string(let kind)? = attributes.exactMember(Self.kindAttribute), kind.isExactly("multi") {
            var individuals: [LDIndividualContext] = []
            for (kind, value) in attributes where !kind.isExactly(Self.kindAttribute) {
                guard case .object(let members) = value else { continue }
                var targetingKey: String?
                if case .string(let text)? = members.exactMember(EvaluationContext.targetingKeyAttribute) { targetingKey = text }
                individuals.append(LDIndividualContext(kind: kind, key: Self.key(targetingKey, members), attributes: members))
            }
            self.init(individuals)
            return
        }
        var kind = "user"
        if case .string(let stated)? = attributes.exactMember(Self.kindAttribute) { kind = stated }
        self.init([LDIndividualContext(kind: kind, key: Self.key(context.targetingKey, attributes), attributes: attributes)])
    }

    /// Validates the individual contexts as LaunchDarkly's `Context` does.
    private init(_ contexts: [LDIndividualContext]) {
        if contexts.isEmpty {
            (individuals, error, isMissingKey) = ([], "multi-context must contain at least one kind", false)
            return
        }
        var errors: [String] = []
        var missingKey = false
        for context in contexts {
            if let problem = Self.kindProblem(context.kind) {
                errors.append(problem)
            } else if context.key.isEmpty {
                errors.append("context key must not be None or empty")
                missingKey = true
            }
        }
        if errors.isEmpty {
            individuals = contexts.count < 2 ? contexts : contexts.sorted { $0.kind.utf8.lexicographicallyPrecedes($1.kind.utf8) }
            (error, isMissingKey) = (nil, false)
        } else {
            (individuals, error) = ([], errors.joined(separator: ", "))
            isMissingKey = missingKey && errors.allSatisfy { $0.hasPrefix("context key") }
        }
    }

    /// The key: `targetingKey` when it is a non-empty string, else the `key` attribute when it is a string, else empty.
    private static func key(_ targetingKey: String?, _ attributes: [String: ConfigValue]) -> String {
        if let targetingKey, !targetingKey.isEmpty { return targetingKey }
        if case .string(let key)? = attributes.exactMember("key") { return key }
        return ""
    }

    /// Why `kind` is not a valid context kind, or nil.
    private static func kindProblem(_ kind: String) -> String? {
        if kind.isEmpty { return "context kind must not be empty" }
        if kind.isExactly("kind") { return "\"kind\" is not a valid context kind" }
        if kind.isExactly("multi") { return "context of kind \"multi\" must be created with create_multi or multi_builder" }
        let allowed = kind.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        }
        return allowed ? nil : "context kind contains disallowed characters"
    }

    /// The individual context of `kind`, if the context has one.
    func individual(kind: String) -> LDIndividualContext? {
        individuals.first { $0.kind.isExactly(kind) }
    }
}

/// One individual context: a kind, a key, and attributes.
struct LDIndividualContext {
    let kind: String
    let key: String
    /// The members it was made from: its custom attributes, `name` and `anonymous`, and members it ignores.
    let attributes: [String: ConfigValue]

    /// Members that are never custom attributes: the key's sources, the kind, and what carries no attribute.
    static let reserved: Set<String> = ["key", "kind", "name", "anonymous", "targetingKey", "privateAttributes", "_meta", ""]

    /// The attribute `name` as LaunchDarkly's `Context.get` answers: `key`, `kind`, `name` (a string, else
    /// none), `anonymous` (always a Boolean), else a custom attribute (`null` is none).
    func value(named name: String) -> ConfigValue? {
        switch name {
        case "key": return .string(key)
        case "kind": return .string(kind)
        case "name":
            if case .string(let text)? = attributes.exactMember("name") { return .string(text) }
            return nil
        case "anonymous":
            if case .bool(let flag)? = attributes.exactMember("anonymous") { return .bool(flag) }
            return .bool(false)
        default:
            guard !Self.reserved.contains(where: { $0.isExactly(name) }), let value = attributes.exactMember(name),
                !value.isNull
            else { return nil }
            return value
        }
    }
}
