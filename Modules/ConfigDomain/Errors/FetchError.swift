import Foundation

/// A failed fetch, with everything a scheduler needs: what went wrong and whether and when to retry.
///
/// Messages never contain secret header values or secret key values: adapters redact before
/// building one.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The connection failed: refused, reset, DNS, TLS, offline.
        case transport
        /// The request timed out.
        case timeout
        /// The server answered with a status the fetcher does not accept.
        case httpStatus(Int)
        /// The server asked to slow down (429, or 503 with `Retry-After`).
        case rateLimited(status: Int)
        /// Redirects went round in a loop or exceeded the limit.
        case redirectLoop
        /// The body was larger than the limit; the transfer was aborted.
        case bodyTooLarge(limit: Int)
        /// The body's content type is not accepted.
        case unsupportedContentType(String?)
        /// The body ended before its declared length.
        case truncatedBody(expected: Int, received: Int)
        /// The body was empty.
        case emptyBody
        /// The body did not decode into a snapshot.
        case invalidPayload
        /// The URL is not allowed (plain HTTP to a non-loopback host without the opt-in).
        case insecureURL
        /// The calling task was cancelled.
        case cancelled
        /// Any other failure.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// Whether and when to retry.
    public var retry: RetryAdvice
    /// What happened and what to do, for a person. Never contains secrets.
    public var message: String

    /// Creates a fetch error.
    public init(_ kind: Kind, retry: RetryAdvice, message: String) {
        self.kind = kind
        self.retry = retry
        self.message = message
    }

    /// A cancelled fetch; not retried by the scheduler.
    public static let cancelled = FetchError(.cancelled, retry: .doNotRetry, message: "the fetch was cancelled")

    /// Whether a retry may help.
    public var isRetryable: Bool { retry.isRetryable }

    /// `fetch failed: <message> (<retry advice>)`.
    public var description: String { "fetch failed: \(message) (\(retry))" }
}
