import Foundation

/// A mistake in how the client was set up, reported by the builder at build time, never at read time.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake.
    public enum Kind: String, Sendable, Hashable {
        /// A TTL, stale window or skew tolerance out of range.
        case invalidFreshness
        /// An interval or backoff setting out of range.
        case invalidSchedule
        /// The same key name registered twice with a different type, default or rules.
        case conflictingKey
        /// A rule that cannot work, such as an invalid regular expression.
        case invalidRule
        /// A required part was not given (for example no fetcher).
        case missingComponent
        /// An adapter's own settings are invalid (for example a plain-HTTP URL).
        case invalidAdapterSetting
        /// Two remote providers with the same name or the same precedence.
        case conflictingProvider
        /// A push source aimed at a provider that no fetcher was added under.
        case unknownProvider
    }

    /// What kind of mistake.
    public var kind: Kind
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates a configuration error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `configuration error (invalidFreshness): ttl must be …`.
    public var description: String { "configuration error (\(kind.rawValue)): \(message)" }
}
