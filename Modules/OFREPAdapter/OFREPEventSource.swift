import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// A push source over the server-sent events an OFREP server names in its bulk evaluations
/// (`eventStreams` of type `sse`, OFREP's ADR 0008): made by ``OFREPFetcher/eventSource(configuration:)``.
///
/// It waits until a fetch has named event streams, connects to each (with the fetcher's headers),
/// and follows the set the latest bulk evaluation names: a context change that names other streams
/// reconnects, one that names none closes them. It signals `.changed(version: nil)` each time a
/// connection opens (the client then fetches, as the protocol asks after a reconnection) and for
/// each `refetchEvaluation` event, whose `etag` and `lastModified` the fetch sends back as
/// `flagConfigEtag` and `flagConfigLastModified`. Events of other types are ignored. A dropped
/// connection, or one silent for longer than the heartbeat timeout, reconnects with exponential
/// backoff and full jitter. Stream URLs may carry tokens: they appear in no name or message.
///
/// It reports its connection: `.connection(.disconnected(reason:retryIn:))` when a stream drops
/// (with the wait before it reconnects) and `.connection(.connected)` once every stream named is
/// connected again, so the client's status says when push is down.
public final class OFREPEventSource: ChangeSignalSource {
    /// How the source reconnects.
    public struct Configuration: Sendable {
        /// The first reconnection delay, in seconds (doubled after each failure, with full jitter). Default 0.5.
        public var initialDelay: TimeInterval
        /// The longest reconnection delay, in seconds. Default 30.
        public var maxDelay: TimeInterval
        /// The longest line accepted from a stream, in bytes; a longer one drops the connection. Default 64 KiB.
        public var maxLineBytes: Int
        /// Drop and reopen a stream on which nothing (not even a comment) arrived for this many seconds;
        /// `nil` never does. Default 45: keep it above the server's heartbeat interval (`remote-config
        /// serve` sends one every 15 s). A reopened stream costs one bulk evaluation, usually a `304`.
        public var heartbeatTimeout: TimeInterval?
        /// The clock that waits between attempts and measures silence (inject `ManualClock` in tests).
        public var clock: any ConfigClock
        /// The source of jitter, a number in `0..<1` (tests make it fixed).
        public var random: @Sendable () -> Double

        /// Creates the settings.
        public init(
            initialDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 30, maxLineBytes: Int = 64 * 1024,
            heartbeatTimeout: TimeInterval? = 45, clock: any ConfigClock = SystemClock(),
            random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
        ) {
            self.initialDelay = initialDelay
            self.maxDelay = maxDelay
            self.maxLineBytes = maxLineBytes
            self.heartbeatTimeout = heartbeatTimeout
            self.clock = clock
            self.random = random
        }

        /// The wait after `failures` consecutive failed or ended connections (n ≥ 1), with full jitter.
        func delay(afterFailures failures: Int) -> TimeInterval {
            let ceiling = min(maxDelay, initialDelay * pow(2, Double(min(max(failures, 1) - 1, 30))))
            return max(ceiling, 0.001) * min(max(random(), 0), 1)
        }
    }

    /// `ofrep events from <endpoint>`, for provenance (never the stream URLs).
    public let name: String
    /// The settings.
    public let configuration: Configuration
    private let links: StreamLinks
    private let headers: [String: String]
    /// One session for every connection of the source (its deinit cancels what is still open).
    private let session = StreamingSession()

    init(links: StreamLinks, endpoint: String, headers: [String: String], configuration: Configuration) {
        self.links = links
        self.name = "ofrep events from \(endpoint)"
        self.headers = headers
        self.configuration = configuration
    }

    /// Follows the event streams the fetcher's bulk evaluations name, until the consuming task is cancelled.
    public func signals() -> AsyncStream<ChangeSignal> {
        let (stream, continuation) = AsyncStream<ChangeSignal>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let task = Task { [links, headers, configuration, session] in
            let board = ConnectionBoard(signals: continuation)
            var connections: Task<Void, Never>?
            var current: [URL] = []
            for await urls in links.updates() {
                if urls == current { continue }
                connections?.cancel()
                current = urls
                board.follow(urls)
                guard !urls.isEmpty else { continue }
                connections = Task {
                    await withTaskGroup(of: Void.self) { group in
                        for (index, url) in urls.enumerated() {
                            let stream = EventStreamConnection(
                                url: url,
                                label: urls.count == 1 ? "the event stream" : "event stream \(index + 1) of \(urls.count)",
                                headers: headers, configuration: configuration, links: links, session: session)
                            group.addTask { await stream.run(yieldingInto: continuation, board: board) }
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

/// The connection state of a source's streams, reported as `.connection` signals: down while any
/// stream the latest bulk evaluation named is down, connected once they all are again.
final class ConnectionBoard: Sendable {
    private struct State {
        var current: Set<URL> = []
        /// The streams that are down.
        var down: Set<URL> = []
    }

    private let state = Locked(State())
    private let signals: AsyncStream<ChangeSignal>.Continuation

    init(signals: AsyncStream<ChangeSignal>.Continuation) { self.signals = signals }

    /// The streams to follow from now on; those no longer named stop counting (and may make the source connected).
    func follow(_ urls: [URL]) {
        let recovered = state.withLock { state -> Bool in
            let wasDown = !state.down.isEmpty
            state.current = Set(urls)
            state.down.formIntersection(state.current)
            return wasDown && state.down.isEmpty
        }
        if recovered { signals.yield(.connection(.connected)) }
    }

    /// The stream at `url` is connected: the source is, unless another stream is down.
    func connected(_ url: URL) {
        let allUp = state.withLock { state -> Bool in
            guard state.current.contains(url) else { return false }
            state.down.remove(url)
            return state.down.isEmpty
        }
        if allUp { signals.yield(.connection(.connected)) }
    }

    /// The stream at `url` dropped, why (never naming the URL), and when it reconnects.
    func disconnected(_ url: URL, reason: String, retryIn: TimeInterval) {
        let counts = state.withLock { state -> Bool in
            guard state.current.contains(url) else { return false }
            state.down.insert(url)
            return true
        }
        if counts { signals.yield(.connection(.disconnected(reason: reason, retryIn: retryIn))) }
    }
}
