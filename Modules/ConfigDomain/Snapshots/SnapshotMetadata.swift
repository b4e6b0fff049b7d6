import Foundation

/// Facts about a snapshot other than its values: its fetch time, validators, hash, source, signature and signed expiry.
public struct SnapshotMetadata: Sendable, Hashable, Codable {
    /// When the payload was last fetched or confirmed unchanged (a 304 renews this).
    public var fetchedAt: Date
    /// The validators to send with the next conditional fetch.
    public var validators: Validators
    /// The hash of the payload bytes.
    public var contentHash: ContentHash
    /// What produced the payload, for example the URL or `file:///…` or `test`.
    public var source: String
    /// A time-to-live suggested by the source (for example `Cache-Control: max-age`), in seconds.
    public var ttlHint: TimeInterval?
    /// The payload's detached signature exactly as it arrived, if any: text the core only carries,
    /// which the client's `PayloadVerifier` reads. It is kept with the payload, so a cached payload
    /// is verified again at load.
    public var signature: String?
    /// When the payload stops being current by its signer's word (its signed expiry), as the client's
    /// `PayloadVerifier` vouched for it; nil when it has none, or when the client verifies nothing.
    ///
    /// From this instant the snapshot counts as expired, whatever its fetch time
    /// (``FreshnessPolicy/freshness(of:now:)``). The client sets it each time it admits the payload,
    /// fetched or read back from a cache, from what its verifier returns; the signature the cache
    /// keeps carries it, so a relaunch gets it back, and a cache can neither lose nor extend it.
    public var signedExpiresAt: Date?

    /// The longest signature text a fetcher carries and a verifier reads, in characters (a real one is about 150).
    public static let maxSignatureLength = 1024

    /// Creates metadata.
    public init(
        fetchedAt: Date, validators: Validators = .none, contentHash: ContentHash, source: String,
        ttlHint: TimeInterval? = nil, signature: String? = nil, signedExpiresAt: Date? = nil
    ) {
        self.fetchedAt = fetchedAt
        self.validators = validators
        self.contentHash = contentHash
        self.source = source
        self.ttlHint = ttlHint
        self.signature = signature
        self.signedExpiresAt = signedExpiresAt
    }

    /// This metadata after a "not modified" answer at `date` with `validators`.
    public func renewed(at date: Date, validators newValidators: Validators) -> SnapshotMetadata {
        var copy = self
        copy.fetchedAt = date
        if newValidators.etag != nil { copy.validators.etag = newValidators.etag }
        if newValidators.lastModified != nil { copy.validators.lastModified = newValidators.lastModified }
        return copy
    }
}
