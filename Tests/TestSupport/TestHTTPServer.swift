import FlyingFox
import FlyingSocks
import Foundation

/// An HTTP server for tests, on FlyingFox at 127.0.0.1 (a free port), with `TCP_NODELAY` set.
///
/// It answers each request with the closure the test gave, or, without one, serves the documents
/// published on it with a strong `ETag` and a `Last-Modified`, and `304` when the request's
/// validators match. Faults injected with ``inject(_:count:)`` take the place of the next answers
/// (any status with `Retry-After`, a delay, a hang, a wrong `Content-Length` or a connection closed
/// mid-body, an oversized body, a wrong content type, a redirect loop, an empty body, other bytes).
/// Every request is recorded with the status it got, so tests can count what reached the server.
///
/// ```swift
/// try await TestHTTPServer.with { server in
///     server.publish(#"{"greeting":"hello"}"#)
///     server.inject(.status(503, retryAfter: "120"))
///     …
/// }
/// try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in … }
/// ```
package final class TestHTTPServer: Sendable {
    /// How a scripted server answers a request.
    package typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// The port the server listens on.
    package let port: UInt16
    private let documents: PublishedDocuments
    private let faults: FaultQueue
    private let log: RequestLog
    private let hangs: Gate
    private let runTask: Task<Void, Never>

    private init(
        port: UInt16, documents: PublishedDocuments, faults: FaultQueue, log: RequestLog, hangs: Gate,
        runTask: Task<Void, Never>
    ) {
        self.port = port
        self.documents = documents
        self.faults = faults
        self.log = log
        self.hangs = hangs
        self.runTask = runTask
    }

    /// Starts a server that answers with `handler` (or serves its published documents when nil),
    /// and waits until it listens.
    package static func start(_ handler: Handler? = nil) async throws -> TestHTTPServer {
        let documents = PublishedDocuments()
        let faults = FaultQueue()
        let log = RequestLog()
        let hangs = Gate()
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 120, pool: NoDelaySocketPool(inner: HTTPServer.defaultPool()),
            logger: .disabled)
        await server.appendRoute("*") { request in
            let index = log.begin(request)
            let response: HTTPResponse
            if let next = Fault.loopPaths[request.path] {
                response = Reply.make(302, ["Location": next])
            } else if let fault = faults.next() {
                let normal = { try await handler?(request) ?? documents.answer(request) }
                response = try await fault.answer(body: documents.document(at: request.path)?.body, hangs: hangs, normal: normal)
            } else if let handler {
                response = try await handler(request)
            } else {
                response = documents.answer(request)
            }
            log.finish(index, status: response.statusCode.code)
            return response
        }
        let runTask = Task<Void, Never> { _ = try? await server.run() }
        try await server.waitUntilListening(timeout: loopbackDeadline)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            runTask.cancel()
            throw TestServerError("the test server did not report an IPv4 port")
        }
        return TestHTTPServer(port: port, documents: documents, faults: faults, log: log, hangs: hangs, runTask: runTask)
    }

    /// Runs `body` with a started server that serves its published documents, and stops it
    /// afterwards, whatever happens.
    package static func with<T: Sendable>(_ body: (TestHTTPServer) async throws -> T) async throws -> T {
        try await with(nil, body)
    }

    /// Runs `body` with a started server that answers with `handler`, and stops it afterwards,
    /// whatever happens.
    package static func with<T: Sendable>(_ handler: Handler?, _ body: (TestHTTPServer) async throws -> T) async throws -> T {
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

    /// `http://127.0.0.1:<port><path>`.
    package func url(_ path: String = "/config.json") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Publishes a new version of the document at `path`: a new `ETag` and a later `Last-Modified`.
    @discardableResult
    package func publish(_ text: String, at path: String = "/config.json", cacheControl: String? = nil) -> PublishedDocument {
        documents.publish(Data(text.utf8), at: path, cacheControl: cacheControl)
    }

    /// The document currently at `path`.
    package func document(at path: String = "/config.json") -> PublishedDocument? { documents.document(at: path) }

    /// Applies `fault` to the next `count` requests (any path).
    package func inject(_ fault: Fault, count: Int = 1) { faults.add(fault, count: count) }

    /// Removes every pending fault.
    package func clearFaults() { faults.clear() }

    /// Releases every request held by ``Fault/hang`` so far (later hangs hold again).
    package func releaseHangs() { hangs.releaseWaiting() }

    /// The requests received so far, in order.
    package var requests: [RecordedRequest] { log.all }

    /// Stops the server: releases hangs and cancels its run task (FlyingFox's `stop(timeout:)`
    /// would wait the full timeout).
    package func stop() async {
        hangs.open()
        runTask.cancel()
        await runTask.value
    }

    /// An HTTP date (IMF-fixdate) for `date`.
    package static func httpDate(_ date: Date) -> String { PublishedDocuments.httpDate(date) }
}
