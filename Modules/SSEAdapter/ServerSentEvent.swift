import Foundation

/// One event of a `text/event-stream`, as the WHATWG HTML standard dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the `event:` field, or `message` when the event has none.
    public var type: String
    /// The `data:` lines joined with line feeds (never empty: an event without data is not dispatched).
    public var data: String
    /// The last event ID when the event was dispatched (the latest `id:` field so far), or `nil`.
    public var lastEventID: String?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
