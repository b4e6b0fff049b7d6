import ConfigDomain
import Crypto
import Foundation

/// A trusted Ed25519 public key and the key id signatures name it by.
///
/// Encoding: the 32-byte public key of RFC 8032, in standard base64 (44 characters), for example
/// what `remote-config keygen` prints, or the last 32 bytes of `openssl pkey -pubout -outform DER`.
public struct Ed25519PublicKey: Sendable, Hashable {
    /// The id a signature names to be checked with this key.
    public let keyID: String
    /// The 32 raw key bytes.
    public let rawRepresentation: Data

    /// The length of a raw Ed25519 public key.
    public static let byteCount = 32

    /// Creates a key from its 32 raw bytes.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the key id is not 1 to 64 ASCII
    ///   letters, digits, `.`, `_` or `-`, or the bytes are not an Ed25519 public key.
    public init(keyID: String, rawRepresentation: Data) throws(ConfigurationError) {
        guard PayloadSignature.isValidKeyID(keyID) else { throw KeyEncoding.invalidKeyID(keyID) }
        guard rawRepresentation.count == Self.byteCount,
            (try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation)) != nil
        else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "the public key for \"\(keyID)\" has \(rawRepresentation.count) bytes; an Ed25519 public key has exactly "
                    + "\(Self.byteCount) (use the base64 line `remote-config keygen` prints)")
        }
        self.keyID = keyID
        self.rawRepresentation = rawRepresentation
    }

    /// Creates a key from its standard base64 encoding (44 characters).
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the text is not base64 of 32 bytes.
    public init(keyID: String, base64: String) throws(ConfigurationError) {
        try self.init(keyID: keyID, rawRepresentation: KeyEncoding.decode(base64, what: "public key for \"\(keyID)\""))
    }

    /// The key in standard base64.
    public var base64: String { rawRepresentation.base64EncodedString() }

    /// Whether `signature` is this key's Ed25519 signature of exactly `message` (false for any malformed signature).
    func isValidSignature(_ signature: Data, for message: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
        return key.isValidSignature(signature, for: message)
    }
}
