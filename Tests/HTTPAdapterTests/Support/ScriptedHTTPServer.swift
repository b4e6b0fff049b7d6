import FlyingFox
import FlyingSocks
import Foundation

/// A FlyingFox server on 127.0.0.1 (a free port) that answers every request with a closure the
/// test supplies, and records what it was asked. Unit tests use it instead of a URLProtocol stub so
/// the fetcher's real URLSession path (libcurl on Linux) is exercised.
///
/// The richer, stateful `TestConfigServer` lives in the integration tests; SwiftPM test targets
/// cannot share sources, so this one stays deliberately small.
final class ScriptedHTTPServer: Sendable {
    /// One request as the server saw it.
    struct Recorded: Sendable {
        /// The path, without query.
        var path: String
        /// Header values by lowercased name.
        var headers: [String: String]
    }

    /// The port the server listens on.
    let port: UInt16
    private let runTask: Task<Void, Never>
    private let log: RequestLog

    private init(port: UInt16, runTask: Task<Void, Never>, log: RequestLog) {
        self.port = port
        self.runTask = runTask
        self.log = log
    }

    /// Starts a server that answers with `handler`, and waits until it listens.
    static func start(
        _ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> ScriptedHTTPServer {
        let log = RequestLog()
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled)
        await server.appendRoute("*") { request in
            log.append(request)
            return try await handler(request)
        }
        let runTask = Task<Void, Never> { _ = try? await server.run() }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            runTask.cancel()
            throw ServerError("the test server did not report an IPv4 port")
        }
        return ScriptedHTTPServer(port: port, runTask: runTask, log: log)
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String = "/config.json") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The requests received so far, in order.
    var requests: [Recorded] { log.all }

    /// Stops the server by cancelling its run task (FlyingFox's `stop(timeout:)` waits the full timeout).
    func stop() async {
        runTask.cancel()
        await runTask.value
    }

    /// Runs `body` with a started server and stops it afterwards, whatever happens.
    static func with<T: Sendable>(
        _ handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse,
        _ body: (ScriptedHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try await start(handler)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// An error of the test server itself.
struct ServerError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
    init(_ description: String) { self.description = description }
}

/// The requests a server received. `@unchecked Sendable`: `entries` is guarded by `lock`.
final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [ScriptedHTTPServer.Recorded] = []

    func append(_ request: HTTPRequest) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        lock.lock()
        entries.append(.init(path: request.path, headers: headers))
        lock.unlock()
    }

    var all: [ScriptedHTTPServer.Recorded] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}

/// Makes FlyingFox responses with the faults the tests need.
enum Reply {
    /// A response with these headers and body.
    static func make(_ status: Int, _ headers: [String: String] = [:], body: Data = Data()) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        for (name, value) in headers { httpHeaders[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status"), headers: httpHeaders, body: body)
    }

    /// A JSON `200`.
    static func json(_ text: String, _ headers: [String: String] = [:]) -> HTTPResponse {
        var all = ["Content-Type": "application/json"]
        all.merge(headers) { _, new in new }
        return make(200, all, body: Data(text.utf8))
    }

    /// A `200` that announces `declared` bytes, sends `sent` of them, then drops the connection.
    static func truncated(declared: Int, sent: Data) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        httpHeaders[.contentType] = "application/json"
        return HTTPResponse(
            statusCode: .ok, headers: httpHeaders,
            body: HTTPBodySequence(from: FailingBytes(prefix: sent), count: declared))
    }

    /// A `200` that announces `declared` bytes, sends `prefix`, then stalls until `gate` opens.
    static func stalling(declared: Int, prefix: Data, gate: Gate) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        httpHeaders[.contentType] = "application/json"
        return HTTPResponse(
            statusCode: .ok, headers: httpHeaders,
            body: HTTPBodySequence(from: StallingBytes(prefix: prefix, gate: gate), count: declared))
    }

    /// A chunked `200` that sends `sent` and then drops the connection (no length to compare with).
    static func droppedChunked(sent: Data) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        httpHeaders[.contentType] = "application/json"
        return HTTPResponse(statusCode: .ok, headers: httpHeaders, body: HTTPBodySequence(from: FailingBytes(prefix: sent)))
    }

    /// A `200` that streams `count` bytes of filler in chunks, with or without `Content-Length`,
    /// counting what it hands over in `counter`.
    static func large(_ count: Int, declareLength: Bool, counter: ByteCounter? = nil) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        httpHeaders[.contentType] = "application/json"
        let bytes = FailingBytes(fillerCount: count, failAtEnd: false, counter: counter)
        return HTTPResponse(
            statusCode: .ok, headers: httpHeaders,
            body: declareLength
                ? HTTPBodySequence(from: bytes, count: count, suggestedBufferSize: 16_384)
                : HTTPBodySequence(from: bytes, suggestedBufferSize: 16_384))
    }
}

/// Bytes that end by throwing (so FlyingFox closes the connection mid-body), or just end.
///
/// `prefix` is sent first, then `fillerCount` spaces made on the fly (so a huge body costs no memory).
struct FailingBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    var prefix = Data()
    var fillerCount = 0
    var failAtEnd = true
    var counter: ByteCounter?

    func makeAsyncIterator() -> Iterator { Iterator(source: self) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let source: FailingBytes
        var offset = 0

        mutating func next() async throws -> UInt8? {
            guard let chunk = try await nextBuffer(suggested: 1) else { return nil }
            return chunk.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            let total = source.prefix.count + source.fillerCount
            if offset >= total {
                if source.failAtEnd { throw ServerError("connection dropped on purpose") }
                return nil
            }
            let end = Swift.min(offset + Swift.max(count, 1), total)
            var chunk = Data()
            if offset < source.prefix.count {
                let prefixEnd = Swift.min(end, source.prefix.count)
                chunk.append(source.prefix.subdata(in: source.prefix.startIndex + offset..<source.prefix.startIndex + prefixEnd))
            }
            let fillerStart = Swift.max(offset, source.prefix.count)
            if end > fillerStart { chunk.append(Data(repeating: UInt8(ascii: " "), count: end - fillerStart)) }
            offset = end
            source.counter?.add(chunk.count)
            return chunk
        }
    }
}

/// Sends a prefix, then waits on a gate before ending (the stall of a slow server mid-body).
struct StallingBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let prefix: Data
    let gate: Gate

    func makeAsyncIterator() -> Iterator { Iterator(prefix: prefix, gate: gate) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let prefix: Data
        let gate: Gate
        var sent = false

        mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            if !sent {
                sent = true
                return prefix
            }
            await gate.wait()
            throw ServerError("stalled body released")
        }
    }
}

/// A one-shot gate a server handler waits on until the test opens it (never a sleep).
final class Gate: @unchecked Sendable {
    // `@unchecked Sendable`: `opened` and `waiters` are guarded by `lock`.
    private let lock = NSLock()
    private var opened = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Suspends until ``open()`` (returns at once if already open).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if opened {
                lock.unlock()
                continuation.resume()
                return
            }
            waiters.append(continuation)
            lock.unlock()
        }
    }

    /// Opens the gate and releases every waiter.
    func open() {
        lock.lock()
        opened = true
        let released = waiters
        waiters = []
        lock.unlock()
        for waiter in released { waiter.resume() }
    }
}
