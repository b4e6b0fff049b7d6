import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to one HTTP request, in the order it happens.
package enum HTTPEvent: Sendable {
    /// The response head arrived with this status.
    case response(status: Int)
    /// Body bytes arrived.
    case data(Data)
    /// The request ended: cleanly (`nil`), or with this transport failure ("connection refused").
    case finished(failure: String?)
}

/// A `URLSession` whose requests report what happens to them as an `AsyncStream`, so a watch can
/// read its response while it streams.
///
/// On Linux, plain `http://` requests go to ``SocketTransport`` instead: swift-corelibs-foundation
/// cannot read the trailer etcd 3.4 adds to its error answers.
///
/// Callbacks go through a session-level delegate (swift-corelibs-foundation calls no per-task
/// delegate for data tasks). The session is ephemeral, with no URL cache, cookies or stored
/// credentials. Ending the stream (the reader stops or its task is cancelled) cancels the request.
///
/// It has `package` access for the integration tests' own etcd client, which needs the same way
/// around that crash.
package final class StreamingSession: Sendable {
    private let session: URLSession
    private let delegate: StreamingDelegate

    /// Creates the session.
    package init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        // A watch stays open for as long as the cluster is healthy; each request sets its own timeout.
        configuration.timeoutIntervalForResource = 365 * 86_400
        delegate = StreamingDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Starts `request` and returns what happens to it.
    package func send(_ request: URLRequest) -> AsyncStream<HTTPEvent> { start(request).events }

    /// Starts `request` and returns what happens to it, with a way to cancel it from elsewhere
    /// (its stream then ends with `.finished(failure: "cancelled")`).
    func start(_ request: URLRequest) -> (events: AsyncStream<HTTPEvent>, cancel: @Sendable () -> Void) {
        #if canImport(Glibc)
            if request.url?.scheme?.lowercased() == "http" { return SocketTransport.start(request) }
        #endif
        return startOnSession(request)
    }

    /// Starts `request` on the `URLSession`.
    func startOnSession(_ request: URLRequest) -> (events: AsyncStream<HTTPEvent>, cancel: @Sendable () -> Void) {
        let (events, continuation) = AsyncStream.makeStream(of: HTTPEvent.self)
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        delegate.register(continuation, for: id)
        continuation.onTermination = { [delegate] _ in
            delegate.unregister(id)
            task.cancel()
        }
        task.resume()
        return (events, { task.cancel() })
    }
}

/// Passes each task's callbacks to the stream its request returned.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let streams = Locked<[Int: AsyncStream<HTTPEvent>.Continuation]>([:])

    /// Sends the callbacks of the task `id` to `continuation`.
    func register(_ continuation: AsyncStream<HTTPEvent>.Continuation, for id: Int) {
        streams.withLock { $0[id] = continuation }
    }

    /// Stops sending the callbacks of the task `id`.
    func unregister(_ id: Int) {
        _ = streams.withLock { $0.removeValue(forKey: id) }
    }

    private func continuation(for task: URLSessionTask) -> AsyncStream<HTTPEvent>.Continuation? {
        streams.withLock { $0[task.taskIdentifier] }
    }

    /// Passes the status on and reads the body.
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let continuation = continuation(for: dataTask) else { return completionHandler(.cancel) }
        continuation.yield(.response(status: (response as? HTTPURLResponse)?.statusCode ?? 0))
        completionHandler(.allow)
    }

    /// Passes body bytes on.
    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation(for: dataTask)?.yield(.data(data))
    }

    /// Passes the end on and finishes the stream.
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let continuation = continuation(for: task) else { return }
        continuation.yield(.finished(failure: error.map(Self.describe)))
        continuation.finish()
    }

    /// A transport error in a few words: `connection refused`, `timed out`, `connection lost`.
    static func describe(_ error: any Error) -> String {
        let error = error as NSError
        guard error.domain == NSURLErrorDomain else { return error.localizedDescription }
        switch error.code {
        case NSURLErrorCannotConnectToHost: return "connection refused"
        case NSURLErrorTimedOut: return "timed out"
        case NSURLErrorNetworkConnectionLost: return "connection lost"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "host not found"
        case NSURLErrorNotConnectedToInternet: return "not connected to a network"
        case NSURLErrorCancelled: return "cancelled"
        default: return "\(error.localizedDescription) (URL error \(error.code))"
        }
    }
}
