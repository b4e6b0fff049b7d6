import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import RemoteConfig
import SSEAdapter
import TestSupport
import Testing

/// What an SSE source said of its connection, with when, and a wait for a kind of event.
private final class ConnectionEvents: Sendable {
    private struct State {
        var events: [(at: Date, event: SSEConnectionEvent)] = []
        var waiters: [(predicate: @Sendable (Date, SSEConnectionEvent) -> Bool, met: Eventual<Date>)] = []
    }

    private let state = Locked(State())

    /// Records `event` now (the source's `onEvent`).
    func append(_ event: SSEConnectionEvent) {
        let now = Date()
        let met = state.withLock { state -> [Eventual<Date>] in
            state.events.append((now, event))
            let met = state.waiters.filter { $0.predicate(now, event) }.map(\.met)
            state.waiters.removeAll { $0.predicate(now, event) }
            return met
        }
        for waiter in met { waiter.set(now) }
    }

    /// When the first event after `start` satisfying `predicate` came (already or to come); nil when
    /// `seconds` pass first (a safety net).
    func first(
        after start: Date, within seconds: TimeInterval, where predicate: @escaping @Sendable (SSEConnectionEvent) -> Bool
    ) async -> Date? {
        let met = Eventual<Date>()
        let already = state.withLock { state -> Date? in
            if let found = state.events.first(where: { $0.at >= start && predicate($0.event) }) { return found.at }
            state.waiters.append(({ at, event in at >= start && predicate(event) }, met))
            return nil
        }
        if let already { return already }
        return await met.value(within: seconds)
    }

    /// Every event so far, for failure messages.
    var summary: String { state.withLock { $0.events.map { "\($0.event)" }.joined(separator: ", ") } }
}

/// A server in a network namespace of its own, reached over a veth pair whose link the test takes
/// down and brings back while a client streams (see ``LinkDownNetwork``). Skipped, with the reason,
/// where the machine cannot make a namespace (not root, no `ip`, or `ip netns add` fails).
@Suite(
    "A link that really goes down: a server in a network namespace over a veth pair",
    .enabled(if: LinkDownNetwork.unavailableReason == nil, LinkDownNetwork.skipComment),
    .enabled(
        if: PythonSSEServer.isAvailable,
        "python3 cannot import sse_starlette and uvicorn; install them with python3 -m pip install sse-starlette uvicorn"),
    .timeLimit(.minutes(2)))
struct LinkDownTests {
    private static let version = ServerRestartScenario.version
    /// The server's heartbeat interval and the client's timeout: a dead link is noticed in 1.5 to 2.5 s.
    private static let ping: TimeInterval = 1
    private static let heartbeatTimeout: TimeInterval = 2.5

    @Test(
        "sse-starlette: the client notices within its heartbeat timeout, reconnects when the link returns, and holds the newest version"
    )
    func sseLinkDownAndUp() async throws {
        try await LinkDownNetwork.with { network in
            let server = try await RestartablePythonSSE.start(
                host: network.serverAddress, ping: Self.ping, namespace: network.namespace)
            do {
                try await Self.streamThroughOutage(network, server)
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
            let left = await SocketCensus.waitUntilClosed(toPorts: [server.port], host: network.serverAddress)
            #expect(left == 0, "\(left) socket(s) to the server still open after the client stopped: a leak")
        }
    }

    /// Version 1 reaches the client; the link goes down; version 2 is published inside the
    /// namespace; the link comes back. The client is released when this returns.
    private static func streamThroughOutage(_ network: LinkDownNetwork, _ server: RestartablePythonSSE) async throws {
        let connections = ConnectionEvents()
        let fetcher = try HTTPFetcher(
            url: server.url("/config.json"), configuration: .init(timeout: 5, allowsInsecureHTTPForNonLoopbackHosts: true))
        let events = try SSEChangeSignalSource(
            url: server.url("/events"),
            configuration: .init(
                signalsOnConnect: false, heartbeatTimeout: heartbeatTimeout,
                reconnect: ReconnectPolicy(initial: 0.2, multiplier: 2, maximum: 1, honorsServerRetry: false),
                onEvent: { connections.append($0) }))
        let client = try RemoteConfigClient.builder(fetcher: fetcher).push(events).register(version).build()
        let states = ProviderStateLog(client)
        let ledger = VersionLedger()
        let recorder = ServerRestartScenario.record(client, into: ledger)
        do {
            try await server.publish(1)
            try await ServerRestartScenario.waitUntilHolding(1, [ledger], "before the link went down")

            #expect(await states.waitUntilLatest(.ready), "READY before the link goes down: \(states.history)")
            let before = states.states.count
            let down = Date()
            try network.setLink(up: false)
            let noticed = await connections.first(after: down, within: heartbeatTimeout + 10) { event in
                guard case .disconnected(let error) = event, case .heartbeatTimeout = error.kind else { return false }
                return true
            }
            let elapsed = try #require(noticed, "the dead link was never noticed: \(connections.summary)").timeIntervalSince(down)
            // The heartbeat timeout noticed it (the event's kind says so); the time is a figure, not a check.
            print("link down: noticed after \(elapsed) s (heartbeat timeout \(heartbeatTimeout) s)")
            #expect(await states.waitFor(.stale, from: before), "the dead link never made the client STALE: \(states.history)")
            #expect(client[version] == 1, "the last good configuration stays")

            try await network.post(#"{"version": 2}"#, to: server.url("/publish"))
            let up = Date()
            try network.setLink(up: true)
            let reconnected = await connections.first(after: up, within: 20) { $0 == .connected }
            #expect(reconnected != nil, "no reconnection after the link came back: \(connections.summary)")
            let caughtUp = await ledger.waitUntilHolding(2, within: 20)
            #expect(caughtUp != nil, "the version published during the outage never arrived: \(ledger.applied)")
            #expect(await states.waitUntilLatest(.ready), "not READY again: \(states.history)")
            let connected = SocketCensus.sockets(toPorts: [server.port], host: network.serverAddress)
            #expect(connected > 0, "the census sees the client's connection")
            print("link up: version 2 held after \(Date().timeIntervalSince(up)) s")
        } catch {
            await client.stop()
            throw error
        }
        await client.stop()
        await recorder.value
        #expect(ledger.violations(publishedUpTo: 2) == [], "applied \(ledger.applied)")
    }
}
