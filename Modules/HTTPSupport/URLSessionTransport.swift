import ConfigDomain
import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` on Foundation's `URLSession`.
///
/// - **No cache in between**: its own session is ephemeral, with no URL cache, cookie store or credential store
///   (``ephemeralConfiguration(timeout:)``), and every request ignores locally cached data, so a `304` reaches the
///   adapter as a `304` and nothing answers without asking the server.
/// - **A deadline over the whole exchange**: the request's timeout, from connecting to the last byte.
/// - **Limits while the body streams**: a payload over the limit is aborted as soon as it passes it (or at once, when
///   `Content-Length` announces more); a content type the request does not accept is refused before its body is read.
/// - **Redirects** follow the request's ``RedirectPolicy``.
/// - **Cancelling the calling task** cancels the transfer and throws ``ConfigDomain/FetchError/cancelled`` at once.
/// - **Errors** (every one a `FetchError`, worded by the request's ``ErrorWording``, with secret header values and the
///   URL's query left out): a connection failure is `.transport` and a timeout `.timeout` (both retried with backoff);
///   a body over the limit is `.bodyTooLarge`, a redirect loop or one too many `.redirectLoop`, a redirect the endpoint
///   policy refuses `.insecureURL` (none retried); a refused content type is `.unsupportedContentType` and a payload
///   shorter than its `Content-Length` `.truncatedBody` (both retried with backoff: a captive portal or a deploy passes).
///
/// The session is made on the first request, not with the transport. A session you give is used directly on Apple
/// platforms, with a per-task delegate (its own delegate still handles authentication challenges). On Linux,
/// swift-corelibs-foundation calls only session-level delegates for data tasks, so the transport runs a session of its
/// own made from your session's `configuration`.
public final class URLSessionTransport: HTTPTransport {
    /// A session, the delegate that streams its tasks' callbacks (nil for a given session on Apple platforms, whose
    /// tasks get their own), and whether this transport owns it.
    private struct Made: Sendable {
        let session: URLSession
        let delegate: TransferDelegate?
        let ownsSession: Bool
    }

    private let timeout: TimeInterval
    private let given: URLSession?
    private let made = Locked<Made?>(nil)

    /// A transport on its own ephemeral session, or on `session` when one is given.
    ///
    /// The own session's timeouts are `timeout` (see ``ephemeralConfiguration(timeout:)``).
    public init(timeout: TimeInterval, session: URLSession? = nil) {
        self.timeout = timeout
        self.given = session
    }

    deinit {
        if let made = made.current, made.ownsSession { made.session.finishTasksAndInvalidate() }
    }

    /// The configuration of the transport's own session: ephemeral, no URL cache, no cookies, no stored credentials.
    ///
    /// Its timeouts are `timeout` rounded up to whole seconds: swift-corelibs-foundation cuts a fraction of a second to
    /// zero and fails at once. The exact limit is each request's deadline.
    public static func ephemeralConfiguration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = timeout.rounded(.up)
        configuration.timeoutIntervalForResource = timeout.rounded(.up)
        return configuration
    }

    /// Sends `request` and returns its response, whatever its status.
    ///
    /// Throws the `FetchError` that says why no usable response came (see the type's summary).
    public func send(_ request: HTTPTransportRequest) async throws(FetchError) -> HTTPTransportResponse {
        if Task.isCancelled { throw .cancelled }
        let made = current()
        let delegate = made.delegate ?? TransferDelegate()
        let task = made.session.dataTask(with: Self.urlRequest(for: request))
        #if !canImport(FoundationNetworking)
            if made.delegate == nil { task.delegate = delegate }
        #endif
        let (events, continuation) = AsyncStream.makeStream(of: TransferEvent.self)
        delegate.register(continuation, for: task)
        // Capped at about 31 years, so its nanoseconds fit in a `UInt64`.
        let nanoseconds = UInt64(min(request.timeout, 1_000_000_000) * 1_000_000_000)
        let deadline = Task {
            try await Task.sleep(nanoseconds: nanoseconds)
            continuation.yield(.deadlinePassed)
        }
        // However the transfer ends, the task stops and its callbacks are dropped.
        defer {
            deadline.cancel()
            continuation.finish()
            delegate.unregister(task)
            task.cancel()
        }
        task.resume()
        do throws(TransferFailure) {
            return try await Transfer(request: request).run(events)
        } catch {
            throw request.error(for: error)
        }
    }

    /// The `URLRequest` for `request`: its timeout in whole seconds (the exact limit is the deadline), no cookies, and
    /// no locally cached data.
    static func urlRequest(for request: HTTPTransportRequest) -> URLRequest {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: min(request.timeout, 1_000_000_000).rounded(.up))
        urlRequest.httpMethod = request.method
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        return urlRequest
    }

    /// The session, made on the first call.
    private func current() -> Made {
        made.withLock { made in
            if let made { return made }
            let fresh = make()
            made = fresh
            return fresh
        }
    }

    private func make() -> Made {
        #if !canImport(FoundationNetworking)
            if let given { return Made(session: given, delegate: nil, ownsSession: false) }
        #endif
        let configuration = given?.configuration ?? Self.ephemeralConfiguration(timeout: timeout)
        let delegate = TransferDelegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        return Made(session: session, delegate: delegate, ownsSession: true)
    }
}

/// Passes each task's delegate callbacks, as ``TransferEvent``s, to the stream its transfer reads; a task whose
/// transfer has ended is told to stop.
final class TransferDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let streams = Locked<[Int: AsyncStream<TransferEvent>.Continuation]>([:])

    /// Sends the callbacks for `task` to `continuation` from now on.
    func register(_ continuation: AsyncStream<TransferEvent>.Continuation, for task: URLSessionTask) {
        streams.withLock { $0[task.taskIdentifier] = continuation }
    }

    /// Stops sending the callbacks for `task`.
    func unregister(_ task: URLSessionTask) {
        streams.withLock { $0[task.taskIdentifier] = nil }
    }

    /// Sends `event` to the stream of `task`; `false` when no transfer reads it any more.
    private func send(_ event: TransferEvent, for task: URLSessionTask) -> Bool {
        guard let continuation = streams.withLock({ $0[task.taskIdentifier] }) else { return false }
        if case .terminated = continuation.yield(event) { return false }
        return true
    }

    /// Passes the response head on; the transfer decides whether to read the body.
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = (response as? HTTPURLResponse).map { http in
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPTransportResponse(status: http.statusCode, headers: headers)
        }
        if !send(.response(head, decide: completionHandler), for: dataTask) { completionHandler(.cancel) }
    }

    /// Passes body bytes on.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        _ = send(.data(data), for: dataTask)
    }

    /// Passes a redirect on; the transfer decides whether and how to follow it.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        if !send(.redirect(request, decide: completionHandler), for: task) { completionHandler(nil) }
    }

    /// Passes the end of the task on, with its transport error if any.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let failure = error.map { error in
            let ns = error as NSError
            return TransferFailure.transport(domain: ns.domain, code: ns.code, description: ns.localizedDescription)
        }
        _ = send(.completed(failure), for: task)
    }
}
