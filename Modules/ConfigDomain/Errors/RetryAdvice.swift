import Foundation

/// Whether, and when, a failed fetch is worth trying again. The scheduler acts on it; adapters never retry themselves.
public enum RetryAdvice: Sendable, Hashable, CustomStringConvertible {
    /// Retrying will not help until something changes (a 404, a bad URL, a payload that does not decode).
    case doNotRetry
    /// Retry with the scheduler's exponential backoff (a refused connection, a 500).
    case backoff
    /// Retry no earlier than this date (a `Retry-After` header).
    case after(Date)

    /// Whether a retry may help at all.
    public var isRetryable: Bool { if case .doNotRetry = self { false } else { true } }

    /// `do not retry`, `retry with backoff` or `retry after <date>`.
    public var description: String {
        switch self {
        case .doNotRetry: "do not retry"
        case .backoff: "retry with backoff"
        case .after(let date): "retry after \(date)"
        }
    }
}
