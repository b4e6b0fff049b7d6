import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The parts of an HTTP answer the fetcher acts on.
struct Answer: Sendable, Hashable {
    /// The status code.
    var status: Int
    /// `ETag`, verbatim.
    var etag: String?
    /// `Last-Modified`, verbatim.
    var lastModified: String?
    /// `Content-Type`, verbatim.
    var contentType: String?
    /// `Retry-After`, verbatim.
    var retryAfter: String?
    /// The body.
    var body: Data
}

/// How one request ended, when no answer came.
enum TransportProblem: Error, Sendable, Hashable {
    /// The calling task was cancelled.
    case cancelled
    /// The configured timeout passed.
    case timedOut
    /// The connection failed: an `NSURLErrorDomain` code and its description.
    case failed(code: Int, description: String)
}

/// Runs requests on one ephemeral `URLSession` (no URL cache, cookies or stored credentials), made
/// on the first request, with the fetcher's timeout over the whole exchange.
final class Transport: Sendable {
    private let timeout: TimeInterval
    private let session = Locked<URLSession?>(nil)

    init(timeout: TimeInterval) { self.timeout = timeout }

    deinit { session.current?.finishTasksAndInvalidate() }

    /// Sends `request` and returns the answer, or why none came. Cancelling the calling task
    /// cancels the request.
    func send(_ request: URLRequest) async -> Result<Answer, TransportProblem> {
        let task = Locked<URLSessionDataTask?>(nil)
        let ended = Locked<TransportProblem?>(nil)
        let deadline = Task { [timeout] in
            try await Task.sleep(nanoseconds: UInt64(min(timeout, 1_000_000_000) * 1_000_000_000))
            ended.withLock { if $0 == nil { $0 = .timedOut } }
            task.current?.cancel()
        }
        defer { deadline.cancel() }
        let outcome: Result<Answer, TransportProblem> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let dataTask = current().dataTask(with: request) { data, response, error in
                    if let error {
                        let ns = error as NSError
                        continuation.resume(returning: .failure(.failed(code: ns.code, description: ns.localizedDescription)))
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(returning: .failure(.failed(code: 0, description: "the answer is not HTTP")))
                        return
                    }
                    func header(_ name: String) -> String? { http.value(forHTTPHeaderField: name) }
                    continuation.resume(
                        returning: .success(
                            Answer(
                                status: http.statusCode, etag: header("ETag"), lastModified: header("Last-Modified"),
                                contentType: header("Content-Type"), retryAfter: header("Retry-After"), body: data ?? Data())))
                }
                task.withLock { $0 = dataTask }
                if Task.isCancelled || ended.current != nil { dataTask.cancel() }
                dataTask.resume()
            }
        } onCancel: {
            ended.withLock { if $0 == nil { $0 = .cancelled } }
            task.current?.cancel()
        }
        if let problem = ended.current { return .failure(problem) }
        return outcome
    }

    /// The session, made on the first call.
    private func current() -> URLSession {
        session.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCredentialStorage = nil
            // Whole seconds: swift-corelibs-foundation cuts a fraction of a second to zero. The exact
            // limit is the deadline in `send`.
            configuration.timeoutIntervalForRequest = timeout.rounded(.up)
            configuration.timeoutIntervalForResource = timeout.rounded(.up)
            let made = URLSession(configuration: configuration)
            session = made
            return made
        }
    }
}
