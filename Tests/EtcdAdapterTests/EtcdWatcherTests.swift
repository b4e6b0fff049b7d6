import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import TestSupport
import Testing

@testable import EtcdAdapter

/// The watcher's loop against a scripted gateway, with time on a `ManualClock`: backoff, silence,
/// refused tokens, compaction, and the signals for states that make no payload. Connection reports
/// are skipped here (`nextChange()`); `EtcdWatcherConnectionTests` checks them.
@Suite("EtcdWatcher against a scripted gateway", .timeLimit(.minutes(2)))
struct EtcdWatcherTests {
    private static func watcher(
        _ server: TestHTTPServer, clock: ManualClock, password: String? = nil, idle: TimeInterval? = 60,
        layout: EtcdLayout = .document(key: FakeGateway.key)
    ) throws -> EtcdWatcher {
        let credentials = password.map { EtcdCredentials(username: "app", password: $0) }
        return try EtcdWatcher(
            connection: EtcdConnection(
                endpoints: [server.url("")], credentials: credentials, requestTimeout: 15, watchIdleTimeout: idle,
                reconnectDelay: 1...8, clock: clock, random: { 1 }),
            layout: layout)
    }

    /// Runs `body` with a scripted gateway on a test server, opening every gate afterwards.
    private static func with(
        _ gateway: FakeGateway, gates: [Gate] = [], _ body: (TestHTTPServer) async throws -> Void
    ) async throws {
        try await TestHTTPServer.with({ await gateway.respond(to: $0) }) { server in
            defer { gates.forEach { $0.open() } }
            try await body(server)
        }
    }

    @Test("a failure is retried at once, then it waits on the clock, twice as long each round, and carries on")
    func backoff() async throws {
        let gateway = FakeGateway()
        gateway.failRanges(3)
        try await Self.with(gateway) { server in
            let clock = ManualClock()
            let subscription = SignalSubscription(try Self.watcher(server, clock: clock))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            let first = Task { await signals.nextChange() }
            await clock.waitForSleepers(count: 1)
            #expect(gateway.count("/v3/kv/range") == 2, "the first retry does not wait")
            clock.advance(by: 0.99)
            #expect(clock.sleeperCount == 1, "the first wait is 1 s (random 1 × the first cap)")
            clock.advance(by: 0.01)
            await clock.waitForSleepers(count: 1)
            #expect(gateway.count("/v3/kv/range") == 3)
            clock.advance(by: 1.99)
            #expect(clock.sleeperCount == 1, "the second wait is 2 s")
            clock.advance(by: 0.01)
            guard case .payload(let payload)? = await first.value else {
                Issue.record("the fourth read succeeds and is signalled")
                return
            }
            #expect(payload.bytes == Data(#"{"a":1}"#.utf8))
            #expect(gateway.count("/v3/kv/range") == 4)
        }
    }

