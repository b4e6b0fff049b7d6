import Foundation

/// The one error surface of the library: every failure a client reports is one of these.
///
/// Reads never throw it for remote trouble: they return the best value there is. It reaches
/// you from `refresh()`, from the builder, from structured reads and through events.
public indirect enum ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fetcher failed.
    case fetch(FetchError)
    /// The payload did not decode.
    case payload(PayloadError)
    /// The payload's signature was missing, malformed, untrusted, wrong or replayed; it was not parsed.
    case signature(SignatureError)
    /// The cache could not read or write.
    case cache(CacheError)
    /// The client was set up wrongly.
    case configuration(ConfigurationError)
    /// A value was refused by a key's type or rules.
    case rejected(Rejection)
    /// A structured value did not decode into the requested type: the key, and where inside the value.
    case decoding(key: String, failure: DecodingFailure)
    /// The client was stopped; no more refreshes run.
    case stopped

    /// The underlying message, which says what happened and what to do.
    public var description: String {
        switch self {
        case .fetch(let e): e.description
        case .payload(let e): e.description
        case .signature(let e): e.description
        case .cache(let e): e.description
        case .configuration(let e): e.description
        case .rejected(let e): e.description
        case .decoding(let key, let failure): "key \"\(key)\" does not decode: \(failure)"
        case .stopped: "the client was stopped; build a new one to refresh again"
        }
    }

    /// Whether retrying the operation later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .fetch(let e): e.isRetryable
        case .cache: true
        default: false
        }
    }
}
