import ConfigPorts
import FlyingFox
import FlyingSocks
import Foundation
import TestSupport

/// The body of one streamed response: bytes the test sends, as they are sent, until it closes.
final class EventFeed: Sendable {
    let headers: [String: String]
    private let stream: AsyncStream<Data>
    private let continuation: AsyncStream<Data>.Continuation

    init(headers: [String: String]) {
        self.headers = headers
        (stream, continuation) = AsyncStream<Data>.makeStream()
    }

    /// Sends text (UTF-8) to the client.
    func send(_ text: String) { continuation.yield(Data(text.utf8)) }

    /// Sends bytes to the client.
    func send(bytes: Data) { continuation.yield(bytes) }

    /// Ends the response (the chunked body's last chunk).
    func close() { continuation.finish() }

    /// The chunked body.
    var body: HTTPBodySequence { HTTPBodySequence(from: Bytes(stream: stream)) }

    /// The feed as FlyingFox's buffered byte sequence.
    struct Bytes: AsyncBufferedSequence, Sendable {
        typealias Element = UInt8
        let stream: AsyncStream<Data>
        func makeAsyncIterator() -> Iterator { Iterator(inner: stream.makeAsyncIterator()) }

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
}

/// An SSE endpoint on the shared test server: every request opens a feed the test drives, or gets
/// the answer the test queued instead.
final class EventEndpoint: Sendable {
    private struct State {
        var feeds: [EventFeed] = []
        var queued: [HTTPResponse] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// Answers the next request with `response` instead of a stream.
    func queue(_ response: HTTPResponse) { state.withLock { $0.queued.append(response) } }

    /// The handler for TestHTTPServer.
    func respond(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        let feed = EventFeed(headers: headers)
        let (queued, ready) = state.withLock { state in
            state.feeds.append(feed)
            let ready = state.waiters.filter { state.feeds.count >= $0.count }.map(\.continuation)
            state.waiters.removeAll { state.feeds.count >= $0.count }
            return (state.queued.isEmpty ? nil : state.queued.removeFirst(), ready)
        }
        for waiter in ready { waiter.resume() }
        if let queued { return queued }
        var responseHeaders = HTTPHeaders()
        responseHeaders[.contentType] = "text/event-stream"
        responseHeaders[HTTPHeader("Cache-Control")] = "no-cache"
        return HTTPResponse(statusCode: .ok, headers: responseHeaders, body: feed.body)
    }

    /// The feed of the `count`th request (1-based), once it has arrived.
    func connection(_ count: Int) async -> EventFeed {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.feeds.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.feeds[count - 1] }
    }

    /// How many requests arrived.
    var count: Int { state.withLock { $0.feeds.count } }

    /// Sends `text` to every feed opened so far.
    func broadcast(_ text: String) { for feed in state.withLock({ $0.feeds }) { feed.send(text) } }

    /// Closes every feed (for the end of a test).
    func closeAll() { for feed in state.withLock({ $0.feeds }) { feed.close() } }
}
