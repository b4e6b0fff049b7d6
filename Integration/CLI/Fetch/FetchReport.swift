import ConfigDomain
import Foundation
import RemoteConfig

/// What one `fetch` did: the HTTP exchange, what the cache did, and the resolved values.
struct FetchReport: Sendable {
    /// What the cache held when the client was built.
    enum CacheBefore: Sendable {
        /// No `--cache-dir`.
        case notConfigured
        /// Nothing stored for this configuration.
        case miss
        /// A snapshot fetched at this date, this fresh.
        case hit(fetchedAt: Date, freshness: Freshness)
        /// Stored data that could not be used (treated as a miss).
        case unreadable(String)
    }

    /// One resolved key.
    struct Row: Sendable {
        var key: String
        var type: String
        var value: String
        var from: String
        var declared: Bool
        var rejected: [Rejection]
    }

    /// The URL fetched (its query redacted by the fetcher in messages).
    var url: String
    /// The exchange the client made, or nil when none was made.
    var exchange: RecordingFetcher.Exchange?
    /// The refresh's outcome, when it succeeded.
    var result: RefreshResult?
    /// The refresh's error, when it failed.
    var error: ConfigError?
    /// Whether the request was skipped because the cached snapshot was fresh (`--skip-if-fresh`).
    var skippedBecauseFresh = false
    /// The cache directory and configuration name, when a cache was used.
    var cacheLocation: (directory: String, name: String)?
    /// What the cache held before.
    var cacheBefore: CacheBefore = .notConfigured
    /// A cache write that failed, if any.
    var cacheWriteFailure: String?
    /// The resolved values.
    var rows: [Row] = []
    /// The freshness of the snapshot held at the end, if any.
    var finalFreshness: Freshness?

    /// `200`, `304`, or nil for an error or no request.
    var httpStatus: Int? {
        switch exchange?.outcome {
        case .modified?: 200
        case .notModified?: 304
        default: nil
        }
    }

    /// What the cache did, in words: `miss → stored`, `hit → renewed`, …
    var cacheAction: String? {
        guard cacheLocation != nil else { return nil }
        if let cacheWriteFailure { return "write failed: \(cacheWriteFailure)" }
        if skippedBecauseFresh { return "served from the cache; no request made" }
        switch (exchange?.outcome, result) {
        case (.modified?, .updated?): return "stored the new payload"
        case (.modified?, .unchanged?): return "renewed (the same bytes came back; the payload was not rewritten)"
        case (.notModified?, _): return "renewed by the 304 (only the metadata was rewritten, not the payload)"
        case (.failed?, _):
            if case .hit = cacheBefore { return "kept: reads still get the cached values" }
            return "nothing to fall back on: reads get the defaults"
        default: return nil
        }
    }

    /// The short cache state before the fetch: `hit`, `miss`, `unreadable`.
    var cacheBeforeWord: String {
        switch cacheBefore {
        case .notConfigured: "none"
        case .miss: "miss"
        case .hit: "hit"
        case .unreadable: "unreadable"
        }
    }
}

extension FetchError.Kind {
    /// A short name: `transport`, `timeout`, `httpStatus`, `rateLimited`, …
    var name: String {
        switch self {
        case .transport: "transport"
        case .timeout: "timeout"
        case .httpStatus: "httpStatus"
        case .rateLimited: "rateLimited"
        case .redirectLoop: "redirectLoop"
        case .bodyTooLarge: "bodyTooLarge"
        case .unsupportedContentType: "unsupportedContentType"
        case .truncatedBody: "truncatedBody"
        case .emptyBody: "emptyBody"
        case .invalidPayload: "invalidPayload"
        case .insecureURL: "insecureURL"
        case .cancelled: "cancelled"
        case .other: "other"
        }
    }

    /// The HTTP status involved, if any.
    var httpStatus: Int? {
        switch self {
        case .httpStatus(let code), .rateLimited(let code): code
        default: nil
        }
    }
}

extension ConfigError {
    /// Whether the fetcher itself failed (as opposed to decoding or the cache).
    var isFetchFailure: Bool { if case .fetch = self { true } else { false } }

    /// A short name of the failure for output: the fetch error's kind, or the error's case.
    var kindName: String {
        switch self {
        case .fetch(let error): error.kind.name
        case .payload: "invalidPayload"
        case .signature: "signature"
        case .cache: "cache"
        case .configuration: "configuration"
        case .rejected: "rejected"
        case .decoding: "decoding"
        case .stopped: "stopped"
        }
    }
}

extension ValueLayer {
    /// `remote`, `last good remote`, `default`, `override environment (MYAPP_X)`.
    var shortName: String {
        switch self {
        case .override(let source, _, let origin): "override \(source) (\(origin))"
        case .snapshot: "remote"
        case .lastGoodSnapshot: "last good remote"
        case .bundledDefaults(let source): "bundled defaults \(source)"
        case .defaultValue: "default"
        }
    }
}
