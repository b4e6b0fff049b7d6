import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why the fetcher stopped a transfer itself.
enum TransferAbort: Sendable, Hashable {
    /// The calling task was cancelled.
    case callerCancelled
    /// ``HTTPFetcher/Configuration/timeout`` passed.
    case deadline
    /// The body grew past the limit after `received` bytes.
    case bodyTooLarge(received: Int)
    /// `Content-Length` announced more than the limit.
    case declaredTooLarge(declared: Int)
    /// The status is not one the fetcher reads a body for.
    case status
    /// The content type is not accepted.
    case contentType
    /// A redirect went back to a URL already visited.
    case redirectLoop(target: String)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect led to a URL the endpoint policy refuses.
    case refusedRedirect(reason: String)
}

/// The transport-level error a transfer ended with, copied out of `NSError`.
struct TransportFailure: Sendable, Hashable {
    /// The error domain, usually `NSURLErrorDomain`.
    var domain: String
    /// The error code, for example `-1004` (cannot connect).
    var code: Int
    /// The error's own description.
    var description: String
}

/// How one transfer ended: what arrived, and why it stopped if it did not finish cleanly.
struct TransferOutcome: Sendable {
    /// The response head, when one arrived.
    var head: ResponseHead?
    /// The body bytes received (complete only when there is no failure and no abort).
    var body: Data
    /// The transport error, if any.
    var failure: TransportFailure?
    /// Why the fetcher stopped the transfer itself, if it did.
    var abort: TransferAbort?
}

/// What a transfer checks while bytes arrive.
struct TransferRules: Sendable {
    /// The body limit in bytes.
    var maxBodySize: Int
    /// The most redirects followed.
    var maxRedirects: Int
    /// Whether redirects to plain-HTTP non-loopback hosts are allowed.
    var allowsInsecureHTTP: Bool
    /// Accepted media type patterns.
    var acceptedContentTypes: [String]
    /// Whether a missing content type is accepted.
    var acceptsMissingContentType: Bool
    /// Lowercased secret header names, stripped on cross-origin redirects.
    var secretHeaderNames: [String]
    /// The whole-fetch deadline in seconds.
    var timeout: TimeInterval
}

