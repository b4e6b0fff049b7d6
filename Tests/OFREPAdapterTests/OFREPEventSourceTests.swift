import ConfigDomain
import ConfigPorts
import FlyingFox
import FlyingSocks
import Foundation
import TestDoubles
import TestSupport
import Testing

@testable import OFREPAdapter

/// An event stream the test writes to, as one chunked response.
private final class Feed: Sendable {
    let path: String
    private let continuation: AsyncStream<Data>.Continuation
    let body: HTTPBodySequence

    init(path: String) {
        self.path = path
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        self.continuation = continuation
        body = HTTPBodySequence(from: Bytes(stream: stream))
    }

    func send(_ text: String) { continuation.yield(Data(text.utf8)) }

    /// Ends the response (the server closes the stream).
    func close() { continuation.finish() }

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

/// An OFREP server whose bulk evaluations name event streams, and whose streams the test drives.
private final class PushingServer: Sendable {
    private struct State {
        var eventStreams = "[]"
        var feeds: [Feed] = []
        var feedWaiters: [(Int, CheckedContinuation<Feed, Never>)] = []
        var queries: [[String: String]] = []
    }

    private let state = Locked(State())

    /// What the next bulk evaluations put in `eventStreams` (JSON).
    func announce(_ eventStreams: String) { state.withLock { $0.eventStreams = eventStreams } }

    /// The query of each bulk evaluation request.
    var queries: [[String: String]] { state.withLock { $0.queries } }

