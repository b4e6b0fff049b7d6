import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import TestSupport
import Testing

@testable import EtcdAdapter

/// What the watcher reports of its connection (`.connection(_:)` signals), against a scripted
/// gateway with time on a `ManualClock`: a drop and the reconnection, an outage with its waits, and
/// the reopenings that are not outages (a quiet watch, a replaced token).
@Suite("EtcdWatcher connection reports", .timeLimit(.minutes(2)))
struct EtcdWatcherConnectionTests {
    private static func watcher(_ server: TestHTTPServer, clock: ManualClock, password: String? = nil) throws -> EtcdWatcher {
        try EtcdWatcher(
            connection: EtcdConnection(
                endpoints: [server.url("")], credentials: password.map { EtcdCredentials(username: "app", password: $0) },
                requestTimeout: 15, watchIdleTimeout: 60, reconnectDelay: 1...8, clock: clock, random: { 1 }),
            layout: .document(key: FakeGateway.key))
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

    /// The document put at `revision`, as a watch line.
    private static func put(_ document: String, at revision: Int64) -> String {
        FakeGateway.line(revision: revision, events: [(FakeGateway.key, document, revision)])
    }

    /// `payload @3` or the report, for comparing sequences in one expectation.
    private static func describe(_ signal: ChangeSignal?) -> String {
        switch signal {
        case .payload(let payload)?: "payload @\(payload.validators.etag ?? "none")"
        case .changed(let version)?: "changed \(version ?? "nil")"
        case .connection(.connected)?: "connected"
        case .connection(.disconnected(_, let retryIn))?: "disconnected, retry in \(retryIn.map { "\($0)" } ?? "nil")"
        case nil: "end"
        }
    }

    @Test("a dropped watch is reported down, retried at once, and reported connected when the new watch is created")
    func dropAndReconnect() async throws {
        let gateway = FakeGateway()
        let gates = [Gate(), Gate()]
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gates[0]))
        gateway.queueWatch(
            .stream([FakeGateway.line(created: true, revision: 2), Self.put(#"{"a":2}"#, at: 3)], until: gates[1]))
        try await Self.with(gateway, gates: gates) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock()))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            var seen = [Self.describe(await signals.next()), Self.describe(await signals.next())]
            #expect(seen == ["payload @2", "connected"], "the current payload, then the watch is live")

            gates[0].open()  // the member ends the stream
            let drop = await signals.next()
            guard case .connection(.disconnected(let reason, _))? = drop else {
                Issue.record("the drop must be reported, got \(Self.describe(drop))")
                return
            }
            #expect(reason.contains("the watch stream from \(server.url("").absoluteString)"), "\(reason)")
            #expect(reason.contains("ended"), "\(reason)")
            seen = [Self.describe(drop), Self.describe(await signals.next()), Self.describe(await signals.next())]
            #expect(seen == ["disconnected, retry in 0.0", "connected", "payload @3"])
            #expect(gateway.watchCalls.map(\.startRevision) == [3, 3], "reopened from the revision after the last one")
        }
    }

    @Test("an outage is reported at its first failure and again before each wait, with the wait's length")
    func outageWithWaits() async throws {
        let gateway = FakeGateway()
        gateway.failRanges(2)
        let gate = Gate()
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gate))
        try await Self.with(gateway, gates: [gate]) { server in
            let clock = ManualClock()
            let subscription = SignalSubscription(try Self.watcher(server, clock: clock))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            let first = await signals.next()
            guard case .connection(.disconnected(let reason, let retryIn))? = first else {
                Issue.record("a failed first read must be reported, got \(Self.describe(first))")
                return
            }
            #expect(retryIn == 0, "the first retry is at once")
            #expect(reason.contains("no etcd endpoint could serve the request"), "\(reason)")
            #expect(Self.describe(await signals.next()) == "disconnected, retry in 1.0", "then it waits 1 s, and says so")
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 1)
            let recovered = [Self.describe(await signals.next()), Self.describe(await signals.next())]
            #expect(recovered == ["payload @2", "connected"])
            #expect(gateway.count("/v3/kv/range") == 3)
        }
    }

    @Test("a watch that is never confirmed within the request timeout is reported down, naming the endpoint")
    func unconfirmedWatch() async throws {
        let gateway = FakeGateway()
        let gate = Gate()
        gateway.queueWatch(.stream([], until: gate))  // a 200 that never says the watch was created
        try await Self.with(gateway, gates: [gate]) { server in
            let clock = ManualClock()
            let subscription = SignalSubscription(try Self.watcher(server, clock: clock))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            #expect(Self.describe(await signals.next()) == "payload @2")
            await gateway.waitForWatchCalls(1)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 15)
            let report = await signals.next()
            guard case .connection(.disconnected(let reason, let retryIn))? = report else {
                Issue.record("the unanswered watch must be reported, got \(Self.describe(report))")
                return
            }
            #expect(reason == "\(server.url("").absoluteString) did not confirm the watch within 15 s")
            #expect(retryIn == 0)
        }
    }

    @Test("a quiet watch reopened after the idle timeout is not an outage: no report")
    func quietWatchIsNotAnOutage() async throws {
        let gateway = FakeGateway()
        let gates = [Gate(), Gate()]
        gateway.queueWatch(.stream([FakeGateway.line(created: true, revision: 2)], until: gates[0]))
        gateway.queueWatch(
            .stream([FakeGateway.line(created: true, revision: 2), Self.put(#"{"a":2}"#, at: 3)], until: gates[1]))
        try await Self.with(gateway, gates: gates) { server in
            let clock = ManualClock()
            let subscription = SignalSubscription(try Self.watcher(server, clock: clock))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            var seen = [Self.describe(await signals.next()), Self.describe(await signals.next())]
            await clock.waitForSleepers(count: 1)
            clock.advance(by: 60)
            seen.append(Self.describe(await signals.next()))
            #expect(seen == ["payload @2", "connected", "payload @3"], "reopened without a report in between")
            #expect(gateway.watchCalls.count == 2)
        }
    }

    @Test("a token refused on a live watch is replaced without an outage report")
    func replacedTokenIsNotAnOutage() async throws {
        let gateway = FakeGateway(password: "pw")
        let gates = [Gate(), Gate()]
        let refused = FakeGateway.line(
            created: true, revision: 2, cancelReason: "rpc error: code = Unauthenticated desc = etcdserver: invalid auth token")
        gateway.queueWatch(.stream([refused], until: gates[0]))
        gateway.queueWatch(
            .stream([FakeGateway.line(created: true, revision: 2), Self.put(#"{"a":2}"#, at: 3)], until: gates[1]))
        try await Self.with(gateway, gates: gates) { server in
            let subscription = SignalSubscription(try Self.watcher(server, clock: ManualClock(), password: "pw"))
            defer { subscription.stop() }
            var signals = subscription.signals.makeAsyncIterator()
            var seen: [String] = []
            for _ in 0..<3 { seen.append(Self.describe(await signals.next())) }
            #expect(seen == ["payload @2", "connected", "payload @3"])
            #expect(gateway.watchCalls.map(\.token) == ["token-1", "token-2"])
        }
    }
}
