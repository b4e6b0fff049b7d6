import FlyingFox
import FlyingSocks
import Foundation

/// A configuration server for integration tests, on FlyingFox at 127.0.0.1 (a free port).
///
/// It serves published documents with a strong `ETag` and a `Last-Modified`, answers `304` to a
/// matching `If-None-Match` (weak comparison, lists and `*`) or, when there is no `If-None-Match`,
/// to an `If-Modified-Since` not older than the document. Faults are injected for the next
/// requests: any status with `Retry-After`, a delay, a hang, a wrong `Content-Length` or a
/// connection closed mid-body, an oversized body, a wrong content type, a redirect loop, an empty
/// body, or other bytes. Every request is recorded with the status it got, so tests can count
/// what reached the server.
///
/// ```swift
/// let server = try await TestConfigServer.start()
/// server.publish(#"{"greeting":"hello"}"#)
/// server.inject(.status(503, retryAfter: "120"))
/// …
/// await server.stop()
/// ```
final class TestConfigServer: Sendable {
    /// A misbehaviour for the next request(s).
    enum Fault: Sendable, Hashable, CustomStringConvertible {
        /// Answer with this status (and `Retry-After` when given) and a short text body.
        case status(Int, retryAfter: String? = nil)
        /// Answer normally, but only after this many seconds (a server slower than the client's timeout).
        case delay(TimeInterval)
        /// Never answer until ``TestConfigServer/releaseHangs()`` or ``TestConfigServer/stop()``.
        case hang
        /// Announce `extra` more bytes than the body has, send the body, then close the connection.
        case wrongContentLength(extra: Int)
        /// Send half of the body without a length (chunked), then close the connection.
        case closeMidBody
        /// Stream a JSON-typed body of this many bytes (declared with `Content-Length` or not).
        case oversized(bytes: Int, declared: Bool)
        /// Serve the document with this `Content-Type` (`nil`: none).
        case contentType(String?)
        /// Redirect between two paths forever.
        case redirectLoop
        /// Answer `200` with a JSON type and no body.
        case emptyBody
        /// Serve these bytes as JSON instead of the document (for a payload that does not decode).
        case body(Data)

        var description: String {
            switch self {
            case .status(let code, let retryAfter): "status \(code)" + (retryAfter.map { " Retry-After \($0)" } ?? "")
            case .delay(let seconds): "delay \(seconds) s"
            case .hang: "hang"
            case .wrongContentLength(let extra): "Content-Length \(extra) too large, then close"
            case .closeMidBody: "close mid-body"
            case .oversized(let bytes, let declared): "\(bytes)-byte body\(declared ? "" : " without length")"
            case .contentType(let type): "content type \(type ?? "none")"
            case .redirectLoop: "redirect loop"
            case .emptyBody: "empty body"
            case .body(let data): "\(data.count) other bytes"
            }
        }
    }

    /// One request as the server saw it.
    struct Recorded: Sendable {
        /// The path, without query.
        var path: String
        /// Header values by lowercased name.
        var headers: [String: String]
        /// The status answered (0 when the request was never answered).
        var status: Int
    }

    /// A published document.
    struct Document: Sendable {
        var body: Data
        var etag: String
        var lastModified: Date
        var cacheControl: String?
    }

    /// The port the server listens on.
    let port: UInt16
    private let state: ServerState
    private let runTask: Task<Void, Never>

    private init(port: UInt16, state: ServerState, runTask: Task<Void, Never>) {
        self.port = port
        self.state = state
        self.runTask = runTask
    }

