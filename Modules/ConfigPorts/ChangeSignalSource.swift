import ConfigDomain
import Foundation

/// A push transport: tells the client, as it happens, that the configuration changed.
///
/// An SSE stream, an etcd watch or a message bus implements it. The client takes each signal into
/// its usual path: a ``ChangeSignal/changed(version:)`` starts (or joins) the single-flight
/// refresh through the client's ``ConfigFetcher``; a ``ChangeSignal/payload(_:)`` is validated and
/// activated directly. Rules, activation policy, cache and provenance apply either way.
///
/// The contract (checked by `ChangeSignalContract` in `TestDoubles`):
/// - Each call to ``signals()`` opens one subscription (a connection, a watch) and returns its stream.
/// - Once the subscription is live, its first signal describes the current state (the current
///   version, the current payload, or `.changed(version: nil)`), so nothing published between the
///   client's last fetch and the subscription is missed.
/// - Then one signal per change, in the order the changes were made. Under pressure older signals
///   may be coalesced away (`AsyncStream(bufferingPolicy: .bufferingNewest(1))` does), never the newest.
/// - A version is the same text the source's fetcher puts in `Validators/etag` for that payload
///   (compared by ``ChangeSignal/isSameVersion(_:as:)``), so a client holding it does nothing.
/// - Reconnect on your own (with backoff): the stream ends only when the consuming task is
///   cancelled, and then promptly, releasing the connection.
/// - Report the connection with ``ChangeSignal/connection(_:)``: `.disconnected` when the
///   subscription drops (with when you retry), `.connected` when it is live again. The client's
///   status turns `STALE` while push is down. These reports are not changes; they may come at any
///   time and do not count as "the first signal".
public protocol ChangeSignalSource: Sendable {
    /// A short name for provenance and logs, for example `sse http://127.0.0.1:8080/events`.
    var name: String { get }
    /// Opens a subscription: the current state first, then one signal per change, until the consumer cancels.
    func signals() -> AsyncStream<ChangeSignal>
}
