import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to one streaming request, in order, plus the reasons the source stops reading it.
enum StreamEvent: Sendable {
    /// The response head arrived: its status and content type (status 0 when it is not HTTP).
    case response(status: Int, contentType: String?)
    /// Body bytes arrived.
    case data(Data)
    /// The request ended, with the `NSURLErrorDomain` code of its transport error if any.
    case completed(errorCode: Int?)
    /// Nothing arrived for the heartbeat timeout.
    case silent
    /// The source was paused.
    case paused
}

/// The `URLSession` of one source, and the delegate that streams each task's callbacks to the connection reading it.
///
/// Streaming needs the delegate: on Linux, swift-corelibs-foundation calls only session-level
/// delegates, and `bytes(for:)` is not available there.
final class StreamSession: Sendable {
    private let session: URLSession
    private let delegate: StreamDelegate

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        // A stream lives long and may be quiet between heartbeats: silence is the heartbeat timeout's business.
        configuration.timeoutIntervalForRequest = 7 * 86_400
        configuration.timeoutIntervalForResource = 7 * 86_400
        delegate = StreamDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Starts `request`; its events go to `continuation` until `cancel` is called.
    func start(_ request: URLRequest, events continuation: AsyncStream<StreamEvent>.Continuation) -> @Sendable () -> Void {
        let task = session.dataTask(with: request)
        delegate.register(continuation, for: task)
        task.resume()
        return { [delegate] in
            delegate.unregister(task)
            task.cancel()
        }
    }
}

/// Passes each task's callbacks to the stream its connection reads.
private final class StreamDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let streams = Locked<[Int: AsyncStream<StreamEvent>.Continuation]>([:])

    func register(_ continuation: AsyncStream<StreamEvent>.Continuation, for task: URLSessionTask) {
        streams.withLock { $0[task.taskIdentifier] = continuation }
    }

    func unregister(_ task: URLSessionTask) {
        streams.withLock { $0[task.taskIdentifier] = nil }
    }

    private func send(_ event: StreamEvent, for task: URLSessionTask) -> Bool {
        guard let continuation = streams.withLock({ $0[task.taskIdentifier] }) else { return false }
        if case .terminated = continuation.yield(event) { return false }
        return true
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let event = StreamEvent.response(
            status: http?.statusCode ?? 0, contentType: http?.value(forHTTPHeaderField: "Content-Type"))
        completionHandler(send(event, for: dataTask) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if !send(.data(data), for: dataTask) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        _ = send(.completed(errorCode: error.map { ($0 as NSError).code }), for: task)
    }
}