    /// Starts a server and waits until it listens.
    static func start() async throws -> TestConfigServer {
        let state = ServerState()
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 120, logger: .disabled)
        await server.appendRoute("*") { request in await state.respond(to: request) }
        let runTask = Task<Void, Never> { _ = try? await server.run() }
        try await server.waitUntilListening(timeout: 10)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            runTask.cancel()
            throw TestServerError("the test server did not report an IPv4 port")
        }
        return TestConfigServer(port: port, state: state, runTask: runTask)
    }

    /// Runs `body` with a started server and stops it afterwards, whatever happens.
    static func with<T: Sendable>(_ body: (TestConfigServer) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String = "/config.json") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Publishes a new version of the document at `path`: a new `ETag` and a later `Last-Modified`.
    @discardableResult
    func publish(_ text: String, at path: String = "/config.json", cacheControl: String? = nil) -> Document {
        state.publish(Data(text.utf8), at: path, cacheControl: cacheControl)
    }

    /// The document currently at `path`.
    func document(at path: String = "/config.json") -> Document? { state.document(at: path) }

    /// Applies `fault` to the next `count` requests (any path).
    func inject(_ fault: Fault, count: Int = 1) { state.inject(fault, count: count) }

    /// Removes every pending fault.
    func clearFaults() { state.clearFaults() }

    /// Releases every request held by ``Fault/hang`` so far (later hangs hold again).
    func releaseHangs() { state.gate.release(permanently: false) }

    /// The requests received so far, in order.
    var requests: [Recorded] { state.requests }

    /// Stops the server: releases hangs and cancels its run task.
    func stop() async {
        state.gate.release(permanently: true)
        runTask.cancel()
        await runTask.value
    }

    /// An HTTP date (IMF-fixdate) for `date`.
    static func httpDate(_ date: Date) -> String { ServerState.formatter().string(from: date) }
}

/// An error of the test server itself.
struct TestServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The server's mutable state. `@unchecked Sendable`: every stored `var` is guarded by `lock`.
private final class ServerState: @unchecked Sendable {
    private let lock = NSLock()
    private var documents: [String: TestConfigServer.Document] = [:]
    private var faults: [TestConfigServer.Fault] = []
    private var log: [TestConfigServer.Recorded] = []
    private var version = 0
    let gate = ServerGate()

    /// A fixed, whole-second base so `Last-Modified` round-trips exactly.
    private static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    func publish(_ body: Data, at path: String, cacheControl: String?) -> TestConfigServer.Document {
        lock.lock()
        defer { lock.unlock() }
        version += 1
        let document = TestConfigServer.Document(
            body: body, etag: "\"v\(version)\"", lastModified: Self.epoch.addingTimeInterval(TimeInterval(version * 60)),
            cacheControl: cacheControl)
        documents[path] = document
        return document
    }

    func document(at path: String) -> TestConfigServer.Document? {
        lock.lock()
        defer { lock.unlock() }
        return documents[path]
    }

    func inject(_ fault: TestConfigServer.Fault, count: Int) {
        lock.lock()
        faults.append(contentsOf: Array(repeating: fault, count: count))
        lock.unlock()
    }

    func clearFaults() {
        lock.lock()
        faults.removeAll()
        lock.unlock()
    }

