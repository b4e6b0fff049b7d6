import Foundation

/// A detached signature of one payload: the key that signed it, the configuration and version it was signed for, and the signature bytes.
///
/// It travels apart from the payload, as one line of text (``text``), in an HTTP header or a
/// sidecar file:
///
/// ```
/// keyid=prod-2026, config=default, version=1767225600000, sig=3q2+7w…==
/// ```
///
/// What is signed is ``signedMessage(payload:configurationName:version:)``: a fixed prefix, the
/// configuration's name, the version, then the payload bytes exactly as served (never re-encoded).
/// So the signature vouches for every payload byte, for the configuration the payload belongs to
/// (a client refuses it for any other), and for the version, which a client compares with the last
/// version it accepted to refuse an old payload replayed (see the article "Signed configurations").
public struct PayloadSignature: Sendable, Hashable {
    /// Names the public key that checks the signature, so several keys can be trusted at once (rotation).
    public var keyID: String
    /// The configuration the payload was signed for: the name a client keeps it under
    /// (`cache(_:name:)`, `default` unless set, or the provider's name).
    public var configurationName: String
    /// The publisher's version of the payload: it must grow with every new payload. The tools use
    /// the signing time in milliseconds since 1970 unless told otherwise.
    public var version: UInt64
    /// The signature bytes (64 for Ed25519).
    public var signature: Data

    /// Creates a signature from its parts.
    public init(keyID: String, configurationName: String, version: UInt64, signature: Data) {
        self.keyID = keyID
        self.configurationName = configurationName
        self.version = version
        self.signature = signature
    }

    /// The bytes that start every signed message: `remote-config signature v2` and a NUL. (The v1
    /// layout, which named no configuration, is not accepted: it could not tell configurations apart.)
    public static let messagePrefix = Data("remote-config signature v2\u{0}".utf8)

    /// The exact bytes a signer signs and a verifier checks: ``messagePrefix``; the length of the
    /// configuration name's UTF-8 bytes as 8 big-endian bytes, then those bytes; `version` as 8
    /// big-endian bytes; then `payload` unchanged.
    public static func signedMessage(payload: Data, configurationName: String, version: UInt64) -> Data {
        let name = Data(configurationName.utf8)
        var message = messagePrefix
        message.reserveCapacity(messagePrefix.count + 16 + name.count + payload.count)
        appendBigEndian(UInt64(name.count), to: &message)
        message.append(name)
        appendBigEndian(version, to: &message)
        message.append(payload)
        return message
    }

    /// Appends `number` as 8 big-endian bytes.
    private static func appendBigEndian(_ number: UInt64, to message: inout Data) {
        withUnsafeBytes(of: number.bigEndian) { message.append(contentsOf: $0) }
    }
}
