import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import SSEAdapter
import TestDoubles
import TestSupport
import Testing

/// The SSE source against a streaming server on 127.0.0.1 whose every byte the test sends.
@Suite("SSEChangeSignalSource")
struct SSEChangeSignalSourceTests {
    /// Runs `body` with a server whose `/events` the endpoint drives, and a source for it on a manual clock.
    private func withSource(
        random: Double = 1, configure: (inout SSEChangeSignalSource.Configuration) -> Void = { _ in },
        _ body: (SSEChangeSignalSource, EventEndpoint, ConnectionLog, ManualClock) async throws -> Void
    ) async throws {
        let endpoint = EventEndpoint()
        try await TestHTTPServer.with({ request in try await endpoint.respond(request) }) { server in
            let log = ConnectionLog()
            let clock = ManualClock()
            var configuration = SSEChangeSignalSource.Configuration(
                heartbeatTimeout: nil, clock: clock, random: { random }, onEvent: { log.record($0) })
            configure(&configuration)
            let source = try SSEChangeSignalSource(url: server.url("/events"), configuration: configuration)
            defer { endpoint.closeAll() }
            try await body(source, endpoint, log, clock)
        }
    }

    private func isConnected(_ event: SSEConnectionEvent) -> Bool { event == .connected }

    @Test("the source passes the change-signal contract against a streaming server")
    func contract() async throws {
        let endpoint = EventEndpoint()
        try await TestHTTPServer.with({ request in try await endpoint.respond(request) }) { server in
            let counter = Locked(0)
            let report = await ChangeSignalContract<SSEChangeSignalSource>(
                subject: "SSEChangeSignalSource",
                makeSource: { _ in try SSEChangeSignalSource(url: server.url("/events")) },
                publish: { _, document in
                    let version = "\"v\(counter.withLock { $0 += 1; return $0 })-\(document.count)\""
                    endpoint.broadcast("data: \(version)\n\n")
                    return version
                }
            ).run()
            endpoint.closeAll()
            report.recordIssues()
            #expect(report.passed)
        }
    }