    @Test("a watch silent past the idle timeout is reopened from the same revision")
    func idleTimeout() async throws {
        let gateway = FakeGateway()
        let gates = [Gate(), Gate()]
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gates[0]))
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gates[1]))
        try await Self.with(gateway, gates: gates) { server in
            let clock = ManualClock()
            let subscription = SignalSubscription(try Self.watcher(server, clock: clock, idle: 60))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            guard case .payload? = await signals.nextChange() else {
                Issue.record("the first signal is the payload")
                return
            }
            // The watch reached the gateway; its silence timer is the only sleeper.
            await gateway.waitForWatchCalls(1)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 60)
            await gateway.waitForWatchCalls(2)
            #expect(gateway.watchCalls.map(\.startRevision) == [3, 3])
        }
    }

    @Test("every revision in a stream is signalled in order; a transaction's events make one signal")
    func revisionsInOrder() async throws {
        let gateway = FakeGateway(document: nil)
        let gate = Gate()
        let prefix = "/app/flags/"
        gateway.queueWatch(
            .stream(
                [
                    FakeGateway.line(created: true, revision: 1),
                    FakeGateway.line(revision: 3, events: [(prefix + "a", "1", 2), (prefix + "b", "hello", 3)]),
                    FakeGateway.line(revision: 4, events: [(prefix + "a", "2", 4), (prefix + "b", nil, 4)]),
                ], until: gate))
        try await Self.with(gateway, gates: [gate]) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock(), layout: .prefix(prefix)))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            var received: [ChangeSignal] = []
            for _ in 0..<4 { if let signal = await signals.nextChange() { received.append(signal) } }
            #expect(received.first == .changed(version: nil), "no key under the prefix yet: the client's fetch reports it")
            let payloads = received.dropFirst().compactMap { signal -> String? in
                guard case .payload(let payload) = signal else { return nil }
                return String(decoding: payload.bytes, as: UTF8.self) + " @" + (payload.validators.etag ?? "")
            }
            #expect(payloads == [#"{"a":1} @2/1"#, #"{"a":1,"b":"hello"} @3/2"#, #"{"a":2} @4/1"#])
        }
    }

    @Test("a revision the stream sends again is skipped: no older configuration is signalled after a newer one")
    func repeatedRevisionsSkipped() async throws {
        let gateway = FakeGateway(document: nil)
        let gate = Gate()
        let prefix = "/app/flags/"
        let second = FakeGateway.line(revision: 2, events: [(prefix + "a", "1", 2)])
        let third = FakeGateway.line(revision: 3, events: [(prefix + "a", "2", 3)])
        gateway.queueWatch(
            .stream(
                [
                    FakeGateway.line(created: true, revision: 1), second, third, second, third,
                    FakeGateway.line(revision: 4, events: [(prefix + "a", "3", 4)]),
                ], until: gate))
        try await Self.with(gateway, gates: [gate]) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock(), layout: .prefix(prefix)))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            var received: [ChangeSignal] = []
            for _ in 0..<4 { if let signal = await signals.nextChange() { received.append(signal) } }
            let payloads = received.dropFirst().compactMap { signal -> String? in
                guard case .payload(let payload) = signal else { return nil }
                return String(decoding: payload.bytes, as: UTF8.self) + " @" + (payload.validators.etag ?? "")
            }
            #expect(payloads == [#"{"a":1} @2/1"#, #"{"a":2} @3/1"#, #"{"a":3} @4/1"#])
        }
    }

    @Test("a compacted revision makes it read again and watch from after that read")
    func compaction() async throws {
        let gateway = FakeGateway()
        let gates = [Gate(), Gate()]
        gateway.queueWatch(.stream([FakeGateway.line(revision: 9, compactRevision: 7)], until: gates[0]))
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 9)], until: gates[1]))
        try await Self.with(gateway, gates: gates) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock()))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            guard case .payload? = await signals.nextChange() else {
                Issue.record("the first signal is the payload")
                return
            }
            let revision = gateway.put(Data(#"{"a":2}"#.utf8))
            guard case .payload(let reread)? = await signals.nextChange() else {
                Issue.record("the re-read is signalled")
                return
            }
            #expect(reread.validators.etag == String(revision))
            #expect(gateway.count("/v3/kv/range") == 2)
            await gateway.waitForWatchCalls(2)
            #expect(gateway.watchCalls.map(\.startRevision) == [3, revision + 1])
        }
    }

    @Test("a refused token in the stream is replaced, and the watch reopened with the new one")
    func refusedToken() async throws {
        let gateway = FakeGateway(password: "pw")
        let gates = [Gate(), Gate()]
        gateway.queueWatch(
            .stream(
                [
                    FakeGateway.line(
                        created: true, revision: 2,
                        cancelReason: "rpc error: code = Unauthenticated desc = etcdserver: invalid auth token")
                ],
                until: gates[0]))
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gates[1]))
        try await Self.with(gateway, gates: gates) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock(), password: "pw"))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            guard case .payload? = await signals.nextChange() else {
                Issue.record("the first signal is the payload")
                return
            }
            await gateway.waitForWatchCalls(2)
            #expect(gateway.watchCalls.map(\.token) == ["token-1", "token-2"])
            #expect(gateway.count("/v3/auth/authenticate") == 2)
        }
    }

    @Test("a document that is not a JSON object, or a deleted key, is signalled as a change for the fetch to report")
    func statesWithoutPayload() async throws {
        let gateway = FakeGateway()
        let gate = Gate()
        gateway.queueWatch(
            .stream(
                [
                    FakeGateway.line(created: true, revision: 2),
                    FakeGateway.line(revision: 3, events: [(FakeGateway.key, "[1,2]", 3)]),
                    FakeGateway.line(revision: 4, events: [(FakeGateway.key, nil, 4)]),
                ], until: gate))
        try await Self.with(gateway, gates: [gate]) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock()))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            var received: [ChangeSignal] = []
            for _ in 0..<3 { if let signal = await signals.nextChange() { received.append(signal) } }
            #expect(received.dropFirst() == [.changed(version: "3"), .changed(version: nil)])
        }
    }

    @Test("cancelling the consumer ends the sequence and closes the watch")
    func cancellation() async throws {
        let gateway = FakeGateway()
        let gate = Gate()
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gate))
        try await Self.with(gateway, gates: [gate]) { server in
            let watcher = try Self.watcher(server, clock: ManualClock())
            let first = Eventual<Void>()
            let consumer = Task {
                var count = 0
                for await signal in watcher.signals() where signal.isChange {
                    count += 1
                    first.set(())
                }
                return count
            }
            await first.value()
            consumer.cancel()
            #expect(await consumer.value == 1)
        }
    }
}
