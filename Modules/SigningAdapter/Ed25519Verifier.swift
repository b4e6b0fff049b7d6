import ConfigDomain
import ConfigPorts
import Crypto
import Foundation

/// Verifies Ed25519 payload signatures against a set of trusted public keys, chosen by key id.
///
/// ```swift
/// let verifier = try Ed25519Verifier(base64Keys: [
///     "prod-2026": "q1bS…=",   // the current key
///     "prod-2025": "Zm9v…=",   // the previous one, until every payload is re-signed
/// ])
/// let client = try RemoteConfigClient.builder(fetcher: fetcher).verifySignatures(with: verifier).build()
/// ```
///
/// Several keys may be trusted at once, so a key can be rotated without a window where good
/// payloads are refused: trust the new key, sign with it, then drop the old one in a later release.
/// Dropping a key also refuses cached payloads it signed.
public struct Ed25519Verifier: PayloadVerifier {
    /// The trusted keys, sorted by key id.
    public let trustedKeys: [Ed25519PublicKey]
    private let keysByID: [String: Data]

    /// Trusts `trustedKeys`.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the list is empty or names one
    ///   key id with two different keys.
    public init(trustedKeys: [Ed25519PublicKey]) throws(ConfigurationError) {
        guard !trustedKeys.isEmpty else {
            throw ConfigurationError(
                .invalidAdapterSetting,
                "Ed25519Verifier needs at least one trusted public key; without one, every payload would be refused")
        }
        var keysByID: [String: Data] = [:]
        for key in trustedKeys {
            if let other = keysByID[key.keyID], other != key.rawRepresentation {
                throw ConfigurationError(
                    .invalidAdapterSetting,
                    "Ed25519Verifier was given two different public keys for the key id \"\(key.keyID)\"; give each key its own id"
                )
            }
            keysByID[key.keyID] = key.rawRepresentation
        }
        self.keysByID = keysByID
        self.trustedKeys = keysByID.keys.sorted().compactMap { id in trustedKeys.first { $0.keyID == id } }
    }

    /// Trusts each base64 public key (32 bytes, RFC 8032) under its key id.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for an empty dictionary, a key id that
    ///   cannot name a key, or a value that is not a base64 Ed25519 public key.
    public init(base64Keys: [String: String]) throws(ConfigurationError) {
        var keys: [Ed25519PublicKey] = []
        for (keyID, base64) in base64Keys.sorted(by: { $0.key < $1.key }) {
            keys.append(try Ed25519PublicKey(keyID: keyID, base64: base64))
        }
        try self.init(trustedKeys: keys)
    }

    /// Checks `signature` over the signed message of exactly `payload` with the key it names.
    public func verify(_ payload: Data, signature: PayloadSignature) throws(SignatureError) {
        guard let raw = keysByID[signature.keyID] else {
            throw SignatureError(
                .unknownKey(signature.keyID),
                "it is signed with the key id \"\(signature.keyID)\", which this client does not trust (trusted: "
                    + "\(trustedKeys.map(\.keyID).joined(separator: ", "))); add that public key to the verifier, "
                    + "or sign the payload with a trusted key")
        }
        let message = PayloadSignature.signedMessage(payload: payload, version: signature.version)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
            key.isValidSignature(signature.signature, for: message)
        else {
            throw SignatureError(
                .mismatch(keyID: signature.keyID),
                "its signature does not match its bytes under the key \"\(signature.keyID)\": the payload or its "
                    + "signature was altered on the way or on disk, or another key signed it; publish the payload "
                    + "again with `remote-config sign` and serve the signature that goes with it")
        }
    }
}
