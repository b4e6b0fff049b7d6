import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to one streaming request, in order.
public enum StreamPart: Sendable {
    /// The response head arrived: its status and content type (status 0 when it is not HTTP).
    case response(status: Int, contentType: String?)
    /// Body bytes arrived.
    case data(Data)
    /// The request ended, with the `NSURLErrorDomain` code of its transport error if any.
    ///
    /// ``failureText(errorCode:)`` says it in words.
    case completed(errorCode: Int?)

    /// A transport error in a few words, for a message.
    ///
    /// `connection refused`, `timed out`, `connection lost`, `host not found`, `not connected to a network`,
    /// `cancelled`; `URL error <code>` for the rarer ones.
    public static func failureText(errorCode: Int) -> String {
        switch errorCode {
        case NSURLErrorCannotConnectToHost: "connection refused"
        case NSURLErrorTimedOut: "timed out"
        case NSURLErrorNetworkConnectionLost: "connection lost"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: "host not found"
        case NSURLErrorNotConnectedToInternet: "not connected to a network"
        case NSURLErrorCancelled: "cancelled"
        default: "URL error \(errorCode)"
        }
    }
}

/// A `URLSession` for long streaming requests (server-sent events, etcd watches).
///
/// Its delegate hands each task's callbacks on as they arrive: on Linux, swift-corelibs-foundation calls only
/// session-level delegates and has no `bytes(for:)`.
public final class StreamingSession: Sendable {
    private let session: URLSession
    private let delegate = StreamingDelegate()

    /// A session without caches, cookies or stored credentials, whose requests may stay open and quiet for a week
    /// (silence is for the caller's heartbeat timeout to judge).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = 7 * 86_400
        configuration.timeoutIntervalForResource = 7 * 86_400
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Starts `request` and hands each of its parts to `receive`, which returns false to cancel the request;
    /// the returned closure stops the handing and cancels the request.
    public func start(_ request: URLRequest, receive: @escaping @Sendable (StreamPart) -> Bool) -> @Sendable () -> Void {
        let task = session.dataTask(with: request)
        delegate.register(receive, for: task)
        task.resume()
        return { [delegate] in
            delegate.unregister(task)
            task.cancel()
        }
    }

    /// Starts `request` and yields its parts to `continuation` until the stream ends or the returned closure is called.
    public func start(_ request: URLRequest, into continuation: AsyncStream<StreamPart>.Continuation) -> @Sendable () -> Void {
        start(request) { part in
            if case .terminated = continuation.yield(part) { return false }
            return true
        }
    }
}

/// Hands each task's callbacks to the receiver registered for it.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let receivers = Locked<[Int: @Sendable (StreamPart) -> Bool]>([:])

    func register(_ receive: @escaping @Sendable (StreamPart) -> Bool, for task: URLSessionTask) {
        receivers.withLock { $0[task.taskIdentifier] = receive }
    }

    func unregister(_ task: URLSessionTask) {
        receivers.withLock { $0[task.taskIdentifier] = nil }
    }

    private func send(_ part: StreamPart, for task: URLSessionTask) -> Bool {
        guard let receive = receivers.withLock({ $0[task.taskIdentifier] }) else { return false }
        return receive(part)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let part = StreamPart.response(
            status: http?.statusCode ?? 0, contentType: http?.value(forHTTPHeaderField: "Content-Type"))
        completionHandler(send(part, for: dataTask) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !send(.data(data), for: dataTask) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        _ = send(.completed(errorCode: error.map { ($0 as NSError).code }), for: task)
    }
}
