import ConfigDomain
import Foundation

/// Fetches the current payload from wherever configuration lives: an HTTP server, a file, a vendor SDK.
///
/// The contract (checked by `FetcherContract` in `TestDoubles`):
/// - Given the ``FetchRequest/validators`` of what the client holds, answer
///   ``FetchResult/notModified(_:)`` when the payload is unchanged, or
///   ``FetchResult/modified(_:)`` with the bytes and their new validators.
/// - Use only the validators passed in, never private state, so any client and any cache work.
/// - Never retry on your own: throw a ``FetchError`` whose ``FetchError/retry`` says whether and
///   when a retry may help. The client's scheduler does the retrying.
/// - Honour task cancellation promptly by throwing ``FetchError/cancelled``.
/// - Be safe to call from many tasks at once.
/// - Never put secrets (tokens, secret header values) in error messages.
public protocol ConfigFetcher: Sendable {
    /// Fetches the payload, conditionally on `request.validators`.
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult
}
