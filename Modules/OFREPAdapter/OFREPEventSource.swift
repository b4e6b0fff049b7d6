import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A push source over the server-sent events an OFREP server names in its bulk evaluations
/// (`eventStreams` of type `sse`, OFREP's ADR 0008): made by ``OFREPFetcher/eventSource(configuration:)``.
///
/// It waits until a fetch has named event streams, connects to each (with the fetcher's headers),
/// and follows the set the latest bulk evaluation names: a context change that names other streams
/// reconnects, one that names none closes them. It signals `.changed(version: nil)` each time a
/// connection opens (the client then fetches, as the protocol asks after a reconnection) and for
/// each `refetchEvaluation` event, whose `etag` and `lastModified` the fetch sends back as
/// `flagConfigEtag` and `flagConfigLastModified`. Events of other types are ignored. A dropped
/// connection reconnects with exponential backoff and full jitter. Stream URLs may carry tokens:
/// they appear in no name or message.
public final class OFREPEventSource: ChangeSignalSource {
    /// How the source reconnects.
    public struct Configuration: Sendable {
        /// The first reconnection delay, in seconds (doubled after each failure, with full jitter). Default 0.5.
        public var initialDelay: TimeInterval
        /// The longest reconnection delay, in seconds. Default 30.
        public var maxDelay: TimeInterval
        /// The longest line accepted from a stream, in bytes; a longer one drops the connection. Default 64 KiB.
        public var maxLineBytes: Int

        /// Creates the settings.
        public init(initialDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 30, maxLineBytes: Int = 64 * 1024) {
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
            self.maxLineBytes = maxLineBytes
        }
    }

    /// `ofrep events from <endpoint>`, for provenance (never the stream URLs).
    public let name: String
    /// The settings.
    public let configuration: Configuration
    private let links: StreamLinks
    private let headers: [String: String]

    init(links: StreamLinks, endpoint: String, headers: [String: String], configuration: Configuration) {
        self.links = links
        self.name = "ofrep events from \(endpoint)"
        self.headers = headers
        self.configuration = configuration
    }

    /// Follows the event streams the fetcher's bulk evaluations name, until the consuming task is cancelled.
    public func signals() -> AsyncStream<ChangeSignal> {
        let (stream, continuation) = AsyncStream<ChangeSignal>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let task = Task { [links, headers, configuration] in
            var connections: Task<Void, Never>?
            var current: [URL] = []
            for await urls in links.updates() {
                if urls == current { continue }
                connections?.cancel()
                current = urls
                guard !urls.isEmpty else { continue }
                connections = Task {
                    await withTaskGroup(of: Void.self) { group in
                        for url in urls {
                            group.addTask {
                                await EventStreamConnection(
                                    url: url, headers: headers, configuration: configuration, links: links
                                )
                                .run(yieldingInto: continuation)
                            }
                        }
                    }
                }
            }
            connections?.cancel()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// One event stream, reconnected until its task is cancelled.
struct EventStreamConnection: Sendable {
    let url: URL
    let headers: [String: String]
    let configuration: OFREPEventSource.Configuration
    let links: StreamLinks

    /// Connects, reads events and yields their signals, and reconnects with backoff, until cancelled.
    func run(yieldingInto signals: AsyncStream<ChangeSignal>.Continuation) async {
        var failures = 0
        var lastEventID: String?
        while !Task.isCancelled {
            let delivered = await connectOnce(lastEventID: &lastEventID, signals: signals)
            if Task.isCancelled { return }
            failures = delivered ? 1 : failures + 1
            let ceiling = min(configuration.maxDelay, configuration.initialDelay * pow(2, Double(min(failures - 1, 30))))
            let delay = Double.random(in: 0...max(ceiling, 0.001))
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                return
            }
        }
    }

    /// Reads one connection until it ends; whether it was accepted.
    private func connectOnce(lastEventID: inout String?, signals: AsyncStream<ChangeSignal>.Continuation) async -> Bool {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        let session = StreamingSession()
        let (events, continuation) = AsyncStream.makeStream(of: StreamPart.self)
        let cancel = session.start(request, into: continuation)
        defer {
            continuation.finish()
            cancel()
            withExtendedLifetime(session) {}  // Its deinit cancels the connection: not before the stream is read.
        }
        var lines = EventLines(maxLineBytes: configuration.maxLineBytes, lastEventID: lastEventID)
        var accepted = false
        for await part in events {
            switch part {
            case .response(let status, let contentType):
                let media = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                guard status == 200, media == "text/event-stream" else { return false }
                accepted = true
                // After each (re)connection the client fetches: events may have been missed.
                signals.yield(.changed(version: nil))
            case .data(let chunk):
                guard let items = lines.feed(chunk) else { return accepted }
                lastEventID = lines.lastEventID
                for data in items {
                    guard let event = try? JSONParser().parse(Data(data.utf8)), event["type"]?.stringValue == "refetchEvaluation"
                    else { continue }
                    let lastModified: String? =
                        switch event["lastModified"] {
                        case .int(let seconds)?: String(seconds)
                        case .string(let text)?: text
                        default: nil
                        }
                    links.hint(StreamLinks.Hint(etag: event["etag"]?.stringValue, lastModified: lastModified))
                    signals.yield(.changed(version: nil))
                }
            case .completed:
                return accepted
            }
        }
        return accepted
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
