import Foundation

/// Who is asking: the targeting key (a user or device id) and attributes that rules read.
///
/// ```swift
/// let context = EvaluationContext(targetingKey: "u1", attributes: ["country": "DE", "age": 31, "beta": true])
/// ```
///
/// Attributes are ``ConfigValue``s: strings, numbers, Booleans, arrays and objects (a version is
/// a string such as `"2.10.1"`, compared with the version operators). Rules address nested
/// members with dot paths (`address.country`). The targeting key is readable as the attribute
/// ``targetingKeyAttribute`` when the attributes have no member of that name.
public struct EvaluationContext: Sendable, Hashable {
    /// The attribute name under which rules read the targeting key: `targetingKey`.
    public static let targetingKeyAttribute = "targetingKey"
    /// A context with no targeting key and no attributes.
    public static let empty = EvaluationContext()

    /// The user or device id that rollouts bucket on by default; nil when nobody is signed in.
    public var targetingKey: String?
    /// The attributes by name.
    public var attributes: [String: ConfigValue]

    /// Creates a context.
    public init(targetingKey: String? = nil, attributes: [String: ConfigValue] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// The value at a dot path (`country`, `address.city`), or nil when a step is missing or not an object.
    public func value(at path: String) -> ConfigValue? {
        guard path.contains(".") else { return attribute(named: path) }
        return value(at: path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// The value at a path already split into its steps.
    public func value(at steps: [String]) -> ConfigValue? {
        guard let first = steps.first, var current = attribute(named: first) else { return nil }
        for step in steps.dropFirst() {
            guard case .object(let members) = current, let next = members[step] else { return nil }
            current = next
        }
        return current
    }

    /// The top-level attribute `name`, dots and all, falling back to the targeting key for ``targetingKeyAttribute``.
    public func attribute(named name: String) -> ConfigValue? {
        if let value = attributes[name] { return value }
        if name == Self.targetingKeyAttribute, let targetingKey { return .string(targetingKey) }
        return nil
    }

    /// The attributes as one JSON object, with the targeting key under ``targetingKeyAttribute`` unless an attribute has that name.
    public var attributeObject: ConfigValue {
        var members = attributes
        if let targetingKey, members[Self.targetingKeyAttribute] == nil {
            members[Self.targetingKeyAttribute] = .string(targetingKey)
        }
        return .object(members)
    }
}
