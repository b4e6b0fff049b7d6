import ConfigDomain
import Foundation
import RemoteConfig
import TestSupport
import Testing

/// One fault against one push path, start to end, with every invariant checked: the fault shared by
/// the SSE, OFREP and etcd suites.
///
/// 1. The client holds version 1 over push (and is `READY`).
/// 2. The fault is applied, and the test waits for the proof that it bit (a reset, a cut, a replay, a
///    dropped connection), then for the client to notice (`STALE`, on paths that report their connection).
/// 3. Two versions are published during the fault; then the fault stops and the newest version is published.
/// 4. The client must hold it within ``PushTiming/bound`` (plus ``PushTiming/loadAllowance`` on a
///    loaded machine; the time is printed), with no version applied twice, none older after a newer,
///    and be `READY` again; it must hold one connection, not one per fault, and close it when stopped.
struct PushFaultScenario {
    let rig: PushRig
    let fault: FaultProxy.Fault
    /// Whether the path reports its connection (SSE and OFREP do; the etcd watcher's reports are not checked here).
    let reportsConnection: Bool

    /// Whether the fault drops the client's connection (so that push is down for a while).
    private var dropsConnection: Bool {
        switch fault {
        case .trickle, .replay, .pass: false
        case .refuse, .reset, .stall, .halfOpen, .halfEvent: true
        }
    }

    /// Runs the scenario; returns the seconds from the fault's end to the newest version held.
    @discardableResult
    func run() async throws -> TimeInterval? {
        let name = "\(rig.path) \(fault)"
        try #require(await rig.ledger.waitUntilHolding(1, within: loopbackDeadline) != nil, "\(name): version 1 never arrived")
        if reportsConnection { #expect(await rig.trail.waitFor(.ready), "\(name): the client never became READY") }
        if fault == .replay {
            // Versions the replay can send again, older than the one the client holds when it does.
            for _ in 0..<2 { try await publishAndWait(name) }
        }
        // A live connection for the fault to break (an etcd watch reopens each idle timeout).
        #expect(await rig.proxy.waitUntil(within: loopbackDeadline) { $0.open - $0.dead >= 1 }, "\(name): no live connection")
        if reportsConnection {
            #expect(await rig.trail.waitUntilLatest(.ready, within: loopbackDeadline), "\(name): not READY before the fault")
        }
        // The position of the state current when the fault starts: a heartbeat missed on a loaded machine may
        // have made it STALE already, and the fault then keeps it so rather than reporting it again.
        let mark = rig.trail.states.count - 1
        let before = rig.proxy.counters
        await rig.proxy.apply(fault)
        try await proveItBit(before: before, name: name)
        if reportsConnection && dropsConnection {
            #expect(await rig.trail.waitFor(.stale, from: mark, within: loopbackDeadline), "\(name): push never reported down: \(rig.trail.history)")
        }
        for _ in 0..<2 { try await rig.publish() }

        await rig.proxy.apply(.pass)
        let healed = Date()
        let newest = try await rig.publish()
        let recovered = await rig.ledger.waitUntilHolding(newest, within: PushTiming.bound + PushTiming.loadAllowance)
        let elapsed = recovered.map { _ in Date().timeIntervalSince(healed) }
        print(
            "push fault \(name): version \(newest) held "
                + (elapsed.map { String(format: "%.2f s", $0) } ?? "never")
                + String(format: " after the fault ended (bound %.1f s); applied %@", PushTiming.bound, "\(rig.ledger.applied)")
                + "; proxy: \(Self.summary(rig.proxy.counters))")
        #expect(elapsed != nil, "\(name): the client did not reach version \(newest) after the fault ended")
        let violations = rig.ledger.violations(publishedUpTo: newest)
        #expect(violations == [], "\(name)")

        if reportsConnection && dropsConnection {
            #expect(await rig.trail.waitFor(.ready, from: mark + 1, within: loopbackDeadline), "\(name): never READY again")
            #expect(rig.trail.wentStaleAndBack(from: mark), "\(name): states \(rig.trail.states.dropFirst(mark))")
        } else if reportsConnection {
            #expect(
                await rig.trail.waitUntilLatest(.ready, within: loopbackDeadline),
                "\(name): states \(rig.trail.states.dropFirst(mark))")
        }
        // One live connection once healed, whatever the fault left behind: the client closed what it abandoned.
        #expect(
            await rig.proxy.waitUntil(within: loopbackDeadline) { $0.open <= 1 },
            "\(name): the client holds \(rig.proxy.counters.open) connections")
        let leaks = await rig.stop()
        #expect(leaks.clientConnections == 0, "\(name): the stopped client left connections open")
        #expect(leaks.proxySockets == 0, "\(name): the stopped proxy left sockets open")
        return elapsed
    }

    /// What the proxy did, in a few words.
    private static func summary(_ counters: FaultProxy.Counters) -> String {
        "\(counters.accepted) connections, \(counters.resets) reset, \(counters.killed) dead, \(counters.cuts) cut, "
            + "\(counters.replayedChunks) chunks replayed"
    }

    /// Publishes a version and waits until the client holds it.
    private func publishAndWait(_ name: String) async throws {
        let version = try await rig.publish()
        #expect(await rig.ledger.waitUntilHolding(version, within: loopbackDeadline) != nil, "\(name): \(version) never arrived")
    }

    /// Waits for the sign that the fault did what it does.
    private func proveItBit(before: FaultProxy.Counters, name: String) async throws {
        let proxy = rig.proxy
        let bit: Bool
        switch fault {
        case .pass:
            bit = true
        case .refuse, .reset:
            bit = await proxy.waitUntil(within: loopbackDeadline) { $0.resets > before.resets }
        case .stall:
            // The client gave up on the stalled connection and opened another (stalled too).
            bit = await proxy.waitUntil(within: loopbackDeadline) { $0.accepted > before.accepted }
        case .halfOpen:
            // The connection went dead, and the client noticed: it opened another (dead too).
            bit = await proxy.waitUntil(within: loopbackDeadline) { $0.killed > before.killed && $0.accepted > before.accepted }
        case .trickle:
            // A version still arrives, a byte at a time.
            try await publishAndWait(name)
            bit = proxy.counters.bytesToClients > before.bytesToClients
        case .halfEvent:
            try await rig.publish()  // a chunk to cut (etcd sends nothing on a quiet watch)
            bit = await proxy.waitUntil(within: loopbackDeadline) { $0.cuts > before.cuts }
        case .replay:
            bit = await proxy.waitUntil(within: loopbackDeadline) { $0.replays > before.replays }
        }
        #expect(bit, "\(name): the fault never acted (\(proxy.counters))")
    }
}
