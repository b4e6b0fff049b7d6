import Foundation

/// A detached signature of one payload: the key that signed it, the version it was signed with, and the signature bytes.
///
/// It travels apart from the payload, as one line of text (``text``), in an HTTP header or a
/// sidecar file:
///
/// ```
/// keyid=prod-2026, version=1767225600000, sig=3q2+7w…==
/// ```
///
/// What is signed is ``signedMessage(payload:version:)``: a fixed prefix, the version, then the
/// payload bytes exactly as served (never re-encoded). So the signature vouches for every payload
/// byte and for the version, which a client compares with the last version it accepted to refuse
/// an old payload replayed (see the article "Signed configurations").
public struct PayloadSignature: Sendable, Hashable {
    /// Names the public key that checks the signature, so several keys can be trusted at once (rotation).
    public var keyID: String
    /// The publisher's version of the payload: it must grow with every new payload. The tools use
    /// the signing time in milliseconds since 1970 unless told otherwise.
    public var version: UInt64
    /// The signature bytes (64 for Ed25519).
    public var signature: Data

    /// Creates a signature from its parts.
    public init(keyID: String, version: UInt64, signature: Data) {
        self.keyID = keyID
        self.version = version
        self.signature = signature
    }

    /// The bytes that start every signed message: `remote-config signature v1` and a NUL.
    public static let messagePrefix = Data("remote-config signature v1\u{0}".utf8)

    /// The exact bytes a signer signs and a verifier checks: ``messagePrefix``, `version` as 8
    /// big-endian bytes, then `payload` unchanged.
    public static func signedMessage(payload: Data, version: UInt64) -> Data {
        var message = messagePrefix
        withUnsafeBytes(of: version.bigEndian) { message.append(contentsOf: $0) }
        message.append(payload)
        return message
    }
}
