import ConfigDomain
import Foundation

/// Why an etcd read, watch or write failed, with a message that says what to do.
///
/// ``EtcdFetcher`` reports these as ``FetchError``s (same message; the kind decides whether the
/// client retries); ``EtcdPublisher`` throws them as they are. Messages never contain the password
/// or the token.
public struct EtcdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// No endpoint answered usefully: refused, timed out, no leader, or not an etcd gateway.
        case unreachable
        /// The cluster refused the credentials, or needs credentials and none were given.
        case authenticationFailed
        /// The user is authenticated but has no permission for the key.
        case permissionDenied
        /// The key does not exist, or no key has the prefix.
        case keyMissing
        /// The document is not a JSON object, or a value is not UTF-8 text.
        case invalidJSON
        /// The revision asked for was compacted away (the watcher re-reads and carries on).
        case compacted
        /// etcd answered with another error.
        case rejected
        /// The calling task was cancelled.
        case cancelled
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened and what to do, for a person.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The error for a cancelled task.
    static let cancelled = EtcdError(.cancelled, "the etcd request was cancelled")

    /// `etcd: <message>`.
    public var description: String { "etcd: \(message)" }

    /// This error as the fetcher port reports it: a failure the client may retry with backoff
    /// (unreachable cluster, compaction, another etcd error) or one that needs a person first.
    var fetchError: FetchError {
        switch kind {
        case .unreachable: FetchError(.transport, retry: .backoff, message: description)
        case .authenticationFailed, .permissionDenied, .keyMissing:
            FetchError(.other, retry: .doNotRetry, message: description)
        case .invalidJSON: FetchError(.invalidPayload, retry: .doNotRetry, message: description)
        case .compacted, .rejected: FetchError(.other, retry: .backoff, message: description)
        case .cancelled: FetchError.cancelled
        }
    }
}
