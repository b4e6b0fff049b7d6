import Foundation

/// Why a server-sent-events connection ended or was refused (the source reconnects after each, with
/// backoff), or why a source could not be made.
public struct SSEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A line was longer than the limit (bytes); the connection was dropped.
        case lineTooLong(limit: Int)
        /// An event's data grew past the limit (bytes); the connection was dropped.
        case eventTooLarge(limit: Int)
        /// The server answered with this status instead of 200.
        case httpStatus(Int)
        /// The server answered 200 but not with `text/event-stream` (this content type, or none).
        case notAnEventStream(contentType: String?)
        /// The connection failed or broke (an `NSURLErrorDomain` code, such as -1004 for "cannot connect").
        case transport(code: Int)
        /// Nothing arrived for this many seconds, not even a comment; the connection was dropped.
        case heartbeatTimeout(seconds: TimeInterval)
        /// The server ended the stream.
        case closedByServer
        /// The URL is not an `http` or `https` URL with a host (the source was not made).
        case unsupportedURL
    }

    /// What went wrong.
    public var kind: Kind
    /// What happened and what to do, for a person.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
