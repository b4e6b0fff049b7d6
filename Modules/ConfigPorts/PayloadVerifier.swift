import ConfigDomain
import Foundation

/// Decides whether the client may decode a payload, from its exact bytes, before anything parses them.
///
/// Give one to the builder (`verifyPayloads(with:)`). The client then calls it with every payload
/// it would decode, and decodes only those it accepts:
/// - a fetched payload whose bytes differ from the snapshot the client holds, with `held` set to
///   that snapshot (the one waiting for activation, if any, otherwise the active one);
/// - at `build()`, the cached active payload, with `held` nil;
/// - at `build()` under next-launch activation, the pending payload **before** it replaces the
///   active one, with `held` set to the active one if it verified. A refused pending payload is
///   discarded and the active one stays.
///
/// The client keeps no policy of its own: what a payload must carry (a signature, a version newer
/// than the held one, the configuration's name) is the verifier's to decide. `SigningAdapter`'s
/// `Ed25519Verifier` is one. What the verifier vouches for in return (``PayloadVerification``, such
/// as a signed expiry) the client keeps with the snapshot, in ``ConfigDomain/SnapshotMetadata``.
///
/// The contract:
/// - Decide from the arguments alone: no I/O and no waiting, since `build()` calls it on the launch thread.
/// - Throw a ``ConfigDomain/SignatureError`` whose message says what happened and what to do; the
///   client reports it as it is (`ConfigError.signature` from a refresh, `CacheError` `.untrusted`
///   at `build()`).
/// - Return only what the signature covers: the client trusts it as much as the signature.
/// - Safe to call from many tasks at once.
public protocol PayloadVerifier: Sendable {
    /// Returns what it verified when the client may decode `payload`; throws why not otherwise.
    ///
    /// - Parameters:
    ///   - payload: the bytes exactly as fetched or cached.
    ///   - metadata: what came with them; `metadata.signature` is the detached signature's text, if any.
    ///   - held: the snapshot `payload` would replace, whose signature records what was accepted
    ///     before (for replay protection); nil when there is none to compare with.
    ///   - configurationName: the configuration the payload is for: the name the client keeps it
    ///     under (`cache(_:name:)`, `default` unless set, or the name of a provider added with
    ///     `fetcher(_:name:precedence:format:)`).
    /// - Returns: what the signature vouches for beyond the bytes; `PayloadVerification()` when nothing.
    func verify(
        _ payload: Data, metadata: SnapshotMetadata, replacing held: SnapshotMetadata?, configurationName: String
    ) throws(SignatureError) -> PayloadVerification
}

/// What a ``PayloadVerifier`` vouched for when it accepted a payload, beyond its bytes.
///
/// The client keeps it with the snapshot: ``expiresAt`` becomes the snapshot's
/// ``ConfigDomain/SnapshotMetadata/signedExpiresAt``, which the freshness rules read.
public struct PayloadVerification: Sendable, Hashable {
    /// When the payload stops being current by its signer's word; nil when the signature sets no expiry.
    ///
    /// From then on the snapshot counts as expired, whatever its fetch time, as a defence against a
    /// server or CDN that keeps serving an old, validly signed payload (a freeze attack).
    public var expiresAt: Date?

    /// Creates the answer of an accepted payload; `PayloadVerification()` vouches for nothing beyond the bytes.
    public init(expiresAt: Date? = nil) {
        self.expiresAt = expiresAt
    }
}
