import ConfigDomain
import Foundation

/// A remote value that cannot be read as the type a `ConfigReader` asked for.
///
/// The message names the key, the type asked for and what the value holds; for a secret value it
/// shows only the value's kind, never the value.
public struct ProviderValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key as the reader asked for it, for example `http.timeout`.
    public var key: String
    /// The type asked for, for example `int` or `stringArray`.
    public var requestedType: String
    /// Why the value does not read as that type.
    public var reason: String

    /// Creates the error.
    public init(key: String, requestedType: String, reason: String) {
        self.key = key
        self.requestedType = requestedType
        self.reason = reason
    }

    /// `remote value "retries" cannot be read as bool: …; read it as the type the configuration holds, or fix the value`.
    public var description: String {
        "remote value \"\(key)\" cannot be read as \(requestedType): \(reason); "
            + "read it as the type the configuration holds, or fix the value"
    }
}
