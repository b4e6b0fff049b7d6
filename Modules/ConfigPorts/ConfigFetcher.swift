import ConfigDomain
import Foundation

/// Fetches the current payload from wherever configuration lives: an HTTP server, a file, a vendor SDK.
///
/// The contract (checked by `FetcherContract` in `TestDoubles`):
/// - Given the ``FetchRequest/validators`` of what the client holds, answer
///   ``FetchResult/notModified(_:)`` when the payload is unchanged, or
///   ``FetchResult/modified(_:)`` with the bytes and their new validators.
/// - Use only the validators passed in, never private state, so any client and any cache work.
/// - Never retry on your own: throw a `FetchError` whose `FetchError/retry` says whether and
///   when a retry may help. The client's scheduler does the retrying.
/// - Honour task cancellation promptly by throwing `FetchError/cancelled`.
/// - Be safe to call from many tasks at once.
/// - Never put secrets (tokens, secret header values) in error messages.
///
/// A fetcher whose server evaluates the flags for the client's context (OpenFeature's remote
/// evaluation protocol, say) answers ``evaluatesContext`` with `true`: see there.
public protocol ConfigFetcher: Sendable {
    /// Fetches the payload, conditionally on `request.validators`.
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult
    /// Whether the payload this fetcher returns was evaluated remotely for ``FetchRequest/context``,
    /// so that it holds for that context only. Default `false`.
    ///
    /// For such a fetcher the client fetches again, in the background, whenever its context changes,
    /// and keeps each targeting key's payload in a cache slot of its own (named with a hash of the
    /// key, never the key itself): a change of user serves that user's cached payload at once, if
    /// there is one, and an offline launch with the same targeting key serves that user's values.
    var evaluatesContext: Bool { get }
}

extension ConfigFetcher {
    /// Payloads that hold for every context: `false`.
    public var evaluatesContext: Bool { false }
}
