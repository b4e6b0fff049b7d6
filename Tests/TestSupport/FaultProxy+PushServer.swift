import ConfigPorts
import FlyingFox
import FlyingSocks
import Foundation

extension FaultProxy {
    /// A real HTTP server (``TestHTTPServer``) to put behind a ``FaultProxy``: it publishes one
    /// configuration, `{"revision": n}`, as versions 1, 2, 3 …, and pushes each over the protocols the
    /// library's push adapters speak.
    ///
    /// - `GET /config.json`: the document, with `ETag: "v<n>"`, and `304` for a matching `If-None-Match`.
    /// - `GET /events`: server-sent events as `remote-config serve` sends them: `retry:` and the current
    ///   version first (`id: <n>`, `data: "v<n>"`), then one event per version.
    /// - `POST /ofrep/v1/evaluate/flags`: an OFREP bulk evaluation (the flag `revision`), with
    ///   `ETag: "o<n>"` and `304` for a match; it names the event stream `/ofrep/events` under
    ///   ``streamBase`` (set it to the proxy, so the stream goes through it).
    /// - `GET /ofrep/events`: server-sent events, `{"type":"refetchEvaluation","etag":"\"o<n>\""}` per version.
    ///
    /// Every stream gets a `: heartbeat` comment every `heartbeat` seconds. Each event and each
    /// heartbeat is one chunk of the chunked response, so the proxy's `halfEvent` and `replay` cut and
    /// repeat whole events. ``stop()`` ends every stream and stops the server.
    package final class PushServer: Sendable {
        private struct State {
            var version = 1
            var streamBase: URL?
            var nextID = 0
            var streams: [Int: (kind: StreamKind, continuation: AsyncStream<Data>.Continuation)] = [:]
            var opened = 0
        }

        private enum StreamKind { case sse, ofrep }

        /// The server (its port is what the proxy forwards to).
        package let http: TestHTTPServer
        private let state: Locked<State>
        private let heartbeats: Task<Void, Never>

        private init(http: TestHTTPServer, state: Locked<State>, heartbeats: Task<Void, Never>) {
            self.http = http
            self.state = state
            self.heartbeats = heartbeats
        }

        /// Starts a server holding version 1 that sends a heartbeat on every stream each `heartbeat` seconds.
        package static func start(heartbeat: TimeInterval) async throws -> PushServer {
            let state = Locked(State())
            let http = try await TestHTTPServer.start { request in Self.respond(to: request, state: state) }
            state.withLock { $0.streamBase = http.url("/") }
            let heartbeats = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(nanoseconds: UInt64(heartbeat * 1_000_000_000))  // the server's pace
                    for stream in state.withLock({ Array($0.streams.values) }) {
                        stream.continuation.yield(Data(": heartbeat\n\n".utf8))
                    }
                }
            }
            return PushServer(http: http, state: state, heartbeats: heartbeats)
        }

        /// Runs `body` with a started server, and stops it afterwards, whatever happens.
        package static func with<T: Sendable>(heartbeat: TimeInterval, _ body: (PushServer) async throws -> T) async throws -> T {
            let server = try await start(heartbeat: heartbeat)
            do {
                let result = try await body(server)
                await server.stop()
                return result
            } catch {
                await server.stop()
                throw error
            }
        }

        /// The server's port.
        package var port: UInt16 { http.port }

        /// The newest version published.
        package var version: Int { state.withLock { $0.version } }

        /// How many event streams were opened so far (both kinds).
        package var streamsOpened: Int { state.withLock { $0.opened } }

        /// Where the OFREP bulk evaluation says the event stream is: `<base>/ofrep/events` (the server itself until set).
        package func nameStreams(at base: URL) { state.withLock { $0.streamBase = base } }

        /// Publishes the next version and announces it on every open stream; returns it.
        @discardableResult
        package func publish() -> Int {
            let (version, streams) = state.withLock { state in
                state.version += 1
                return (state.version, Array(state.streams.values))
            }
            for stream in streams { stream.continuation.yield(Self.event(version, stream.kind)) }
            return version
        }

        /// Ends every stream and stops the server.
        package func stop() async {
            heartbeats.cancel()
            await heartbeats.value
            for stream in state.withLock({ state in
                defer { state.streams = [:] }
                return Array(state.streams.values)
            }) { stream.continuation.finish() }
            await http.stop()
        }

        // MARK: Answers

        private static func respond(to request: HTTPRequest, state: Locked<State>) -> HTTPResponse {
            let ifNoneMatch = request.headers[HTTPHeader("If-None-Match")]
            switch (request.method, request.path) {
            case (.GET, "/config.json"):
                let version = state.withLock { $0.version }
                let etag = "\"v\(version)\""
                if ifNoneMatch == etag { return Reply.make(304, ["ETag": etag]) }
                return Reply.json(#"{"revision": \#(version)}"#, ["ETag": etag])
            case (.POST, "/ofrep/v1/evaluate/flags"):
                let (version, base) = state.withLock { ($0.version, $0.streamBase) }
                let etag = "\"o\(version)\""
                if ifNoneMatch == etag { return Reply.make(304, ["ETag": etag]) }
                let streamURL = base.map { $0.appendingPathComponent("ofrep/events").absoluteString } ?? "/ofrep/events"
                return Reply.json(
                    #"{"flags":[{"key":"revision","value":\#(version),"reason":"STATIC","variant":"v\#(version)"}],"#
                        + #""eventStreams":[{"type":"sse","url":"\#(streamURL)"}]}"#,
                    ["ETag": etag])
            case (.GET, "/events"):
                return openStream(.sse, state: state)
            case (.GET, "/ofrep/events"):
                return openStream(.ofrep, state: state)
            default:
                return Reply.make(404, ["Content-Type": "text/plain"], body: Data("no \(request.path) here\n".utf8))
            }
        }

        /// A chunked `text/event-stream` response fed until the server stops or the client goes away.
        private static func openStream(_ kind: StreamKind, state: Locked<State>) -> HTTPResponse {
            let (stream, continuation) = AsyncStream<Data>.makeStream()
            let (id, version) = state.withLock { state in
                state.nextID += 1
                state.opened += 1
                state.streams[state.nextID] = (kind, continuation)
                return (state.nextID, state.version)
            }
            continuation.onTermination = { _ in _ = state.withLock { $0.streams.removeValue(forKey: id) } }
            switch kind {
            case .sse: continuation.yield(Data("retry: 50\n".utf8) + event(version, .sse))
            case .ofrep: continuation.yield(Data(": connected\n\n".utf8))
            }
            var headers = HTTPHeaders()
            headers[.contentType] = "text/event-stream"
            headers[HTTPHeader("Cache-Control")] = "no-cache"
            return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: ChunkPerData(stream: stream)))
        }

        /// The announcement of `version` on a stream of `kind`.
        private static func event(_ version: Int, _ kind: StreamKind) -> Data {
            switch kind {
            case .sse: Data("id: \(version)\ndata: \"v\(version)\"\n\n".utf8)
            case .ofrep: Data("id: \(version)\ndata: {\"type\":\"refetchEvaluation\",\"etag\":\"\\\"o\(version)\\\"\"}\n\n".utf8)
            }
        }
    }

    /// A body that hands each `Data` the stream yields to the server whole (FlyingFox sends each as one chunk).
    struct ChunkPerData: AsyncBufferedSequence, Sendable {
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
