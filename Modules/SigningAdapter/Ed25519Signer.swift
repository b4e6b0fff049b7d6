import ConfigDomain
import Crypto
import Foundation

/// Signs payloads with an Ed25519 private key, for a publishing step or a server.
///
/// ```swift
/// let signer = try Ed25519Signer(keyID: "prod-2026", base64PrivateKey: secretFromTheVault)
/// let signature = try signer.sign(
///     payloadBytes, configurationName: "default", version: 1_767_225_600_000, expiresAt: Date().addingTimeInterval(7 * 86_400))
/// response.headers["X-Config-Signature"] = signature.text
/// ```
///
/// Encoding: the private key is the 32-byte seed of RFC 8032, in standard base64 (44 characters).
/// Keep it out of apps: apps hold only ``publicKey``.
public struct Ed25519Signer: Sendable {
    /// The key id every signature names.
    public let keyID: String
    /// The public key that verifies this signer's signatures, under the same key id.
    public let publicKey: Ed25519PublicKey
    /// The 32-byte seed (kept as bytes, so the signer is a plain `Sendable` value on every platform).
    private let seed: Data

    /// The length of a raw Ed25519 private key (its seed).
    public static let byteCount = 32

    /// Creates a signer from the 32-byte private key.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the key id cannot name a key or
    ///   the bytes are not an Ed25519 private key.
    public init(keyID: String, privateKey: Data) throws(ConfigurationError) {
        guard PayloadSignature.isValidKeyID(keyID) else { throw KeyEncoding.invalidKeyID(keyID) }
        guard privateKey.count == Self.byteCount, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: privateKey)
        else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "the private key for \"\(keyID)\" has \(privateKey.count) bytes; an Ed25519 private key has exactly "
                    + "\(Self.byteCount) (use the key file `remote-config keygen` wrote)")
        }
        self.keyID = keyID
        self.publicKey = try Ed25519PublicKey(keyID: keyID, rawRepresentation: key.publicKey.rawRepresentation)
        self.seed = privateKey
    }

    /// Creates a signer from the private key in standard base64 (44 characters).
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the text is not base64 of 32 bytes.
    public init(keyID: String, base64PrivateKey: String) throws(ConfigurationError) {
        try self.init(keyID: keyID, privateKey: KeyEncoding.decode(base64PrivateKey, what: "private key for \"\(keyID)\""))
    }

    /// A signer with a new random key.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the key id cannot name a key.
    public static func generate(keyID: String) throws(ConfigurationError) -> Ed25519Signer {
        try Ed25519Signer(keyID: keyID, privateKey: Curve25519.Signing.PrivateKey().rawRepresentation)
    }

    /// The private key in standard base64: write it only to a file only the publisher can read.
    public var base64PrivateKey: String { seed.base64EncodedString() }

    /// Signs the signed message of exactly `payload`, for `configurationName`, at `version`, until `expiresAt`.
    ///
    /// - Parameters:
    ///   - configurationName: the name the app's client keeps this configuration under
    ///     (`cache(_:name:)`, `default` unless set, or a provider's name): a client refuses the
    ///     payload under any other name.
    ///   - version: must grow with each new payload: clients refuse a version that is not newer
    ///     than the one they hold. The signing time in milliseconds since 1970 is a good choice.
    ///   - expiresAt: when clients stop counting the payload as current (rounded down to a whole
    ///     second), so that a server or CDN that keeps serving it cannot keep apps on it for ever;
    ///     nil for never. Sign a new payload before it passes.
    /// - Throws: ``SigningError`` when the crypto library fails (it does not for a valid key).
    public func sign(
        _ payload: Data, configurationName: String, version: UInt64, expiresAt: Date? = nil
    ) throws(SigningError) -> PayloadSignature {
        let expiry = expiresAt.map { Date(timeIntervalSince1970: Double(PayloadSignature.seconds(of: $0))) }
        let message = PayloadSignature.signedMessage(
            payload: payload, configurationName: configurationName, version: version, expiresAt: expiry)
        return PayloadSignature(
            keyID: keyID, configurationName: configurationName, version: version, expiresAt: expiry,
            signature: try signature(for: message))
    }

    /// The Ed25519 signature of `message`.
    func signature(for message: Data) throws(SigningError) -> Data {
        do {
            return try Curve25519.Signing.PrivateKey(rawRepresentation: seed).signature(for: message)
        } catch {
            throw SigningError(message: "Ed25519 signing with the key \"\(keyID)\" failed in the crypto library: \(error)")
        }
    }
}
