import ConfigDomain
import ConfigPorts
import Foundation

/// The one way in for a payload: bytes become a ``DecodedPayload`` here and nowhere else.
///
/// Fetched, pushed and cached payloads (the active slot at launch, the pending one at next-launch
/// promotion, another user's slot after a context change) all pass through ``admit(_:metadata:replacing:)``:
/// the provider's verifier sees the exact bytes first (when one is set), then its format decodes
/// them. A refusal is reported one way for each kind of origin (``RefusedPayload``): a payload from
/// the network fails its refresh, a stored one is reported as unreadable and not used.
struct PayloadIntake: Sendable {
    let format: any PayloadFormat
    let verifier: (any PayloadVerifier)?
    let configurationName: String

    /// The provider `settings` describe.
    init(_ settings: ClientSettings) {
        format = settings.format
        verifier = settings.verifier
        configurationName = settings.configurationName
    }

    /// `bytes` decoded, once the verifier (if any) accepts them in place of `held`; otherwise why not.
    ///
    /// `metadata` gets what the verifier vouched for (its signed expiry): nothing without a verifier,
    /// so whatever a cache or fetcher put there is never trusted on its own.
    func admit(_ bytes: Data, metadata: inout SnapshotMetadata, replacing held: SnapshotMetadata?) -> Result<
        DecodedPayload, RefusedPayload
    > {
        metadata.signedExpiresAt = nil
        if let verifier {
            do throws(SignatureError) {
                let verified = try verifier.verify(
                    bytes, metadata: metadata, replacing: held, configurationName: configurationName)
                metadata.signedExpiresAt = verified.expiresAt
            } catch {
                return .failure(.signature(error))
            }
        }
        do throws(PayloadError) {
            return .success(try format.decode(bytes))
        } catch {
            return .failure(.payload(error.from(metadata.source)))
        }
    }

    /// Whether the verifier (if any) accepts `snapshot` in place of `held`, without decoding it.
    func verifies(_ snapshot: CachedSnapshot, replacing held: SnapshotMetadata?) -> SignatureError? {
        do throws(SignatureError) {
            _ = try verifier?.verify(
                snapshot.payload, metadata: snapshot.metadata, replacing: held, configurationName: configurationName)
            return nil
        } catch {
            return error
        }
    }
}

/// Why ``PayloadIntake`` refused a payload: the verifier's refusal or the format's error.
enum RefusedPayload: Error, Sendable {
    case signature(SignatureError)
    case payload(PayloadError)

    /// The error a refresh that brought the payload fails with.
    var configError: ConfigError {
        switch self {
        case .signature(let error): .signature(error)
        case .payload(let error): .payload(error)
        }
    }

    /// The error a stored payload under `name` is reported with (`ConfigEvent.cacheUnreadable`): it is
    /// not used, and the client serves the layers below until a refresh brings one it can use.
    func cacheError(name: String) -> CacheError {
        switch self {
        case .signature(let refusal):
            CacheError(
                .untrusted(refusal),
                message: "the cached payload for \"\(name)\" was not used: \(refusal.message); serving defaults until "
                    + "a refresh brings a payload that verifies")
        case .payload(let error):
            CacheError(
                .corrupt(.badMetadata),
                message: "the cached payload for \"\(name)\" no longer decodes (\(error)); serving defaults until the next refresh")
        }
    }
}
