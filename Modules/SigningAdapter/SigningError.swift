import Foundation

/// The crypto library failed to sign (never expected with a valid key).
public struct SigningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public var message: String

    /// Creates the error.
    public init(message: String) { self.message = message }

    /// `signing failed: <message>`.
    public var description: String { "signing failed: \(message)" }
}
