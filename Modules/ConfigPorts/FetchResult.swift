import ConfigDomain
import Foundation

/// A fetcher's answer: a new payload, or "what you hold is current".
public enum FetchResult: Sendable, Hashable {
    /// The payload changed (or the request was unconditional): here are its bytes and validators.
    case modified(FetchedPayload)
    /// The payload the client holds is current; these validators renew it (may be empty).
    case notModified(Validators)

    /// What this answer is, for events: modified or not modified.
    public var outcome: FetchOutcome {
        if case .modified = self { .modified } else { .notModified }
    }
}

/// The bytes of a fetched payload with what the source said about them.
public struct FetchedPayload: Sendable, Hashable {
    /// The payload exactly as received; the client decodes it with its ``PayloadFormat`` and the
    /// cache stores it byte for byte.
    public var bytes: Data
    /// The validators to send next time.
    public var validators: Validators
    /// The content type the source declared, if any.
    public var contentType: String?
    /// A TTL the source suggested (for example `Cache-Control: max-age`), in seconds.
    public var ttlHint: TimeInterval?
    /// Where the bytes came from, for provenance (a URL, a path).
    public var source: String
    /// The detached signature that came with the bytes, as text (at most
    /// ``ConfigDomain/SnapshotMetadata/maxSignatureLength`` characters), if any. The client hands it to its
    /// ``PayloadVerifier`` before decoding, and caches it with the payload.
    public var signature: String?

    /// Creates a payload.
    public init(
        bytes: Data, validators: Validators = .none, contentType: String? = nil, ttlHint: TimeInterval? = nil,
        source: String, signature: String? = nil
    ) {
        self.bytes = bytes
        self.validators = validators
        self.contentType = contentType
        self.ttlHint = ttlHint
        self.source = source
        self.signature = signature
    }
}
