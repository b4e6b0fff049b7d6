import ConfigDomain
import Foundation
import RemoteConfig
import TestSupport
import Testing

/// Push under network faults: a real server (``FaultProxy/PushServer``) behind a ``FaultProxy``, a
/// real client, and every fault the proxy knows, on the SSE and OFREP paths (etcd: `PushFaultEtcdTests`).
///
/// Each case would fail on a client that hangs on a dead connection, misses the newest version,
/// applies an older version or one twice, keeps abandoned connections open, or never says push was
/// down (see ``PushFaultScenario``).
@Suite("Push under faults: SSE and OFREP behind a fault proxy")
struct PushFaultTests {
    @Test("SSE: the client recovers from each fault with every invariant held", arguments: FaultProxy.Fault.all)
    func sse(_ fault: FaultProxy.Fault) async throws {
        try await PushRig.with(.sse) { rig in
            try await PushFaultScenario(rig: rig, fault: fault, reportsConnection: true).run()
        }
    }

    @Test("OFREP: the client recovers from each fault with every invariant held", arguments: FaultProxy.Fault.all)
    func ofrep(_ fault: FaultProxy.Fault) async throws {
        try await PushRig.with(.ofrep) { rig in
            try await PushFaultScenario(rig: rig, fault: fault, reportsConnection: true).run()
        }
    }

    @Test(
        "without a heartbeat timeout, a half-open connection is never left: the client misses the newest version and says nothing",
        arguments: [PushPath.sse, .ofrep])
    func noHeartbeatHangs(_ path: PushPath) async throws {
        try await PushRig.with(path, heartbeat: false) { rig in
            try #require(await rig.ledger.waitUntilHolding(1, within: loopbackDeadline) != nil)
            #expect(await rig.trail.waitFor(.ready))
            #expect(await rig.proxy.waitUntil(within: loopbackDeadline) { $0.open >= 1 })
            let mark = rig.trail.states.count
            await rig.proxy.apply(.halfOpen)
            #expect(rig.proxy.counters.killed >= 1)
            try await rig.publish()
            await rig.proxy.apply(.pass)
            let newest = try await rig.publish()
            // The bound a client with a heartbeat timeout meets (PushFaultTests.sse/ofrep, half-open),
            // and a second more: this client stays on the dead connection for ever.
            let recovered = await rig.ledger.waitUntilHolding(newest, within: PushTiming.bound + 1)
            #expect(
                recovered == nil, "\(path): recovered without a heartbeat timeout; the proxy did not hold the connection dead")
            let violations = rig.ledger.violations(publishedUpTo: newest)
            #expect(violations.contains { $0.contains("not the newest published") }, "\(violations)")
            #expect(!rig.trail.states.dropFirst(mark).contains(.stale), "the status never said push was down")
            #expect(rig.proxy.counters.accepted == 1, "the client never reconnected")
            let leaks = await rig.stop()
            #expect(leaks.clientConnections == 0, "stopping the client closes even the dead connection")
        }
    }

    @Test(
        "while push is down, polling still brings every version, and the status says STALE until push is back",
        arguments: [PushPath.sse, .ofrep])
    func pollingIsTheSafetyNet(_ path: PushPath) async throws {
        try await PushRig.with(path, polling: 0.25) { rig in
            try #require(await rig.ledger.waitUntilHolding(1, within: loopbackDeadline) != nil)
            #expect(await rig.trail.waitUntilLatest(.ready, within: loopbackDeadline))
            let mark = rig.trail.states.count - 1  // the state current when push goes down (STALE already after a missed heartbeat)
            await rig.proxy.apply(.refuse)
            #expect(await rig.trail.waitFor(.stale, from: mark, within: loopbackDeadline), "\(path): \(rig.trail.history)")
            var newest = 0
            for _ in 0..<3 { newest = try await rig.publish() }
            let polled = await rig.ledger.waitUntilHolding(newest, within: 0.25 + PushTiming.loadAllowance)
            #expect(polled != nil, "\(path): polling did not bring version \(newest) while push was down")
            let status = rig.client.status
            #expect(status.state == .stale, "push is still down: \(status.providers.map(\.stateReason))")
            #expect(status.providers.first?.pushDown.isEmpty == false)
            await rig.proxy.apply(.pass)
            #expect(await rig.trail.waitFor(.ready, from: mark + 1, within: loopbackDeadline), "\(path): \(rig.trail.history)")
            #expect(rig.ledger.violations(publishedUpTo: newest) == [])
            let leaks = await rig.stop()
            #expect(leaks.clientConnections == 0 && leaks.proxySockets == 0)
        }
    }
}
