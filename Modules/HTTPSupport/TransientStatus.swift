import ConfigDomain
import Foundation

extension FetchError {
    /// The error for a status that means "not now": 408, 429, 503 with a `Retry-After`, and any other 5xx;
    /// nil for every other status. `answered` starts the message (`the server at … answered HTTP 503`),
    /// `details` follows it for a 5xx, and `retryAt` is the date the server's `Retry-After` named.
    public static func transient(status: Int, answered: String, retryAt: Date?, details: String = "") -> FetchError? {
        let retry = retryAt.map(RetryAdvice.after) ?? .backoff
        let asked = retryAt.map { "; it asks to retry after \($0)" } ?? ""
        switch status {
        case 408:
            return FetchError(.httpStatus(408), retry: .backoff, message: "\(answered) (request timeout)")
        case 429:
            return FetchError(.rateLimited(status: 429), retry: retry, message: "\(answered) (too many requests)\(asked)")
        case 503 where retryAt != nil:
            return FetchError(.rateLimited(status: 503), retry: retry, message: "\(answered) (unavailable)\(asked)")
        case 500..<600:
            return FetchError(
                .httpStatus(status), retry: retry, message: "\(answered)\(details), a server-side failure that may pass")
        default:
            return nil
        }
    }
}
