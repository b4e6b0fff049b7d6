import ConfigDomain
import ConfigPorts
import Foundation

/// The client's signature policy on Ed25519: it lets the client decode a payload only when the
/// payload carries signatures by enough trusted keys, made for this configuration, over exactly
/// these bytes, with a version newer than the one the client holds; and it tells the client when
/// the payload's signed expiry passes.
///
/// ```swift
/// let verifier = try Ed25519Verifier(base64Keys: [
///     "prod-2026": "q1bS…=",   // the current key
///     "prod-2025": "Zm9v…=",   // the previous one, until every payload is re-signed
/// ])
/// let client = try RemoteConfigClient.builder(fetcher: fetcher).verifyPayloads(with: verifier).build()
/// ```
///
/// For k-of-n signing and rotation by signed key sets, give it a ``KeyRing``:
/// `Ed25519Verifier(keyRing: KeyRing(root: try KeySet(version: 1, threshold: 2, keys: keys), storedAt: file))`.
///
/// For each payload the client hands it (``verify(_:metadata:replacing:configurationName:)``):
/// 1. signatures must have come with it (else `.missing`);
/// 2. whose text reads as `keyid=…, config=…, version=…[, expires=…], sig=…`, several separated
///    by `;`, all for the same configuration, version and expiry (else `.malformed`);
/// 3. of which at least the key set's threshold, each by a distinct trusted key, match exactly
///    these bytes, configuration name, version and expiry (else `.tooFewSignatures`; with a single
///    signature and a threshold of 1, `.unknownKey` or `.mismatch` say what is wrong with it);
/// 4. made for the client's configuration (else `.wrongConfiguration`);
/// 5. with a version above the version of the snapshot the payload would replace (else
///    `.replayed`). The held snapshot's signature is kept in its cached metadata, so this floor
///    survives relaunches.
///
/// It returns the signed expiry, which the client keeps with the snapshot: from then on the
/// snapshot counts as expired, whatever its fetch time. An expiry in the past is not a refusal:
/// the payload is still the newest the publisher signed, and the freshness rules decide what is served.
public struct Ed25519Verifier: PayloadVerifier {
    /// The key set trusted now, and how it rotates.
    public let keyRing: KeyRing

    /// Trusts the key sets of `keyRing`: a payload needs its current threshold of signatures.
    public init(keyRing: KeyRing) {
        self.keyRing = keyRing
    }

    /// Trusts each of `trustedKeys` on its own (a threshold of 1), with no rotation by key sets.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the list is empty, names one
    ///   key id with two different keys, or one key under two ids.
    public init(trustedKeys: [Ed25519PublicKey]) throws(ConfigurationError) {
        self.init(keyRing: KeyRing(root: try KeySet(version: 0, threshold: 1, keys: trustedKeys)))
    }

    /// Trusts each base64 public key (32 bytes, RFC 8032) under its key id, on its own (a threshold of 1).
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

    /// The keys trusted now, sorted by key id.
    public var trustedKeys: [Ed25519PublicKey] { keyRing.current.keys }

    /// Lets the client decode `payload` when ``check(_:signatures:configurationName:newerThan:)`` accepts
    /// the signatures `metadata` carries, above the version `held` was signed with; returns their expiry.
    public func verify(
        _ payload: Data, metadata: SnapshotMetadata, replacing held: SnapshotMetadata?, configurationName: String
    ) throws(SignatureError) -> PayloadVerification {
        do throws(SignatureError) {
            guard let text = metadata.signature else {
                throw SignatureError(
                    .missing,
                    "it carries no signature, and this client requires one; sign it with `remote-config sign --name "
                        + "\(configurationName)` and serve the signature with it (the X-Config-Signature header or a .sig file next to it)"
                )
            }
            let floor = held?.signature.flatMap { try? PayloadSignature.list(parsing: $0) }?.first?.version
            return try check(
                payload, signatures: PayloadSignature.list(parsing: text), configurationName: configurationName,
                newerThan: floor)
        } catch {
            throw SignatureError(error.kind, "the payload from \(metadata.source): \(error.message)")
        }
    }

    /// Checks one `signature` as the client does, once it has read it (see ``check(_:signatures:configurationName:newerThan:)``).
    @discardableResult
    public func check(
        _ payload: Data, signature: PayloadSignature, configurationName: String, newerThan floor: UInt64? = nil
    ) throws(SignatureError) -> PayloadVerification {
        try check(payload, signatures: [signature], configurationName: configurationName, newerThan: floor)
    }

