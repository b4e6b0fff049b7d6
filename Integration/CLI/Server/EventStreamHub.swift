import ConfigPorts
import FlyingFox
import FlyingSocks
import Foundation

/// The `/events` streams of a dev server: server-sent events announcing each new ETag of a document.
///
/// `GET /events` follows the document served at `/` (a single file); `GET /events/<name>.json`
/// follows that document. A stream starts with `retry:` and the current version, then sends
/// `id: <n>` and `data: <ETag>` for each new version (n counts versions since the server started),
/// and a `: heartbeat` comment every ``heartbeatInterval`` seconds so clients can tell a silent
/// connection from a dead one.
final class EventStreamHub: Sendable {
    private struct Subscriber {
        let path: String
        let continuation: AsyncStream<Data>.Continuation
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        /// The version number of each document path.
        var versions: [String: Int] = [:]
    }

    /// The documents announced.
    let library: DocumentLibrary
    /// Seconds between heartbeat comments.
    let heartbeatInterval: TimeInterval
    /// The reconnection time sent to clients, in milliseconds.
    let retryMilliseconds: Int
    private let state = Locked(State())

    init(library: DocumentLibrary, heartbeatInterval: TimeInterval = 15, retryMilliseconds: Int = 1000) {
        self.library = library
        self.heartbeatInterval = heartbeatInterval
        self.retryMilliseconds = retryMilliseconds
    }

    /// Whether `path` asks for an event stream.
    static func isEventsPath(_ path: String) -> Bool { path == "/events" || path.hasPrefix("/events/") }

    /// How many streams are open.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Announces the new version of each document a reload loaded or changed.
    func publish(_ changes: [DocumentLibrary.Change]) {
        for change in changes {
            switch change {
            case .loaded(let document), .reloaded(let document):
                let open = state.withLock { state -> [AsyncStream<Data>.Continuation] in
                    state.versions[document.path, default: 0] += 1
                    return state.subscribers.values.filter { $0.path == document.path }.map(\.continuation)
                }
                let event = announcement(of: document)
                for continuation in open { continuation.yield(event) }
            case .refused, .removed:
                break  // The last good version stays served: nothing new to announce.
            }
        }
    }

    /// Sends a heartbeat comment to every open stream.
    func sendHeartbeat() {
        let open = state.withLock { $0.subscribers.values.map(\.continuation) }
        let comment = Data(": heartbeat\n\n".utf8)
        for continuation in open { continuation.yield(comment) }
    }

    /// Ends every stream (the server is stopping).
    func finishAll() {
        let open = state.withLock { state in
            defer { state.subscribers = [:] }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in open { continuation.finish() }
    }

    /// The response to a `GET /events…` request, and the record for the log.
    func respond(to request: HTTPRequest) -> (HTTPResponse, RequestRecord) {
        var record = RequestRecord(
            date: Date(), method: request.method.rawValue, path: request.path, status: 200, ifNoneMatch: nil,
            ifModifiedSince: nil, etag: nil, lastModified: nil, bytes: 0, simulated: nil, delayed: 0)
        guard request.method == .GET else {
            record.status = 405
            return (Self.text(405, "only GET opens an event stream\n"), record)
        }
        let documentPath = String(request.path.dropFirst("/events".count))
        guard case .document(let document) = library.lookup(documentPath.isEmpty ? "/" : documentPath) else {
            record.status = 404
            let available = library.paths.map { "/events" + $0 }.joined(separator: ", ")
            return (Self.text(404, "no document to follow at \(request.path); try: \(available)\n"), record)
        }
        record.etag = document.etag
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.subscribers[state.nextID] = Subscriber(path: document.path, continuation: continuation)
            return state.nextID
        }
        continuation.onTermination = { [state] _ in
            _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        continuation.yield(Data("retry: \(retryMilliseconds)\n".utf8) + announcement(of: document))
        var headers = HTTPHeaders()
        headers[.contentType] = "text/event-stream"
        headers[HTTPHeader("Cache-Control")] = "no-cache"
        return (
            HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: EventStreamBody(stream: stream))), record
        )
    }

    /// `id: <n>` and `data: <etag>`, for the document's current version.
    private func announcement(of document: DocumentLibrary.Document) -> Data {
        let version = state.withLock { $0.versions[document.path, default: 1] }
        return Data("id: \(version)\ndata: \(document.etag)\n\n".utf8)
    }

    private static func text(_ status: Int, _ message: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "text/plain; charset=utf-8"
        return HTTPResponse(
            statusCode: HTTPStatusCode(status, phrase: RequestRecord.reason(for: status)), headers: headers,
            body: Data(message.utf8))
    }
}

/// An event stream's body: the chunks the hub yields, as they come, until the stream finishes.
struct EventStreamBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let stream: AsyncStream<Data>

    func makeAsyncIterator() -> Iterator { Iterator(inner: stream.makeAsyncIterator()) }

    /// Hands out each chunk, split to the size the server asks for.
    struct Iterator: AsyncBufferedIteratorProtocol {
        var inner: AsyncStream<Data>.Iterator
        var pending = Data()

        mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            if pending.isEmpty {
                guard let chunk = await inner.next() else { return nil }
                pending = chunk
            }
            let out = pending.prefix(Swift.max(1, count))
            pending = Data(pending.dropFirst(out.count))
            return Data(out)
        }
    }
}
