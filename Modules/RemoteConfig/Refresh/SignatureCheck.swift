import ConfigDomain
import ConfigPorts
import Foundation

/// The client's signature rule, applied to a payload's bytes before anything parses them.
///
/// With a verifier configured, every payload must:
/// 1. carry a signature (else `.missing`);
/// 2. whose text reads as `keyid=…, version=…, sig=…` (else `.malformed`);
/// 3. that the verifier accepts for exactly these bytes (else `.unknownKey` or `.mismatch`);
/// 4. and, for a fetched payload, whose signed version is newer than the version of the snapshot
///    the client holds (else `.replayed`). The held snapshot's signature is kept in its cached
///    metadata, so this floor survives relaunches.
struct SignatureCheck: Sendable {
    /// Does the cryptography.
    let verifier: any PayloadVerifier

    /// Throws why the fetched `bytes`, described by `metadata`, must not be parsed; `held` is the
    /// snapshot the client holds, whose signed version is the floor.
    func check(_ bytes: Data, metadata: SnapshotMetadata, held: SnapshotMetadata?) throws(SignatureError) {
        let signature = try verified(bytes, metadata: metadata)
        guard let floor = held.flatMap(Self.version(of:)), signature.version <= floor else { return }
        let detail =
            signature.version == floor
            ? "the same version the client already accepted, for other bytes: every new payload needs a new, higher version"
            : "older than version \(floor), which the client already accepted: an old payload was replayed, or the publisher's version went backwards"
        throw SignatureError(
            .replayed(version: signature.version, lastAccepted: floor),
            "the payload from \(metadata.source) is signed with version \(signature.version), \(detail); "
                + "sign the current payload with a version above \(floor)")
    }

    /// Why the cached snapshot `cached` of configuration `name` must not be parsed, or nil when it verifies.
    func refusal(ofCached cached: CachedSnapshot, name: String) -> CacheError? {
        do throws(SignatureError) {
            _ = try verified(cached.payload, metadata: cached.metadata)
            return nil
        } catch {
            return CacheError(
                .untrusted(error),
                message: "the cached payload for \"\(name)\" was not used: \(error.message); serving defaults until a "
                    + "refresh brings a payload that verifies")
        }
    }

    /// The signature of `bytes`, read from `metadata` and checked by the verifier.
    private func verified(_ bytes: Data, metadata: SnapshotMetadata) throws(SignatureError) -> PayloadSignature {
        guard let text = metadata.signature else {
            throw SignatureError(
                .missing,
                "the payload from \(metadata.source) carries no signature, and this client requires one; sign it with "
                    + "`remote-config sign` and serve the signature with it (the X-Config-Signature header or a .sig file next to it)"
            )
        }
        do throws(SignatureError) {
            let signature = try PayloadSignature(parsing: text)
            try verifier.verify(bytes, signature: signature)
            return signature
        } catch {
            throw SignatureError(error.kind, "the payload from \(metadata.source): \(error.message)")
        }
    }

    /// The signed version of a snapshot the client accepted, if it was signed.
    private static func version(of metadata: SnapshotMetadata) -> UInt64? {
        metadata.signature.flatMap { try? PayloadSignature(parsing: $0) }?.version
    }
}
