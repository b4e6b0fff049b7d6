import Foundation

/// What happened to one subscription's connection, for logs, metrics and tests.
public enum SSEConnectionEvent: Sendable, Hashable {
    /// Connecting (attempt 1 is the first of a run of failures), sending this `Last-Event-ID`.
    case connecting(attempt: Int, lastEventID: String?)
    /// The server accepted: the stream is open.
    case connected
    /// The connection ended or was refused; the source reconnects.
    case disconnected(SSEError)
    /// Waiting this many seconds before reconnecting.
    case waiting(seconds: TimeInterval)
    /// The connection was closed by ``SSEChangeSignalSource/pause()``.
    case paused
}
