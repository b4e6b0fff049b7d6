import Foundation

/// A key set that was not accepted, or a key ring's file that could not be used.
///
/// A refused key set changes nothing: the key set trusted before stays trusted.
public struct KeySetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The document does not read as a key set (not JSON, a missing field, a key or signature that is not base64).
        case malformed
        /// The key set reads but breaks a rule: no keys, a threshold outside 1…keys, one key under two ids.
        case invalid
        /// Its version is not above the version trusted now (`current`): an old key set replayed, or
        /// the publisher's version went backwards.
        case notNewer(version: UInt64, current: UInt64)
        /// Fewer distinct keys of the key set trusted now signed it than that set's threshold.
        case tooFewTrustedSignatures(valid: Int, threshold: Int)
        /// Fewer distinct keys of its own signed it than its own threshold.
        case tooFewOwnSignatures(valid: Int, threshold: Int)
        /// The file a ``KeyRing`` keeps its accepted key sets in could not be read or written.
        case storage
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened and what to do, for a person.
    public var message: String

    /// Creates the error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `key set: <message>`.
    public var description: String { "key set: \(message)" }
}
