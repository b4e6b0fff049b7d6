import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One event stream of an ``OFREPEventSource``, reconnected until its task is cancelled.
struct EventStreamConnection: Sendable {
    let url: URL
    /// How messages name the stream (never by its URL, which may carry a token): `the event stream`.
    let label: String
    let headers: [String: String]
    let configuration: OFREPEventSource.Configuration
    let links: StreamLinks
    let session: StreamingSession

    /// What the reader of one connection waits for.
    private enum Arrival: Sendable {
        case part(StreamPart)
        /// Nothing arrived for the heartbeat timeout.
        case silent
    }

    /// How one connection ended.
    private struct Ending {
        /// Whether the server accepted it (a healthy connection starts the backoff again).
        var accepted = false
        /// Why it ended, for the connection report.
        var reason = ""
    }

    /// Connects, reads events and yields their signals, and reconnects with backoff, until cancelled;
    /// tells `board` when the stream is connected and when it drops.
    func run(yieldingInto signals: AsyncStream<ChangeSignal>.Continuation, board: ConnectionBoard) async {
        var failures = 0
        var lastEventID: String?
        while !Task.isCancelled {
            let ending = await connectOnce(lastEventID: &lastEventID, signals: signals, board: board)
            if Task.isCancelled { return }
            failures = ending.accepted ? 1 : failures + 1
            let delay = configuration.delay(afterFailures: failures)
            board.disconnected(url, reason: ending.reason, retryIn: delay)
            do {
                try await configuration.clock.sleep(for: delay)
            } catch {
                return
            }
        }
    }

    /// Reads one connection until it ends.
    private func connectOnce(
        lastEventID: inout String?, signals: AsyncStream<ChangeSignal>.Continuation, board: ConnectionBoard
    ) async -> Ending {
        let (arrivals, continuation) = AsyncStream.makeStream(of: Arrival.self)
        let clock = configuration.clock
        let activity = Locked(clock.now())
        let cancel = session.start(request(lastEventID: lastEventID)) { part in
            if case .terminated = continuation.yield(.part(part)) { return false }
            return true
        }
        let watchdog = configuration.heartbeatTimeout.map { timeout in
            Task { await Self.watch(timeout: timeout, activity: activity, clock: clock, arrivals: continuation) }
        }
        defer {
            watchdog?.cancel()
            continuation.finish()
            cancel()
        }
        var lines = EventLines(maxLineBytes: configuration.maxLineBytes, lastEventID: lastEventID)
        var ending = Ending()
        for await arrival in arrivals {
            activity.withLock { $0 = clock.now() }
            switch arrival {
            case .part(.response(let status, let contentType)):
                let media = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                guard status == 200, media == "text/event-stream" else {
                    ending.reason =
                        "\(label) answered HTTP \(status) \(contentType.map { "(\($0))" } ?? "without a content type") "
                        + "instead of an event stream"
                    return ending
                }
                ending.accepted = true
                board.connected(url)
                // After each (re)connection the client fetches: events may have been missed.
                signals.yield(.changed(version: nil))
            case .part(.data(let chunk)):
                guard let items = lines.feed(chunk) else {
                    ending.reason = "\(label) sent a line longer than \(configuration.maxLineBytes) bytes"
                    return ending
                }
                lastEventID = lines.lastEventID
                for data in items { handle(event: data, signals: signals) }
            case .part(.completed(let code)):
                ending.reason =
                    code.map { "\(label) failed: \(StreamPart.failureText(errorCode: $0))" } ?? "the server ended \(label)"
                return ending
            case .silent:
                let seconds = configuration.heartbeatTimeout ?? 0
                ending.reason =
                    "nothing arrived on \(label) for \(seconds) s, not even a heartbeat (raise heartbeatTimeout above "
                    + "the server's heartbeat interval if it sends them less often)"
                return ending
            }
        }
        ending.reason = "\(label) was closed"
        return ending  // The task was cancelled.
    }

    /// Takes one event's data: a `refetchEvaluation` keeps its change metadata and asks the client to fetch.
    private func handle(event data: String, signals: AsyncStream<ChangeSignal>.Continuation) {
        guard let event = try? JSONParser().parse(Data(data.utf8)), event["type"]?.stringValue == "refetchEvaluation"
        else { return }
        let lastModified: String? =
            switch event["lastModified"] {
            case .int(let seconds)?: String(seconds)
            case .string(let text)?: text
            default: nil
            }
        links.hint(StreamLinks.Hint(etag: event["etag"]?.stringValue, lastModified: lastModified))
        signals.yield(.changed(version: nil))
    }

    /// The request for one connection.
    private func request(lastEventID: String?) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        return request
    }

    /// Yields `.silent` once nothing has arrived for `timeout` seconds.
    private static func watch(
        timeout: TimeInterval, activity: Locked<Date>, clock: any ConfigClock, arrivals: AsyncStream<Arrival>.Continuation
    ) async {
        while !Task.isCancelled {
            let idle = clock.now().timeIntervalSince(activity.current)
            if idle >= timeout {
                arrivals.yield(.silent)
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

/// The little of the event-stream format OFREP needs: `data:` lines joined by line feeds and
/// dispatched by a blank line, `id:` kept for `Last-Event-ID`, comments and other fields ignored.
/// Lines end with LF, CR LF or CR, also when a CR LF is split between two chunks.
struct EventLines {
    let maxLineBytes: Int
    private(set) var lastEventID: String?
    private var line: [UInt8] = []
    private var afterCR = false
    private var data: [UInt8]?

    init(maxLineBytes: Int, lastEventID: String?) {
        self.maxLineBytes = maxLineBytes
        self.lastEventID = lastEventID
    }

    /// The data of each event the chunk completes; nil when a line passed the limit (drop the connection).
    mutating func feed(_ chunk: Data) -> [String]? {
        var events: [String] = []
        for byte in chunk {
            switch byte {
            case 0x0A where afterCR:
                afterCR = false
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                afterCR = false
                guard line.count < maxLineBytes else { return nil }
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the current line; the event's data when the line is blank and an event has data.
    private mutating func endLine() -> String? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer { data = nil }
            return data.map { String(decoding: $0, as: UTF8.self) }
        }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        if colon == 0 { return nil }  // A comment, such as a heartbeat.
        let field = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { Array(line[($0 + 1)...]) } ?? []
        if value.first == UInt8(ascii: " ") { value.removeFirst() }
        switch field {
        case "data":
            if data == nil { data = value } else { data?.append(0x0A); data?.append(contentsOf: value) }
        case "id" where !value.contains(0):
            lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        default:
            break
        }
        return nil
    }
}