    @Test("a version event becomes a signal, after the resync signal of the connection")
    func versionEvents() async throws {
        try await withSource { source, endpoint, _, _ in
            var signals = source.signals().makeAsyncIterator()
            let feed = await endpoint.connection(1)
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .changed(version: nil))
            feed.send(": hello\n\nevent: ping\ndata: ignored\n\ndata: \"v2\"\n\n")
            #expect(await signals.next() == .changed(version: "\"v2\""))
            #expect(feed.headers["accept"] == "text/event-stream")
        }
    }

    @Test("a payload event carries the whole payload, its ID the ETag")
    func payloadEvents() async throws {
        try await withSource(configure: {
            $0.mapping = .payload(); $0.signalsOnConnect = false
        }) { source, endpoint, _, _ in
            var signals = source.signals().makeAsyncIterator()
            let feed = await endpoint.connection(1)
            feed.send("id: \"p1\"\ndata: {\"a\":\ndata: 1}\n\n")
            let expected = FetchedPayload(
                bytes: Data("{\"a\":\n1}".utf8), validators: Validators(etag: "\"p1\""), source: source.name)
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .payload(expected))
        }
    }

    @Test("after the server ends the stream, the source reconnects sending Last-Event-ID")
    func reconnectsWithLastEventID() async throws {
        try await withSource(random: 0) { source, endpoint, log, _ in
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            let first = await endpoint.connection(1)
            first.send("id: 41\ndata: a\n\nid: 42\ndata: b\n\n")
            first.close()
            let second = await endpoint.connection(2)
            #expect(second.headers["last-event-id"] == "42")
            #expect(await log.disconnection(1)?.kind == .closedByServer)
            #expect(log.events.contains(.connecting(attempt: 2, lastEventID: "42")))
        }
    }

    @Test("the server's retry field sets the base of the wait, with jitter drawn from the injected random")
    func serverRetryField() async throws {
        try await withSource(random: 0.5) { source, endpoint, log, clock in
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            let first = await endpoint.connection(1)
            first.send("retry: 8000\n\n")
            first.close()
            await log.waitCounting(1) { if case .waiting = $0 { true } else { false } }
            #expect(log.waits == [4])  // 0.5 × 8 s; the connection delivered, so the count started again
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 4)
            _ = await endpoint.connection(2)
        }
    }

    @Test("failures back off exponentially up to the maximum, and a healthy connection starts the count again")
    func exponentialBackoff() async throws {
        try await withSource(configure: { $0.reconnect = ReconnectPolicy(initial: 1, multiplier: 2, maximum: 4) }) {
            source, endpoint, log, clock in
            for _ in 0..<4 { endpoint.queue(Reply.make(503, ["Content-Type": "text/plain"])) }
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            for attempt in 1...4 {
                await log.waitCounting(attempt) { if case .waiting = $0 { true } else { false } }
                await clock.waitForSleepers(count: 1)
                clock.advance(by: log.waits[attempt - 1])
            }
            #expect(log.waits == [1, 2, 4, 4])
            #expect(await log.disconnection(1)?.kind == .httpStatus(503))
            let healthy = await endpoint.connection(5)
            healthy.send("data: x\n\n")
            healthy.close()
            await log.waitCounting(5) { if case .waiting = $0 { true } else { false } }
            #expect(log.waits.last == 1)
        }
    }

    @Test("a response that is not an event stream is refused with a message naming the content type")
    func notAnEventStream() async throws {
        try await withSource { source, endpoint, log, _ in
            endpoint.queue(Reply.json("{}"))
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            let error = await log.disconnection(1)
            #expect(error?.kind == .notAnEventStream(contentType: "application/json"))
            #expect(error?.message.contains("events URL") == true)
        }
    }

    @Test("a silent connection is dropped after the heartbeat timeout and reopened")
    func heartbeatTimeout() async throws {
        try await withSource(random: 0, configure: { $0.heartbeatTimeout = 30 }) { source, endpoint, log, clock in
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            let first = await endpoint.connection(1)
            first.send(": heartbeat\n")
            await log.waitCounting(1, isConnected)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 30)
            #expect(await log.disconnection(1)?.kind == .heartbeatTimeout(seconds: 30))
            _ = await endpoint.connection(2)
        }
    }

    @Test("a line over the cap drops the connection with a typed error, and the source reconnects")
    func lineCap() async throws {
        try await withSource(random: 0, configure: { $0.maxLineBytes = 32 }) { source, endpoint, log, _ in
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            let first = await endpoint.connection(1)
            first.send("data: " + String(repeating: "x", count: 64) + "\n\n")
            #expect(await log.disconnection(1)?.kind == .lineTooLong(limit: 32))
            _ = await endpoint.connection(2)
        }
    }

    @Test("an event over the cap drops the connection with a typed error")
    func eventCap() async throws {
        try await withSource(random: 0, configure: { $0.maxEventBytes = 16 }) { source, endpoint, log, _ in
            let consumer = Task { for await _ in source.signals() {} }
            defer { consumer.cancel() }
            let first = await endpoint.connection(1)
            first.send("data: 0123456789\ndata: 0123456789\n\n")
            #expect(await log.disconnection(1)?.kind == .eventTooLarge(limit: 16))
        }
    }

    @Test("a refused connection is a transport error, retried with backoff")
    func connectionRefused() async throws {
        let port = try await TestHTTPServer.with { $0.port }  // a port nothing listens on any more
        let log = ConnectionLog()
        let clock = ManualClock()
        let source = try SSEChangeSignalSource(
            url: URL(string: "http://127.0.0.1:\(port)/events")!,
            configuration: .init(clock: clock, random: { 1 }, onEvent: { log.record($0) }))
        let consumer = Task { for await _ in source.signals() {} }
        defer { consumer.cancel() }
        let error = await log.disconnection(1)
        guard case .transport(let code)? = error?.kind else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(code != 0)
        #expect(log.waits == [1])
    }

    @Test("pause closes the connection and holds reconnection; resume reconnects at once")
    func pauseAndResume() async throws {
        try await withSource { source, endpoint, log, _ in
            var signals = source.signals().makeAsyncIterator()
            _ = await endpoint.connection(1)
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .changed(version: nil))
            source.pause()
            #expect(source.isPaused)
            await log.waitCounting(1) { $0 == .paused }
            #expect(endpoint.count == 1)
            guard case .connection(.disconnected(let reason, let retryIn))? = await signals.next() else {
                Issue.record("pausing must report the connection down")
                return
            }
            #expect(reason.contains("paused") && retryIn == nil, "\(reason)")
            source.resume()
            let second = await endpoint.connection(2)
            #expect(await signals.next() == .connection(.connected))
            #expect(await signals.next() == .changed(version: nil))
            second.send("data: v3\n\n")
            #expect(await signals.next() == .changed(version: "v3"))
            #expect(!source.isPaused)
        }
    }

    @Test("a URL that is not http or https is refused with a typed error")
    func unsupportedURL() {
        #expect(throws: SSEError.self) { try SSEChangeSignalSource(url: URL(fileURLWithPath: "/tmp/events")) }
        do {
            _ = try SSEChangeSignalSource(url: URL(string: "ftp://example.com/events")!)
        } catch {
            #expect(error.kind == .unsupportedURL)
            #expect(error.message.contains("http://127.0.0.1:8080/events"))
        }
    }
}