    /// Checks `signatures` of one payload as the client does, once it has read them: the trusted key
    /// set's threshold of distinct trusted keys over exactly these bytes, this configuration, and a
    /// version above `floor` (when given).
    ///
    /// - Returns: what they vouch for: their signed expiry, if any.
    /// - Throws: ``ConfigDomain/SignatureError`` (`.malformed`, `.unknownKey`, `.mismatch`,
    ///   `.tooFewSignatures`, `.wrongConfiguration` or `.replayed`) saying what to do.
    @discardableResult
    public func check(
        _ payload: Data, signatures: [PayloadSignature], configurationName: String, newerThan floor: UInt64? = nil
    ) throws(SignatureError) -> PayloadVerification {
        let keySet = keyRing.current
        guard let first = signatures.first else {
            throw SignatureError(.missing, "it carries no signature; sign it with `remote-config sign`")
        }
        if let other = signatures.first(where: { !$0.signsTheSameClaims(as: first) }) {
            throw SignatureError(
                .malformed,
                "its signatures disagree: \(first.claims) and \(other.claims); sign it once with every key "
                    + "(`remote-config sign <file> --key <one> --key <another>`)")
        }
        var counted: Set<String> = []
        var refusals: [SignatureError] = []
        var uncounted: [String] = []
        for signature in signatures {
            do throws(SignatureError) {
                try checkOne(payload, signature: signature, in: keySet)
                if !counted.insert(signature.keyID).inserted { uncounted.append("\(signature.keyID) again (a key counts once)") }
            } catch {
                refusals.append(error)
                uncounted.append(error.shortReason(signature.keyID))
            }
        }
        guard counted.count >= keySet.threshold else {
            if signatures.count == 1, keySet.threshold == 1, let refusal = refusals.first { throw refusal }
            throw SignatureError(
                .tooFewSignatures(valid: counted.count, threshold: keySet.threshold),
                "it is signed by \(counted.count) of the trusted keys (\(keySet.keyIDList)), and this client requires "
                    + "\(keySet.threshold)" + (uncounted.isEmpty ? "" : " (not counted: \(uncounted.joined(separator: ", ")))")
                    + "; sign it with \(keySet.threshold) trusted keys: `remote-config sign <file> --key <one> --key <another>`")
        }
        // Byte for byte: Swift's `==` would equate canonically equivalent names whose signed bytes differ.
        guard first.configurationName.utf8.elementsEqual(configurationName.utf8) else {
            throw SignatureError(
                .wrongConfiguration(signedFor: first.configurationName, expected: configurationName),
                "it is signed for the configuration \"\(first.configurationName)\", not \"\(configurationName)\", "
                    + "which this client reads: one configuration's payload was served or cached as another's; serve "
                    + "\"\(configurationName)\"'s own payload, signed with `remote-config sign --name \(configurationName)`")
        }
        guard let floor, first.version <= floor else { return PayloadVerification(expiresAt: first.expiresAt) }
        let detail =
            first.version == floor
            ? "the version already accepted, for other bytes: every new payload needs a new, higher version"
            : "older than version \(floor), which was already accepted: an old payload was replayed, or the "
                + "publisher's version went backwards"
        throw SignatureError(
            .replayed(version: first.version, lastAccepted: floor),
            "it is signed with version \(first.version), \(detail); sign the current payload with a version above \(floor)")
    }

    /// Checks that `signature` is a trusted key's signature of exactly these bytes and what it names.
    private func checkOne(_ payload: Data, signature: PayloadSignature, in keySet: KeySet) throws(SignatureError) {
        guard let key = keySet.key(withID: signature.keyID) else {
            throw SignatureError(
                .unknownKey(signature.keyID),
                "it is signed with the key id \"\(signature.keyID)\", which this client does not trust (trusted: "
                    + "\(keySet.keyIDList)); add that public key to the verifier, or sign the payload with a trusted key")
        }
        // Checked over the name the signature gives, so that a refusal for another name is proof a trusted key signed it.
        let message = PayloadSignature.signedMessage(
            payload: payload, configurationName: signature.configurationName, version: signature.version,
            expiresAt: signature.expiresAt)
        guard key.isValidSignature(signature.signature, for: message) else {
            throw SignatureError(
                .mismatch(keyID: signature.keyID),
                "its signature does not match its bytes under the key \"\(signature.keyID)\": the payload or its "
                    + "signature was altered on the way or on disk, or another key signed it; publish the payload "
                    + "again with `remote-config sign` and serve the signature that goes with it")
        }
    }
}

extension PayloadSignature {
    /// Whether `other` signs the same configuration, version and expiry (its key and bytes aside).
    fileprivate func signsTheSameClaims(as other: PayloadSignature) -> Bool {
        configurationName.utf8.elementsEqual(other.configurationName.utf8) && version == other.version
            && expiresAt == other.expiresAt
    }

    /// `config=default, version=7, expires=…`, for messages.
    fileprivate var claims: String {
        "config=\(configurationName), version=\(version)" + (expiresAt.map { ", expires=\(Self.iso8601($0))" } ?? "")
    }
}

extension SignatureError {
    /// Why the signature by `keyID` did not count, in a few words: `stranger (not trusted)`.
    fileprivate func shortReason(_ keyID: String) -> String {
        if case .unknownKey = kind { return "\(keyID) (not trusted)" }
        return "\(keyID) (does not match)"
    }
}
