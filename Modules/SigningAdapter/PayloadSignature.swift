import Foundation

/// A detached signature of one payload: the key that signed it, the configuration, version and expiry it was signed for, and the signature bytes.
///
/// It travels apart from the payload, as one line of text (``text``), in an HTTP header or a
/// sidecar file:
///
/// ```
/// keyid=prod-2026, config=default, version=1767225600000, expires=2026-01-08T00:00:00Z, sig=3q2+7w…==
/// ```
///
/// Several signatures of one payload (a k-of-n key set) travel in one line too, separated by `;`
/// (``list(parsing:)``, ``text(of:)``).
///
/// What is signed is ``signedMessage(payload:configurationName:version:expiresAt:)``: a fixed prefix,
/// the configuration's name, the version, the expiry if any, then the payload bytes exactly as
/// served (never re-encoded). So the signature vouches for every payload byte, for the configuration
/// the payload belongs to (a client refuses it for any other), for the version, which a client
/// compares with the last version it accepted to refuse an old payload replayed, and for the time
/// after which a client counts the payload as expired (see the article "Signed configurations").
public struct PayloadSignature: Sendable, Hashable {
    /// Names the public key that checks the signature, so several keys can be trusted at once (rotation).
    public var keyID: String
    /// The configuration the payload was signed for: the name a client keeps it under
    /// (`cache(_:name:)`, `default` unless set, or the provider's name).
    public var configurationName: String
    /// The publisher's version of the payload: it must grow with every new payload. The tools use
    /// the signing time in milliseconds since 1970 unless told otherwise.
    public var version: UInt64
    /// When a client stops counting the payload as current (whole seconds); nil when it never does.
    public var expiresAt: Date?
    /// The signature bytes (64 for Ed25519).
    public var signature: Data

    /// Creates a signature from its parts.
    public init(keyID: String, configurationName: String, version: UInt64, expiresAt: Date? = nil, signature: Data) {
        self.keyID = keyID
        self.configurationName = configurationName
        self.version = version
        self.expiresAt = expiresAt
        self.signature = signature
    }

    /// The bytes that start every signed message without an expiry: `remote-config signature v2` and
    /// a NUL. (The v1 layout, which named no configuration, is not accepted: it could not tell
    /// configurations apart.)
    public static let messagePrefix = Data("remote-config signature v2\u{0}".utf8)

    /// The bytes that start every signed message with an expiry: `remote-config signature v3` and a NUL.
    public static let expiringMessagePrefix = Data("remote-config signature v3\u{0}".utf8)

    /// The exact bytes a signer signs and a verifier checks.
    ///
    /// Without an expiry: ``messagePrefix``; the length of the configuration name's UTF-8 bytes as 8
    /// big-endian bytes, then those bytes; `version` as 8 big-endian bytes; then `payload` unchanged.
    /// With one: ``expiringMessagePrefix``, the same name and version, then the expiry as whole
    /// seconds since 1970 in 8 big-endian bytes (an earlier time is rounded down, a later one capped),
    /// then `payload` unchanged.
    public static func signedMessage(
        payload: Data, configurationName: String, version: UInt64, expiresAt: Date? = nil
    ) -> Data {
        let name = Data(configurationName.utf8)
        var message = expiresAt == nil ? messagePrefix : expiringMessagePrefix
        message.reserveCapacity(message.count + 24 + name.count + payload.count)
        appendBigEndian(UInt64(name.count), to: &message)
        message.append(name)
        appendBigEndian(version, to: &message)
        if let expiresAt { appendBigEndian(seconds(of: expiresAt), to: &message) }
        message.append(payload)
        return message
    }

    /// `date` as whole seconds since 1970, rounded down: 0 before 1970, `UInt64.max` where it does not fit.
    static func seconds(of date: Date) -> UInt64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds > 0 else { return 0 }
        return seconds < 0x1p64 ? UInt64(seconds) : UInt64.max
    }

    /// Appends `number` as 8 big-endian bytes.
    private static func appendBigEndian(_ number: UInt64, to message: inout Data) {
        withUnsafeBytes(of: number.bigEndian) { message.append(contentsOf: $0) }
    }
}
