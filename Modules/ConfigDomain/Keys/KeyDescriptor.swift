import Foundation

/// A type-erased description of a registered key: what override sources, registries and tools see.
public struct KeyDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// The key's name, for example `new_checkout`.
    public var name: String
    /// The Swift type's name, for example `Bool`.
    public var typeName: String
    /// The default rendered as a value, when the type can render.
    public var defaultValue: ConfigValue?
    /// The names of the key's rules, in order.
    public var ruleNames: [String]
    /// Whether values are redacted in messages.
    public var isSecret: Bool
    /// The key's one-line description.
    public var summary: String?

    /// Creates a descriptor.
    public init(
        name: String, typeName: String, defaultValue: ConfigValue?, ruleNames: [String] = [], isSecret: Bool = false,
        summary: String? = nil
    ) {
        self.name = name
        self.typeName = typeName
        self.defaultValue = defaultValue
        self.ruleNames = ruleNames
        self.isSecret = isSecret
        self.summary = summary
    }

    /// `name: Type = default`.
    public var description: String {
        let def = isSecret ? Rejection.redacted : (defaultValue?.jsonText() ?? "<not renderable>")
        return "\(name): \(typeName) = \(def)"
    }
}
