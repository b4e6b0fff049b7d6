import HTTPSupport

/// What one connection's reader waits for: the request's parts (HTTPSupport's `StreamingSession`), and the
/// reasons the source stops reading it.
enum StreamEvent: Sendable {
    /// A part of the streaming request.
    case part(StreamPart)
    /// Nothing arrived for the heartbeat timeout.
    case silent
    /// The source was paused.
    case paused
}
