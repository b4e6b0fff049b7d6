import Foundation

/// A payload the client's `PayloadVerifier` refused, before it was parsed.
///
/// Never retryable as such: fetching the same bytes again gives the same answer. The last good
/// configuration stays, and a later refresh that brings a correctly signed payload succeeds.
public struct SignatureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the signature is refused.
    public enum Kind: Sendable, Hashable {
        /// Signatures are required and the payload came without one.
        case missing
        /// The signature text does not read as `keyid=…, config=…, version=…, sig=…`.
        case malformed
        /// The signature names a key id the client does not trust.
        case unknownKey(String)
        /// The signature does not match the payload under the named key: the payload or the
        /// signature was altered, or another key signed it.
        case mismatch(keyID: String)
        /// The signed version is not newer than the version the client already accepted: an old
        /// payload was replayed, or the publisher's version went backwards.
        case replayed(version: UInt64, lastAccepted: UInt64)
        /// A trusted key signed the payload for another configuration: one configuration's payload
        /// was served or cached as another's.
        case wrongConfiguration(signedFor: String, expected: String)
        /// Fewer distinct trusted keys signed the payload than the client's key set requires
        /// (its threshold, in a k-of-n key set): `valid` signatures counted, `threshold` needed.
        case tooFewSignatures(valid: Int, threshold: Int)
    }

    /// Why the signature is refused.
    public var kind: Kind
    /// What happened and what to do, for a person.
    public var message: String

    /// Creates a signature error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `signature refused: <message>`.
    public var description: String { "signature refused: \(message)" }
}
