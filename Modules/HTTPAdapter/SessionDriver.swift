import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Owns the `URLSession` a fetcher uses and routes each task's callbacks to its ``Transfer``.
///
/// The fetcher's own session has a session-level delegate (the router), which works the same on
/// Linux and Apple platforms. A session the app injects is used directly with per-task delegates
/// on Apple platforms; on Linux, where swift-corelibs-foundation does not deliver data-task
/// callbacks to per-task delegates, a private session is made from its configuration.
///
/// What swift-corelibs-foundation (Swift 6.3.1, libcurl underneath) was measured to do, and why
/// the code is shaped this way:
/// - `URLSession.bytes(for:)` does not exist, and `URLSessionTask.delegate` is never called for a
///   data task: streaming needs a session-level `URLSessionDataDelegate`.
/// - Answering `didReceive response` with `.cancel` ends the task but lets the transfer run on
///   (a 128 MiB body was still sent in full), so the task is also cancelled explicitly.
/// - A conditional request the caller makes gets the server's `304` with an empty body under
///   every cache policy, and a `URLCache` on the session never answered in the server's place
///   (even with `.returnCacheDataElseLoad` and `max-age=3600`). Apple's loading system may answer
///   from its cache, so requests still use `.reloadIgnoringLocalCacheData` and the default
///   session has no cache at all.
/// - It follows at most 20 redirects (error -1007); the transfer counts and detects loops itself.
/// - A body cut short of its `Content-Length` ends with error -1 ("transfer closed with N bytes
///   remaining"), so truncation is recognised by comparing counts, not by error code.
///
/// The session is made on the first request, not with the fetcher: a client is built at launch
/// and its first reads come from the cache, and making a `URLSession` in a fresh process took
/// 10–20 ms here (swift-corelibs-foundation starts libcurl). That cost moves to the first fetch.
///
/// `@unchecked Sendable`: `made` is read and written only while holding `lock`; the session and
/// router it holds are thread-safe.
final class SessionDriver: @unchecked Sendable {
    /// A session, its router (nil for an injected session used directly) and whether this driver owns it.
    private struct Made {
        let session: URLSession
        let router: TaskRouter?
        let ownsSession: Bool
    }

    private let configuration: HTTPFetcher.Configuration
    private let lock = NSLock()
    private var made: Made?

    /// Creates the driver for a configuration; the session is made on the first request.
    init(configuration: HTTPFetcher.Configuration) {
        self.configuration = configuration
    }

    deinit {
        if let made, made.ownsSession { made.session.finishTasksAndInvalidate() }
    }

    /// The session, made on the first call.
    private func current() -> Made {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let fresh = Self.make(for: configuration)
        made = fresh
        return fresh
    }

    private static func make(for configuration: HTTPFetcher.Configuration) -> Made {
        if let injected = configuration.session {
            #if canImport(FoundationNetworking)
                let router = TaskRouter()
                return Made(
                    session: URLSession(configuration: injected.configuration, delegate: router, delegateQueue: nil),
                    router: router, ownsSession: true)
            #else
                return Made(session: injected, router: nil, ownsSession: false)
            #endif
        }
        let router = TaskRouter()
        return Made(
            session: URLSession(
                configuration: defaultSessionConfiguration(timeout: configuration.timeout), delegate: router,
                delegateQueue: nil),
            router: router, ownsSession: true)
    }

    /// The default session's configuration: ephemeral, no URL cache, no cookies, no stored credentials.
    static func defaultSessionConfiguration(timeout: TimeInterval) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        return configuration
    }

    /// Runs `request`, streaming into `transfer`, and returns how it ended.
    ///
    /// Cancelling the calling task cancels the underlying URL task and returns promptly with
    /// ``TransferAbort/callerCancelled``.
    func perform(_ request: URLRequest, transfer: Transfer) async -> TransferOutcome {
        await withTaskCancellationHandler {
            let made = current()
            return await withCheckedContinuation { (continuation: CheckedContinuation<TransferOutcome, Never>) in
                let task = made.session.dataTask(with: request)
                let identifier = task.taskIdentifier
                if let router = made.router {
                    router.register(transfer, for: identifier)
                } else {
                    #if !canImport(FoundationNetworking)
                        task.delegate = transfer
                    #endif
                }
                let router = made.router
                transfer.start(
                    task, url: request.url ?? URL(fileURLWithPath: "/"), continuation: continuation,
                    onFinish: { router?.unregister(identifier) })
            }
        } onCancel: {
            transfer.abort(.callerCancelled)
        }
    }
}

/// Forwards session-level delegate callbacks to the ``Transfer`` registered for each task.
///
/// `@unchecked Sendable`: `transfers` is read and written only while holding `lock`.
final class TaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    /// Routes callbacks for task `identifier` to `transfer`.
    func register(_ transfer: Transfer, for identifier: Int) {
        lock.lock()
        transfers[identifier] = transfer
        lock.unlock()
    }

    /// Stops routing callbacks for task `identifier`.
    func unregister(_ identifier: Int) {
        lock.lock()
        transfers[identifier] = nil
        lock.unlock()
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        lock.lock()
        defer { lock.unlock() }
        return transfers[task.taskIdentifier]
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let transfer = transfer(for: dataTask) else {
            completionHandler(.cancel)
            return
        }
        transfer.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task) else {
            completionHandler(nil)
            return
        }
        transfer.urlSession(
            session, task: task, willPerformHTTPRedirection: response, newRequest: request,
            completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        transfer(for: task)?.urlSession(session, task: task, didCompleteWithError: error)
    }
}
