import ConfigDomain
import ConfigPorts
import Foundation

/// Pushes every change of a configuration in etcd to the client, from an etcd watch.
///
/// ```swift
/// let connection = EtcdConnection(endpoints: members)
/// let client = try RemoteConfigClient.builder(fetcher: try EtcdFetcher(connection: connection, layout: layout))
///     .push(try EtcdWatcher(connection: connection, layout: layout))
///     .build()
/// ```
///
/// Each subscription (``signals()``) reads the configuration and signals it as a payload, then
/// watches from the next revision (`/v3/watch`, streamed over `URLSession`) and signals each
/// revision as it comes, in order, as the whole new payload. The payloads and versions are the
/// ones ``EtcdFetcher`` returns for the same keys.
///
/// - **Failover**: when the member it watches goes away (its process dies, the stream drops, it
///   loses its leader, or it stays silent longer than ``EtcdConnection/watchIdleTimeout``), it
///   watches from the next endpoint, from the revision after the last one it signalled, so no
///   change is missed.
/// - **Compaction**: when that revision was compacted away, it reads the keys again, signals
///   them if they changed, and watches from there; the revisions compacted in between are gone
///   from etcd and are not signalled one by one.
/// - **Auth**: a token etcd refuses is replaced from the credentials, and the watch reopened.
/// - **Backoff**: after every endpoint failed in a row it waits (``EtcdConnection/reconnectDelay``).
/// - **Connection reports**: `.connection(.disconnected(reason:retryIn:))` when the watch drops
///   (and again before each wait, saying how long), `.connection(.connected)` once a watch is live
///   again; the client's state is `STALE` in between. A quiet watch reopened after
///   ``EtcdConnection/watchIdleTimeout`` is not reported unless the reopening fails.
/// - A key that is missing or a document that is not a JSON object is signalled as
///   `.changed(version:)`: the client's fetch then reports the ``EtcdError`` and keeps the last
///   good configuration.
///
/// Up to 256 signals wait for a slow consumer; past that the oldest are dropped, never the newest.
public struct EtcdWatcher: ChangeSignalSource {
    /// Reads the same configuration: it validated the settings, and the watches go through its gateway.
    private let fetcher: EtcdFetcher

    /// Creates a watcher; nothing is opened until ``signals()`` is called.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for an unusable connection
    ///   setting or an empty key or prefix.
    public init(connection: EtcdConnection, layout: EtcdLayout) throws(ConfigurationError) {
        fetcher = try EtcdFetcher(connection: connection, layout: layout)
    }

    /// Where the configuration lives.
    public var layout: EtcdLayout { fetcher.layout }

    /// The connection settings.
    public var connection: EtcdConnection { fetcher.connection }

    /// `etcd http://127.0.0.1:2379 key /app/config`.
    public var name: String { "etcd \(fetcher.gateway.displayEndpoints) \(layout)" }

    /// Opens a subscription: the current configuration first, then every revision, until the consumer cancels.
    public func signals() -> AsyncStream<ChangeSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeSignal.self, bufferingPolicy: .bufferingNewest(256))
        let loop = WatchLoop(gateway: fetcher.gateway, layout: layout, continuation: continuation)
        let task = Task {
            await loop.run()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