/// One request in flight: receives the session's callbacks, streams the body against the limit,
/// and resumes the waiting fetch exactly once.
///
/// `@unchecked Sendable`: every mutable property is read and written only while holding `lock`.
final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let rules: TransferRules
    private let lock = NSLock()
    private var continuation: CheckedContinuation<TransferOutcome, Never>?
    private var task: URLSessionDataTask?
    private var resumed = false
    private var finished = false
    private var abortReason: TransferAbort?
    private var head: ResponseHead?
    private var body = Data()
    private var redirects = 0
    private var visited: Set<String> = []
    private var deadline: DispatchWorkItem?
    private var onFinish: (@Sendable () -> Void)?

    /// Creates a transfer with these rules.
    init(rules: TransferRules) {
        self.rules = rules
    }

    /// Starts `task` and arranges for `continuation` to be resumed when it ends.
    ///
    /// If the transfer was aborted before it started (the caller was cancelled), the task is not
    /// started and the continuation resumes at once.
    func start(
        _ task: URLSessionDataTask, url: URL, continuation: CheckedContinuation<TransferOutcome, Never>,
        onFinish: @escaping @Sendable () -> Void
    ) {
        let deadline = DispatchWorkItem { [weak self] in self?.abort(.deadline) }
        lock.lock()
        self.continuation = continuation
        self.onFinish = onFinish
        self.task = task
        self.deadline = deadline
        visited.insert(url.absoluteString)
        let abortedEarly = abortReason != nil
        lock.unlock()
        if abortedEarly {
            finish(failure: nil)
            task.cancel()
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + rules.timeout, execute: deadline)
        task.resume()
        lock.lock()
        resumed = true
        let cancelNow = abortReason != nil && !finished
        lock.unlock()
        if cancelNow { task.cancel() }
    }

    /// Stops the transfer for `reason`; the first reason wins. Safe from any thread, any time.
    func abort(_ reason: TransferAbort) {
        lock.lock()
        guard !finished, abortReason == nil else {
            lock.unlock()
            return
        }
        abortReason = reason
        let runningTask = resumed ? task : nil
        lock.unlock()
        runningTask?.cancel()
    }

    private func finish(failure: TransportFailure?) {
        lock.lock()
        guard !finished else {
            lock.unlock()
            return
        }
        finished = true
        let outcome = TransferOutcome(head: head, body: body, failure: failure, abort: abortReason)
        let continuation = self.continuation
        let onFinish = self.onFinish
        self.continuation = nil
        self.onFinish = nil
        body = Data()
        deadline?.cancel()
        lock.unlock()
        onFinish?()
        continuation?.resume(returning: outcome)
    }

    /// Decides at the response head whether to read the body.
    private func decision(for head: ResponseHead) -> TransferAbort? {
        switch head.status {
        case 304:
            return nil
        case 200..<300 where head.status != 206:
            if let mediaType = ResponseHeaderParsing.mediaType(head.contentType) {
                let accepted = rules.acceptedContentTypes.contains { ResponseHeaderParsing.matches(mediaType, pattern: $0) }
                if !accepted { return .contentType }
            } else if !rules.acceptsMissingContentType {
                return .contentType
            }
            if let declared = head.verifiableLength, declared > rules.maxBodySize {
                return .declaredTooLarge(declared: declared)
            }
            return nil
        default:
            return .status
        }
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.allow)
            return
        }
        let received = ResponseHead(http)
        lock.lock()
        head = received
        if abortReason == nil, let reason = decision(for: received) { abortReason = reason }
        if abortReason == nil, let expected = received.verifiableLength, expected > 0 {
            body.reserveCapacity(expected)
        }
        let stop = abortReason != nil
        lock.unlock()
        completionHandler(stop ? .cancel : .allow)
        // swift-corelibs-foundation ends the task on `.cancel` but leaves the transfer running
        // underneath (measured: a 128 MiB body was still sent in full); cancelling the task too
        // closes the connection at once.
        if stop { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard abortReason == nil, !finished else {
            lock.unlock()
            return
        }
        if body.count + data.count > rules.maxBodySize {
            abortReason = .bodyTooLarge(received: body.count + data.count)
            body = Data()
            lock.unlock()
            dataTask.cancel()
            return
        }
        body.append(data)
        lock.unlock()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let target = request.url else {
            completionHandler(nil)
            return
        }
        var reason: TransferAbort?
        lock.lock()
        redirects += 1
        if let refusal = EndpointPolicy.refusal(for: target, allowsInsecureHTTP: rules.allowsInsecureHTTP) {
            reason = .refusedRedirect(reason: refusal)
        } else if visited.contains(target.absoluteString) {
            reason = .redirectLoop(target: EndpointPolicy.displayString(for: target))
        } else if redirects > rules.maxRedirects {
            reason = .tooManyRedirects(limit: rules.maxRedirects)
        }
        visited.insert(target.absoluteString)
        if let reason, abortReason == nil { abortReason = reason }
        let stop = abortReason != nil
        lock.unlock()
        if stop {
            completionHandler(nil)
            task.cancel()
            return
        }
        var next = request
        if let origin = task.originalRequest?.url, !EndpointPolicy.sameOrigin(origin, target) {
            for name in next.allHTTPHeaderFields?.keys.map({ $0 }) ?? [] where rules.secretHeaderNames.contains(name.lowercased())
            {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        completionHandler(next)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(
            failure: error.map { error in
                let ns = error as NSError
                return TransportFailure(domain: ns.domain, code: ns.code, description: ns.localizedDescription)
            })
    }
}
