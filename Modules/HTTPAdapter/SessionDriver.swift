import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Owns the `URLSession` a fetcher uses and runs each request on it as a ``Transfer``.
///
/// The session is made on the first request, not with the fetcher. The fetcher's own session is
/// ephemeral, has no URL cache, cookies or stored credentials, and a ``SessionDelegate`` that
/// streams each task's callbacks to the fetch waiting for it.
///
/// A session the app injects is used directly on Apple platforms, with a per-task delegate. On
/// Linux, swift-corelibs-foundation calls only session-level delegates for data tasks, so a
/// private session is made from the injected session's configuration.
final class SessionDriver: Sendable {
    /// A session, the delegate that streams its tasks' callbacks (nil for an injected session on
    /// Apple platforms, whose tasks get their own), and whether this driver owns it.
    private struct Made: Sendable {
        let session: URLSession
        let delegate: SessionDelegate?
        let ownsSession: Bool
    }

    private let configuration: HTTPFetcher.Configuration
    private let made = Locked<Made?>(nil)

    /// Creates the driver for a configuration; the session is made on the first request.
    init(configuration: HTTPFetcher.Configuration) {
        self.configuration = configuration
    }

    deinit {
        if let made = made.current, made.ownsSession { made.session.finishTasksAndInvalidate() }
    }

    /// The default session's configuration: ephemeral, no URL cache, no cookies, no stored credentials.
    ///
    /// Its timeouts are `timeout` rounded up to whole seconds (see `HTTPFetcher.makeRequest`).
    static func defaultSessionConfiguration(timeout: TimeInterval) -> URLSessionConfiguration {
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

    /// Runs `request` and returns how it ended; the response is checked against `settings`
    /// (content types, body size), by default the driver's own.
    ///
    /// Cancelling the calling task cancels the URL task and returns promptly with
    /// ``TransferAbort/callerCancelled``.
    func perform(_ request: URLRequest, checkedAgainst settings: HTTPFetcher.Configuration? = nil) async -> TransferOutcome {
        guard let url = request.url else {
            let failure = TransportFailure(
                domain: NSURLErrorDomain, code: NSURLErrorBadURL, description: "the request has no URL")
            return TransferOutcome(head: nil, body: Data(), failure: failure, abort: nil)
        }
        let made = current()
        let delegate = made.delegate ?? SessionDelegate()
        let task = made.session.dataTask(with: request)
        #if !canImport(FoundationNetworking)
            if made.delegate == nil { task.delegate = delegate }
        #endif
        let (events, continuation) = AsyncStream.makeStream(of: TaskEvent.self)
        delegate.register(continuation, for: task)
        // The timeout covers the whole fetch, from connecting to the last byte (capped at about
        // 31 years so its nanoseconds fit in a `UInt64`).
        let nanoseconds = UInt64(min(configuration.timeout, 1_000_000_000) * 1_000_000_000)
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
        return await Transfer(url: url, configuration: settings ?? configuration).run(events)
    }

    /// The session, made on the first call.
    private func current() -> Made {
        made.withLock { made in
            if let made { return made }
            let fresh = Self.make(for: configuration)
            made = fresh
            return fresh
        }
    }

    private static func make(for configuration: HTTPFetcher.Configuration) -> Made {
        #if !canImport(FoundationNetworking)
            if let injected = configuration.session { return Made(session: injected, delegate: nil, ownsSession: false) }
        #endif
        let sessionConfiguration =
            configuration.session?.configuration ?? defaultSessionConfiguration(timeout: configuration.timeout)
        let delegate = SessionDelegate()
        let session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
        return Made(session: session, delegate: delegate, ownsSession: true)
    }
}

/// Passes each task's delegate callbacks, as ``TaskEvent``s, to the stream its fetch reads.
///
/// A task without a registered stream (its fetch has ended) is told to stop.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let streams = Locked<[Int: AsyncStream<TaskEvent>.Continuation]>([:])

    /// Sends the callbacks for `task` to `continuation` from now on.
    func register(_ continuation: AsyncStream<TaskEvent>.Continuation, for task: URLSessionTask) {
        streams.withLock { $0[task.taskIdentifier] = continuation }
    }

    /// Stops sending the callbacks for `task`.
    func unregister(_ task: URLSessionTask) {
        streams.withLock { $0[task.taskIdentifier] = nil }
    }

    /// Sends `event` to the stream of `task`; `false` when no fetch reads it any more.
    private func send(_ event: TaskEvent, for task: URLSessionTask) -> Bool {
        guard let continuation = streams.withLock({ $0[task.taskIdentifier] }) else { return false }
        if case .terminated = continuation.yield(event) { return false }
        return true
    }

    /// Passes the response head on; the fetch decides whether to read the body.
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let head = (response as? HTTPURLResponse).map(ResponseHead.init)
        if !send(.response(head, decide: completionHandler), for: dataTask) { completionHandler(.cancel) }
    }

    /// Passes body bytes on.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        _ = send(.data(data), for: dataTask)
    }

    /// Passes a redirect on; the fetch decides whether and how to follow it.
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
            return TransportFailure(domain: ns.domain, code: ns.code, description: ns.localizedDescription)
        }
        _ = send(.completed(failure), for: task)
    }
}