    var requests: [TestConfigServer.Recorded] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    /// Records the request, takes the next fault, and returns the index of the log entry.
    private func begin(_ request: HTTPRequest) -> (
        index: Int, fault: TestConfigServer.Fault?, document: TestConfigServer.Document?
    ) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        lock.lock()
        defer { lock.unlock() }
        log.append(.init(path: request.path, headers: headers, status: 0))
        let fault = request.path.hasPrefix("/__loop") || faults.isEmpty ? nil : faults.removeFirst()
        return (log.count - 1, fault, documents[request.path])
    }

    private func finish(_ index: Int, _ response: HTTPResponse) -> HTTPResponse {
        lock.lock()
        log[index].status = response.statusCode.code
        lock.unlock()
        return response
    }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let (index, fault, document) = begin(request)
        if request.path == "/__loop/a" { return finish(index, Self.make(302, ["Location": "/__loop/b"])) }
        if request.path == "/__loop/b" { return finish(index, Self.make(302, ["Location": "/__loop/a"])) }
        switch fault {
        case .status(let code, let retryAfter)?:
            var headers = ["Content-Type": "text/plain"]
            if let retryAfter { headers["Retry-After"] = retryAfter }
            return finish(index, Self.make(code, headers, body: Data("injected \(code)".utf8)))
        case .delay(let seconds)?:
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return finish(index, serve(request, document))
        case .hang?:
            await gate.wait()
            return finish(index, Self.make(503))
        case .wrongContentLength(let extra)?:
            let body = document?.body ?? Data("{}".utf8)
            return finish(index, Self.streaming(prefix: body, declared: body.count + extra, failAtEnd: true))
        case .closeMidBody?:
            let body = document?.body ?? Data("{}".utf8)
            return finish(index, Self.streaming(prefix: body.prefix(body.count / 2), declared: nil, failAtEnd: true))
        case .oversized(let bytes, let declared)?:
            return finish(index, Self.streaming(fillerCount: bytes, declared: declared ? bytes : nil, failAtEnd: false))
        case .contentType(let type)?:
            var headers: [String: String] = [:]
            if let type { headers["Content-Type"] = type }
            return finish(index, Self.make(200, headers, body: document?.body ?? Data("{}".utf8)))
        case .redirectLoop?:
            return finish(index, Self.make(302, ["Location": "/__loop/a"]))
        case .emptyBody?:
            return finish(index, Self.make(200, ["Content-Type": "application/json"]))
        case .body(let data)?:
            return finish(index, Self.make(200, ["Content-Type": "application/json"], body: data))
        case nil:
            return finish(index, serve(request, document))
        }
    }

    /// The document, or a 304 when the request's validators match it, or a 404.
    private func serve(_ request: HTTPRequest, _ document: TestConfigServer.Document?) -> HTTPResponse {
        guard let document else { return Self.make(404, ["Content-Type": "text/plain"], body: Data("no such document".utf8)) }
        var headers = ["ETag": document.etag, "Last-Modified": Self.formatter().string(from: document.lastModified)]
        if let cacheControl = document.cacheControl { headers["Cache-Control"] = cacheControl }
        if let ifNoneMatch = request.headers[HTTPHeader("If-None-Match")] {
            if Self.matches(ifNoneMatch, etag: document.etag) { return Self.make(304, headers) }
        } else if let since = request.headers[HTTPHeader("If-Modified-Since")], let date = Self.formatter().date(from: since),
            document.lastModified <= date
        {
            return Self.make(304, headers)
        }
        headers["Content-Type"] = "application/json"
        return Self.make(200, headers, body: document.body)
    }

    /// Weak comparison of an `If-None-Match` list against an entity tag.
    private static func matches(_ list: String, etag: String) -> Bool {
        func opaque(_ tag: String) -> String {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
        }
        return list.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == opaque(etag)
        }
    }

    static func make(_ status: Int, _ headers: [String: String] = [:], body: Data = Data()) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        for (name, value) in headers { httpHeaders[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status"), headers: httpHeaders, body: body)
    }

    static func streaming(prefix: Data = Data(), fillerCount: Int = 0, declared: Int?, failAtEnd: Bool) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "application/json"
        let bytes = FaultyBytes(prefix: prefix, fillerCount: fillerCount, failAtEnd: failAtEnd)
        let body =
            declared.map { HTTPBodySequence(from: bytes, count: $0, suggestedBufferSize: 16_384) }
            ?? HTTPBodySequence(from: bytes, suggestedBufferSize: 16_384)
        return HTTPResponse(statusCode: .ok, headers: headers, body: body)
    }
}

/// Bytes sent as a body: `prefix`, then `fillerCount` spaces made on the fly; optionally ending by
/// throwing, which makes FlyingFox close the connection mid-body.
private struct FaultyBytes: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    var prefix: Data
    var fillerCount: Int
    var failAtEnd: Bool

    func makeAsyncIterator() -> Iterator { Iterator(source: self) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let source: FaultyBytes
        var offset = 0

        mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            let total = source.prefix.count + source.fillerCount
            if offset >= total {
                if source.failAtEnd { throw TestServerError("connection dropped on purpose") }
                return nil
            }
            let end = Swift.min(offset + Swift.max(count, 1), total)
            var chunk = Data()
            if offset < source.prefix.count {
                let start = source.prefix.startIndex
                chunk.append(source.prefix.subdata(in: start + offset..<start + Swift.min(end, source.prefix.count)))
            }
            let fillerStart = Swift.max(offset, source.prefix.count)
            if end > fillerStart { chunk.append(Data(repeating: UInt8(ascii: " "), count: end - fillerStart)) }
            offset = end
            return chunk
        }
    }
}

/// Holds requests until released; a permanent release lets every later request through.
/// `@unchecked Sendable`: `opened` and `waiters` are guarded by `lock`.
final class ServerGate: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if opened {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    func release(permanently: Bool) {
        lock.lock()
        if permanently { opened = true }
        let released = waiters
        waiters = []
        lock.unlock()
        for waiter in released { waiter.resume() }
    }
}
