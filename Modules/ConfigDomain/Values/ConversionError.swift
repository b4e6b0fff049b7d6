import Foundation

/// A configuration value that cannot become the Swift type a key asks for.
public struct ConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Swift type the key expects, for example `Bool` or `[Int]`.
    public var expectedType: String
    /// What was found, rendered for a person (JSON text or the raw text of an override).
    public var found: String
    /// Why the value does not convert.
    public var reason: String

    /// Creates a conversion error.
    public init(expectedType: String, found: String, reason: String) {
        self.expectedType = expectedType
        self.found = found
        self.reason = reason
    }

    /// Creates a conversion error for a value of the wrong kind.
    public init(expected type: String, value: ConfigValue) {
        self.init(
            expectedType: type, found: value.jsonText(),
            reason: "expected \(type), found a JSON \(value.kind)")
    }

    /// A sentence a person can act on.
    public var description: String {
        "cannot read \(found) as \(expectedType): \(reason)"
    }
}
