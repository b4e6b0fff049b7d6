import ConfigDomain
import Foundation

/// Checks a payload's detached signature, so that the client parses only bytes a trusted key signed.
///
/// Give one to the builder (`verifySignatures(with:)`): the client then calls it before decoding a
/// fetched payload, and again before decoding the cached payload at `build()`. The client itself
/// reads the signature text, refuses a payload without one, and refuses a version older than the
/// one it holds; the verifier does the cryptography. `SigningAdapter` provides an Ed25519 one.
///
/// The contract:
/// - Check `signature.signature` over ``ConfigDomain/PayloadSignature/signedMessage(payload:version:)``
///   of exactly `payload`, with the trusted public key named by `signature.keyID`.
/// - Throw ``ConfigDomain/SignatureError`` `.unknownKey` when no trusted key has that id, and
///   `.mismatch` when the signature does not verify; say in the message what to do.
/// - No I/O and no waiting: `build()` calls it on the launch thread. Safe to call from many tasks at once.
public protocol PayloadVerifier: Sendable {
    /// Returns when `signature` is a trusted key's signature of exactly `payload`; throws why not otherwise.
    func verify(_ payload: Data, signature: PayloadSignature) throws(SignatureError)
}
