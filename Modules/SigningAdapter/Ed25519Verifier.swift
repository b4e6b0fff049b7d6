import ConfigDomain
import ConfigPorts
import Crypto
import Foundation

/// The client's signature policy on Ed25519: it lets the client decode a payload only when the
/// payload carries a signature by a trusted key, made for this configuration, over exactly these
/// bytes, with a version newer than the one the client holds.
///
/// ```swift
/// let verifier = try Ed25519Verifier(base64Keys: [
///     "prod-2026": "q1bS…=",   // the current key
///     "prod-2025": "Zm9v…=",   // the previous one, until every payload is re-signed
/// ])
/// let client = try RemoteConfigClient.builder(fetcher: fetcher).verifyPayloads(with: verifier).build()
/// ```
///
/// For each payload the client hands it (``verify(_:metadata:replacing:configurationName:)``):
/// 1. a signature must have come with it (else `.missing`);
/// 2. whose text reads as `keyid=…, config=…, version=…, sig=…` (else `.malformed`);
/// 3. that names a trusted key (else `.unknownKey`) and matches exactly these bytes, configuration
///    name and version under it (else `.mismatch`);
/// 4. that was made for the client's configuration (else `.wrongConfiguration`);
/// 5. and whose version is above the version of the snapshot the payload would replace (else
///    `.replayed`). The held snapshot's signature is kept in its cached metadata, so this floor
///    survives relaunches.
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

    /// Lets the client decode `payload` when ``check(_:signature:configurationName:newerThan:)`` accepts
    /// the signature `metadata` carries, above the version `held` was signed with.
    public func verify(
        _ payload: Data, metadata: SnapshotMetadata, replacing held: SnapshotMetadata?, configurationName: String
    ) throws(SignatureError) {
        do throws(SignatureError) {
            guard let text = metadata.signature else {
                throw SignatureError(
                    .missing,
                    "it carries no signature, and this client requires one; sign it with `remote-config sign --name "
                        + "\(configurationName)` and serve the signature with it (the X-Config-Signature header or a .sig file next to it)"
                )
            }
            let floor = held?.signature.flatMap { try? PayloadSignature(parsing: $0) }?.version
            try check(payload, signature: PayloadSignature(parsing: text), configurationName: configurationName, newerThan: floor)
        } catch {
            throw SignatureError(error.kind, "the payload from \(metadata.source): \(error.message)")
        }
    }

    /// Checks `signature` as the client does, once it has read it: a trusted key, exactly these bytes,
    /// this configuration, and a version above `floor` (when given).
    ///
    /// - Throws: ``ConfigDomain/SignatureError`` (`.unknownKey`, `.mismatch`, `.wrongConfiguration`
    ///   or `.replayed`) saying what to do.
    public func check(
        _ payload: Data, signature: PayloadSignature, configurationName: String, newerThan floor: UInt64? = nil
    ) throws(SignatureError) {
        guard let raw = keysByID[signature.keyID] else {
            throw SignatureError(
                .unknownKey(signature.keyID),
                "it is signed with the key id \"\(signature.keyID)\", which this client does not trust (trusted: "
                    + "\(trustedKeys.map(\.keyID).joined(separator: ", "))); add that public key to the verifier, "
                    + "or sign the payload with a trusted key")
        }
        // Checked over the name the signature gives, so that a refusal for another name is proof a trusted key signed it.
        let message = PayloadSignature.signedMessage(
            payload: payload, configurationName: signature.configurationName, version: signature.version)
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
            key.isValidSignature(signature.signature, for: message)
        else {
            throw SignatureError(
                .mismatch(keyID: signature.keyID),
                "its signature does not match its bytes under the key \"\(signature.keyID)\": the payload or its "
                    + "signature was altered on the way or on disk, or another key signed it; publish the payload "
                    + "again with `remote-config sign` and serve the signature that goes with it")
        }
        // Byte for byte: Swift's `==` would equate canonically equivalent names whose signed bytes differ.
        guard signature.configurationName.utf8.elementsEqual(configurationName.utf8) else {
            throw SignatureError(
                .wrongConfiguration(signedFor: signature.configurationName, expected: configurationName),
                "it is signed for the configuration \"\(signature.configurationName)\", not \"\(configurationName)\", "
                    + "which this client reads: one configuration's payload was served or cached as another's; serve "
                    + "\"\(configurationName)\"'s own payload, signed with `remote-config sign --name \(configurationName)`")
        }
        guard let floor, signature.version <= floor else { return }
        let detail =
            signature.version == floor
            ? "the version already accepted, for other bytes: every new payload needs a new, higher version"
            : "older than version \(floor), which was already accepted: an old payload was replayed, or the "
                + "publisher's version went backwards"
        throw SignatureError(
            .replayed(version: signature.version, lastAccepted: floor),
            "it is signed with version \(signature.version), \(detail); sign the current payload with a version above \(floor)")
    }
}
