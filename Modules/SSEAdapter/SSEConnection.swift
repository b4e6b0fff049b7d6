import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One subscription: connects, reads events and yields their signals, and reconnects with
/// backoff and `Last-Event-ID` until its task is cancelled. It reports its connection as it goes:
/// `.connection(.connected)` when the server accepts, `.connection(.disconnected(reason:retryIn:))`
/// when the connection ends or is refused (with the wait before the next attempt) or is paused.
struct SSEConnection: Sendable {
    let url: URL
    let name: String
    let configuration: SSEChangeSignalSource.Configuration
    let session: StreamingSession
    let gate: PauseGate

    /// How one connection ended.
    private struct Ending {
        /// Why, or nil when the source was paused or the task cancelled.
        var error: SSEError?
        var paused = false
        /// Whether anything arrived on it (a healthy connection resets the backoff).
        var delivered = false
    }

    /// Runs the subscription until the calling task is cancelled, yielding signals into `signals`.
    func run(yieldingInto signals: AsyncStream<ChangeSignal>.Continuation) async {
        var failures = 0
        var lastEventID: String?
        var serverRetry: TimeInterval?
        while !Task.isCancelled {
            await gate.waitWhilePaused()
            if Task.isCancelled { break }
            configuration.onEvent?(.connecting(attempt: failures + 1, lastEventID: lastEventID))
            let ending = await connectOnce(lastEventID: &lastEventID, serverRetry: &serverRetry, signals: signals)
            if Task.isCancelled { break }
            if ending.delivered { failures = 0 }
            if ending.paused {
                configuration.onEvent?(.paused)
                signals.yield(.connection(.disconnected(reason: "paused by the app; resume() reconnects", retryIn: nil)))
                continue
            }
            failures += 1
            if let error = ending.error { configuration.onEvent?(.disconnected(error)) }
            let delay = configuration.reconnect.delay(
                afterFailures: failures, serverRetry: serverRetry, random: configuration.random())
            configuration.onEvent?(.waiting(seconds: delay))
            let reason = ending.error?.message ?? "\(name) ended the stream"
            signals.yield(.connection(.disconnected(reason: reason, retryIn: delay)))
            do {
                try await configuration.clock.sleep(for: delay)
            } catch {
                break
            }
        }
    }

    /// Opens one connection and reads it until it ends.
    private func connectOnce(
        lastEventID: inout String?, serverRetry: inout TimeInterval?, signals: AsyncStream<ChangeSignal>.Continuation
    ) async -> Ending {
        let (events, continuation) = AsyncStream.makeStream(of: StreamEvent.self)
        let clock = configuration.clock
        let activity = Locked(clock.now())
        let cancelRequest = session.start(request(lastEventID: lastEventID)) { part in
            if case .terminated = continuation.yield(.part(part)) { return false }
            return true
        }
        let gateID = gate.register(continuation)
        let watchdog = configuration.heartbeatTimeout.map { timeout in
            Task { await Self.watch(timeout: timeout, activity: activity, clock: clock, events: continuation) }
        }
        defer {
            watchdog?.cancel()
            gate.unregister(gateID)
            continuation.finish()
            cancelRequest()
        }
        var parser = EventStreamParser(
            maxLineBytes: configuration.maxLineBytes, maxEventBytes: configuration.maxEventBytes, lastEventID: lastEventID)
        var ending = Ending()
        for await event in events {
            switch event {
            case .part(.response(let status, let contentType)):
                activity.withLock { $0 = clock.now() }
                if let refusal = Self.refusal(status: status, contentType: contentType, url: url) {
                    ending.error = refusal
                    return ending
                }
                configuration.onEvent?(.connected)
                signals.yield(.connection(.connected))
                if configuration.signalsOnConnect { signals.yield(.changed(version: nil)) }
            case .part(.data(let chunk)):
                activity.withLock { $0 = clock.now() }
                ending.delivered = true
                let items: [EventStreamParser.Item]
                do throws(SSEError) {
                    items = try parser.feed(chunk)
                } catch {
                    ending.error = error
                    return ending
                }
                lastEventID = parser.lastEventID
                for item in items {
                    switch item {
                    case .event(let event):
                        if let signal = configuration.mapping.signal(for: event, source: name) { signals.yield(signal) }
                    case .retry(let milliseconds):
                        serverRetry = TimeInterval(milliseconds) / 1000
                    case .comment:
                        break  // A heartbeat: its arrival already counted as activity.
                    }
                }
            case .part(.completed(let code)):
                ending.error =
                    code.map {
                        SSEError(.transport(code: $0), message: "the connection to \(name) failed (NSURLErrorDomain \($0))")
                    } ?? SSEError(.closedByServer, message: "\(name) ended the stream")
                return ending
            case .silent:
                let seconds = configuration.heartbeatTimeout ?? 0
                ending.error = SSEError(
                    .heartbeatTimeout(seconds: seconds),
                    message: "nothing arrived from \(name) for \(seconds) s, not even a heartbeat; reconnecting (make "
                        + "the server send a comment line more often than heartbeatTimeout)")
                return ending
            case .paused:
                ending.paused = true
                return ending
            }
        }
        return ending  // The task was cancelled.
    }

    /// The request for one connection.
    private func request(lastEventID: String?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        for (field, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: field) }
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        return request
    }

    /// Why a response with this head is not an event stream to read, or nil.
    static func refusal(status: Int, contentType: String?, url: URL) -> SSEError? {
        guard status == 200 else {
            return SSEError(
                .httpStatus(status),
                message: "\(url.absoluteString) answered HTTP \(status) instead of 200 with an event stream; check the URL "
                    + "and the server (the source retries with backoff)")
        }
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "text/event-stream" else {
            return SSEError(
                .notAnEventStream(contentType: contentType),
                message: "\(url.absoluteString) answered \(contentType.map { "Content-Type \($0)" } ?? "no Content-Type") "
                    + "instead of text/event-stream; is this the events URL rather than the configuration URL?")
        }
        return nil
    }

    /// Yields `.silent` once nothing has arrived for `timeout` seconds.
    private static func watch(
        timeout: TimeInterval, activity: Locked<Date>, clock: any ConfigClock, events: AsyncStream<StreamEvent>.Continuation
    ) async {
        while !Task.isCancelled {
            let idle = clock.now().timeIntervalSince(activity.current)
            if idle >= timeout {
                events.yield(.silent)
                return
            }
            do {
                try await clock.sleep(for: timeout - idle)
            } catch {
                return
            }
        }
    }
}
