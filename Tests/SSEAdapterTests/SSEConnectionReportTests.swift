import ConfigDomain
import ConfigPorts
import Foundation
import SSEAdapter
import TestDoubles
import TestSupport
import Testing

/// The SSE source's connection reports (`.connection`), which turn the client's status `STALE` while push is down.
@Suite("SSEChangeSignalSource connection reports")
struct SSEConnectionReportTests {
    /// Runs `body` with a server whose `/events` the endpoint drives, a source on a manual clock and
    /// the source's signals, read by a subscription the helper stops.
    private func withSignals(
        random: Double = 0.5, configure: (inout SSEChangeSignalSource.Configuration) -> Void = { _ in },
        _ body: (inout AsyncStream<ChangeSignal>.Iterator, SSEChangeSignalSource, EventEndpoint, ConnectionLog, ManualClock)
            async throws -> Void
    ) async throws {
        let endpoint = EventEndpoint()
        try await TestHTTPServer.with({ request in try await endpoint.respond(request) }) { server in
            let log = ConnectionLog()
            let clock = ManualClock()
            var configuration = SSEChangeSignalSource.Configuration(
                heartbeatTimeout: nil, reconnect: ReconnectPolicy(initial: 2, multiplier: 2, maximum: 8), clock: clock,
                random: { random }, onEvent: { log.record($0) })
            configure(&configuration)
            let source = try SSEChangeSignalSource(url: server.url("/events"), configuration: configuration)
            let subscription = SignalSubscription(source)
            defer {
                subscription.stop()
                endpoint.closeAll()
            }
            var signals = subscription.signals.makeAsyncIterator()
            try await body(&signals, source, endpoint, log, clock)
        }
    }

    /// The next connection report, skipping changes.
    private func nextReport(_ signals: inout AsyncStream<ChangeSignal>.Iterator) async -> PushConnection? {
        while let signal = await signals.next() {
            if case .connection(let connection) = signal { return connection }
        }
        return nil
    }

    @Test("connected when the server accepts; down with the reconnect delay when the stream ends; connected again")
    func downAndUp() async throws {
        try await withSignals { signals, _, endpoint, log, clock in
            let first = await endpoint.connection(1)
            #expect(await nextReport(&signals) == .connected)
            first.close()
            guard case .disconnected(let reason, let retryIn)? = await nextReport(&signals) else {
                Issue.record("an ended stream must be reported down")
                return
            }
            #expect(reason.contains("ended the stream"), "\(reason)")
            #expect(retryIn == 1, "half (random 0.5) of the first wait, 2 s")
            #expect(log.waits == [1])
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 1)
            _ = await endpoint.connection(2)
            #expect(await nextReport(&signals) == .connected)
        }
    }

    @Test("a refused connection is reported down with the server's status and the growing wait")
    func refusedWithBackoff() async throws {
        try await withSignals(random: 1) { signals, _, endpoint, _, clock in
            endpoint.queue(Reply.make(503, ["Content-Type": "text/plain"]))
            endpoint.queue(Reply.make(503, ["Content-Type": "text/plain"]))
            var waits: [TimeInterval?] = []
            for _ in 1...2 {
                guard case .disconnected(let reason, let retryIn)? = await nextReport(&signals) else {
                    Issue.record("a refused connection must be reported down")
                    return
                }
                #expect(reason.contains("HTTP 503"), "\(reason)")
                waits.append(retryIn)
                await clock.waitForSleepers(count: 1)
                clock.advance(by: retryIn ?? 0)
            }
            #expect(waits == [2, 4])
            _ = await endpoint.connection(3)
            #expect(await nextReport(&signals) == .connected)
        }
    }

    @Test("a stream silent past the heartbeat timeout is reported down, naming the timeout")
    func silentStream() async throws {
        try await withSignals(configure: { $0.heartbeatTimeout = 30 }) { signals, _, endpoint, _, clock in
            _ = await endpoint.connection(1)
            #expect(await nextReport(&signals) == .connected)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 30)
            guard case .disconnected(let reason, let retryIn)? = await nextReport(&signals) else {
                Issue.record("a silent stream must be reported down")
                return
            }
            #expect(reason.contains("heartbeat"), "\(reason)")
            #expect(retryIn == 1)
        }
    }

    @Test("a stream that cannot be reached at all is reported down before it was ever connected")
    func unreachable() async throws {
        let port = try await TestHTTPServer.with { $0.port }  // nothing listens there any more
        let clock = ManualClock()
        let source = try SSEChangeSignalSource(
            url: URL(string: "http://127.0.0.1:\(port)/events")!, configuration: .init(clock: clock, random: { 0.25 }))
        let subscription = SignalSubscription(source)
        defer { subscription.stop() }
        var signals = subscription.signals.makeAsyncIterator()
        guard case .connection(.disconnected(let reason, let retryIn))? = await signals.next() else {
            Issue.record("the first signal of an unreachable source must be its connection report")
            return
        }
        #expect(reason.contains(source.name), "\(reason)")
        #expect(retryIn == 0.25)
    }
}