    /// The `count`th stream opened (from 1), once it is.
    func feed(_ count: Int) async -> Feed {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> Feed? in
                if s.feeds.count >= count { return s.feeds[count - 1] }
                s.feedWaiters.append((count, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func respond(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path == "/ofrep/v1/evaluate/flags" {
            var query: [String: String] = [:]
            for item in request.query { query[item.name] = item.value }
            let streams = state.withLock { s in
                s.queries.append(query)
                return s.eventStreams
            }
            return Reply.json(#"{"flags":[],"eventStreams":\#(streams)}"#)
        }
        let feed = Feed(path: request.path)
        let ready = state.withLock { s -> [(CheckedContinuation<Feed, Never>, Feed)] in
            s.feeds.append(feed)
            let count = s.feeds.count
            let ready = s.feedWaiters.filter { $0.0 <= count }.map { ($0.1, s.feeds[$0.0 - 1]) }
            s.feedWaiters.removeAll { $0.0 <= count }
            return ready
        }
        for (waiter, feed) in ready { waiter.resume(returning: feed) }
        var headers = HTTPHeaders()
        headers[.contentType] = "text/event-stream"
        return HTTPResponse(statusCode: .ok, headers: headers, body: feed.body)
    }
}

@Suite("OFREP event source")
struct OFREPEventSourceTests {
    @Test("the source connects once a fetch names a stream, signals on connection and on each refetchEvaluation")
    func signals() async throws {
        let server = PushingServer()
        try await TestHTTPServer.with({ await server.respond($0) }) { http in
            let fetcher = try OFREPFetcher(endpoint: http.url("/"))
            let source = fetcher.eventSource()
            #expect(source.name.hasPrefix("ofrep events from http://127.0.0.1"))
            let subscription = SignalSubscription(source)
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()

            server.announce(
                #"[{"type":"websocket","url":"ws://127.0.0.1:1/x"},{"type":"sse","url":"\#(http.url("/events?channel=secret"))"}]"#
            )
            _ = try await fetcher.fetch(FetchRequest())
            let feed = await server.feed(1)
            #expect(feed.path == "/events")
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .changed(version: nil))  // the connection opened: fetch

            feed.send(": heartbeat\n\nevent: message\ndata: {\"type\":\"somethingElse\"}\n\n")
            feed.send(
                "id: e1\nevent: message\ndata: {\"type\": \"refetchEvaluation\",\r\ndata: \"etag\": \"\\\"abc\\\"\", \"lastModified\": 1771622898}\r\n\r\n"
            )
            #expect(await signals.next() == .changed(version: nil))
            _ = try await fetcher.fetch(FetchRequest())
            #expect(server.queries.last == ["flagConfigEtag": "\"abc\"", "flagConfigLastModified": "1771622898"])
            _ = try await fetcher.fetch(FetchRequest())
            #expect(server.queries.last == [:])  // the metadata goes with the one fetch the event triggered
        }
    }

    @Test("an endpoint without an origin takes the fetcher's; a new set of streams reconnects")
    func followsTheLatestSet() async throws {
        let server = PushingServer()
        try await TestHTTPServer.with({ await server.respond($0) }) { http in
            let fetcher = try OFREPFetcher(endpoint: http.url("/"))
            let subscription = SignalSubscription(fetcher.eventSource())
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            server.announce(#"[{"type":"sse","endpoint":{"requestUri":"/first"}}]"#)
            _ = try await fetcher.fetch(FetchRequest())
            #expect(await server.feed(1).path == "/first")
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .changed(version: nil))
            server.announce(
                #"[{"type":"sse","endpoint":{"origin":"\#(http.url("/").absoluteString.dropLast())","requestUri":"/second"}}]"#)
            _ = try await fetcher.fetch(FetchRequest())
            #expect(await server.feed(2).path == "/second")
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .changed(version: nil))
            let stale = await server.feed(1)
            stale.send("data: {\"type\":\"refetchEvaluation\"}\n\n")  // the old connection is closed: nothing arrives
            let fresh = await server.feed(2)
            fresh.send("data: {\"type\":\"refetchEvaluation\",\"etag\":\"e2\"}\n\n")
            #expect(await signals.next() == .changed(version: nil))
            _ = try await fetcher.fetch(FetchRequest())
            #expect(server.queries.last?["flagConfigEtag"] == "e2")
        }
    }

    @Test("the event lines: data joined, blank line dispatches, CR LF split across chunks, comments and ids")
    func lines() throws {
        var lines = EventLines(maxLineBytes: 64, lastEventID: nil)
        #expect(lines.feed(Data("data: a\r".utf8)) == [])
        #expect(lines.feed(Data("\ndata:b\r\n: c\nid: 7\n\r\n".utf8)) == ["a\nb"])
        #expect(lines.lastEventID == "7")
        #expect(lines.feed(Data("\n\nevent: x\n\n".utf8)) == [])  // no data: nothing dispatched
        #expect(lines.feed(Data(String(repeating: "x", count: 65).utf8)) == nil)  // over the line limit
    }
}

/// The OFREP source's connection reports, heartbeat timeout and reconnect delays, on a manual clock.
@Suite("OFREP event source: connection reports")
struct OFREPEventSourceConnectionTests {
    /// Runs `body` with a fetcher whose bulk evaluations name `streams` event streams on a test server,
    /// and the signals of its event source (the configuration changed by `configure`, on `clock`).
    private func withSignals(
        streams: Int = 1, clock: ManualClock, configure: (inout OFREPEventSource.Configuration) -> Void = { _ in },
        _ body: (inout AsyncStream<ChangeSignal>.Iterator, PushingServer) async throws -> Void
    ) async throws {
        let server = PushingServer()
        try await TestHTTPServer.with({ await server.respond($0) }) { http in
            let fetcher = try OFREPFetcher(endpoint: http.url("/"))
            var configuration = OFREPEventSource.Configuration(
                initialDelay: 2, maxDelay: 8, heartbeatTimeout: nil, clock: clock, random: { 0.5 })
            configure(&configuration)
            let subscription = SignalSubscription(fetcher.eventSource(configuration: configuration))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            let named = (1...streams).map { index in
                let url = http.url("/events/\(index)").absoluteString
                return #"{"type":"sse","url":"\#(url)"}"#
            }
            server.announce("[" + named.joined(separator: ",") + "]")
            _ = try await fetcher.fetch(FetchRequest())
            try await body(&signals, server)
        }
    }

    /// The next connection report, skipping changes.
    private func nextReport(_ signals: inout AsyncStream<ChangeSignal>.Iterator) async -> PushConnection? {
        while let signal = await signals.next() {
            if case .connection(let connection) = signal { return connection }
        }
        return nil
    }

    @Test("a stream the server ends is reported down with the reconnect delay, and connected again when back")
    func endedStream() async throws {
        let clock = ManualClock()
        try await withSignals(clock: clock) { signals, server in
            let first = await server.feed(1)
            #expect(await nextReport(&signals) == .connected)
            first.close()
            guard case .disconnected(let reason, let retryIn)? = await nextReport(&signals) else {
                Issue.record("an ended stream must be reported down")
                return
            }
            #expect(reason == "the server ended the event stream")
            #expect(!reason.contains("127.0.0.1"), "a stream URL may carry a token: never in a message")
            #expect(retryIn == 1, "half (random 0.5) of the first delay, 2 s")
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 1)
            _ = await server.feed(2)
            #expect(await nextReport(&signals) == .connected)
        }
    }

    @Test("a stream silent past the heartbeat timeout is dropped, reported down, and reopened")
    func silentStream() async throws {
        let clock = ManualClock()
        try await withSignals(clock: clock, configure: { $0.heartbeatTimeout = 30 }) { signals, server in
            let first = await server.feed(1)
            #expect(await nextReport(&signals) == .connected)
            first.send(": heartbeat\n\n")
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 30)
            guard case .disconnected(let reason, _)? = await nextReport(&signals) else {
                Issue.record("a silent stream must be reported down")
                return
            }
            #expect(reason.contains("nothing arrived on the event stream for 30"), "\(reason)")
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 1)
            _ = await server.feed(2)
            #expect(await nextReport(&signals) == .connected)
        }
    }

    @Test("with two streams, the source is down while either is, and connected only once both are back")
    func twoStreams() async throws {
        let clock = ManualClock()
        try await withSignals(streams: 2, clock: clock) { signals, server in
            let first = await server.feed(1)
            _ = await server.feed(2)
            #expect(await nextReport(&signals) == .connected)
            #expect(await nextReport(&signals) == .connected)
            first.close()
            guard case .disconnected(let reason, _)? = await nextReport(&signals) else {
                Issue.record("a dropped stream must be reported down")
                return
            }
            #expect(reason.contains("event stream 1 of 2") || reason.contains("event stream 2 of 2"), "\(reason)")
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 1)
            _ = await server.feed(3)
            #expect(await nextReport(&signals) == .connected)
        }
    }

    @Test("the reconnect delay doubles from the initial delay up to the maximum, with full jitter")
    func delays() {
        let full = OFREPEventSource.Configuration(initialDelay: 0.5, maxDelay: 2, random: { 1 })
        #expect((1...5).map { full.delay(afterFailures: $0) } == [0.5, 1, 2, 2, 2])
        let none = OFREPEventSource.Configuration(initialDelay: 0.5, maxDelay: 2, random: { 0 })
        #expect(none.delay(afterFailures: 3) == 0)
    }
}
