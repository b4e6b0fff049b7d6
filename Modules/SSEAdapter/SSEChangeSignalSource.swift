import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// A push source over server-sent events: each event of the stream becomes a ``ChangeSignal``.
///
/// Each call to ``signals()`` opens one connection (URLSession, no third-party dependency) and
/// keeps it open: it reconnects with exponential backoff and full jitter (from the server's
/// `retry:` time), sends `Last-Event-ID`, drops a connection silent for longer than the heartbeat
/// timeout, and caps line and event sizes. The stream ends, and the connection closes, when the
/// consuming task is cancelled.
///
/// It reports its connection in the stream: `.connection(.connected)` when the server accepts,
/// and `.connection(.disconnected(reason:retryIn:))` when the connection ends, is refused or is
/// paused, with the wait before the next attempt, so the client's status says when push is down.
///
/// ```swift
/// let events = try SSEChangeSignalSource(url: URL(string: "https://config.example.com/events")!)
/// let client = try RemoteConfigClient.builder(fetcher: fetcher).push(events).build()
/// // When the app goes to the background:
/// events.pause()
/// // And back:
/// events.resume()
/// ```
public final class SSEChangeSignalSource: ChangeSignalSource {
    /// The events URL.
    public let url: URL
    /// `sse <url>`, for provenance.
    public let name: String
    /// The settings.
    public let configuration: Configuration
    private let session = StreamingSession()
    private let gate = PauseGate()

    /// Creates a source for the event stream at `url`.
    ///
    /// - Throws: ``SSEError`` `.unsupportedURL` unless `url` is an `http` or `https` URL with a host.
    public init(url: URL, configuration: Configuration = Configuration()) throws(SSEError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw SSEError(
                .unsupportedURL,
                message: "\(url.absoluteString) is not an http or https URL with a host; give the "
                    + "server's events URL, for example http://127.0.0.1:8080/events")
        }
        self.url = url
        self.name = "sse \(url.absoluteString)"
        self.configuration = configuration
    }

    /// Opens a connection: `.changed(version: nil)` once it is accepted (unless turned off), then a
    /// signal per event, across reconnections, until the consuming task is cancelled.
    public func signals() -> AsyncStream<ChangeSignal> {
        let connection = SSEConnection(url: url, name: name, configuration: configuration, session: session, gate: gate)
        return AsyncStream(bufferingPolicy: .bufferingNewest(32)) { continuation in
            let task = Task { await connection.run(yieldingInto: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Closes every open connection and holds reconnection until ``resume()``: call it when the app
    /// goes to the background. The streams stay open; a paused source yields nothing.
    public func pause() { gate.pause() }

    /// Reconnects at once, without backoff: call it when the app returns to the foreground.
    public func resume() { gate.resume() }

    /// Whether the source is paused.
    public var isPaused: Bool { gate.isPaused }
}
