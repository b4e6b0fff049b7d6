import ConfigDomain
import ConfigPorts
import EtcdAdapter
import Foundation
import RemoteConfig
import TestSupport
import Testing

/// etcd members killed with SIGKILL and restarted (on the same ports, with their data) while two
/// clients stream a key through `EtcdWatcher` and versions 1...8 are written: first the member
/// the clients watch, then the whole cluster. Besides the versions and the sockets (as in
/// ``ServerRestartScenario``), the clients' state must go `STALE` while their watch is down and
/// come back to `READY`. On a cluster of its own (the tests kill members), one test at a time.
@Suite(
    "etcd members killed with SIGKILL and restarted while clients watch",
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), .serialized, EtcdClusterTrait(),
    .timeLimit(.minutes(2)))
struct ServerRestartEtcdTests {
    private static let version = ServerRestartScenario.version
    private static let versions = 8

    /// What the test does to the cluster between the clients holding version 4 and its writing version 6.
    private enum Fault {
        /// Kill the member the clients watch (the first endpoint), then restart it.
        case watchedMember
        /// Kill every member, wait until the clients are `STALE`, then restart them all.
        case wholeCluster
    }

    @Test("killing the member the clients watch: they go STALE, move on, come back READY, and end on version 8, no socket left")
    func watchedMemberKilled() async throws {
        try await run(.watchedMember)
    }

    @Test("killing the whole cluster: the clients go STALE, keep version 5, reconnect after the restart, end READY on version 8")
    func wholeClusterKilled() async throws {
        try await run(.wholeCluster)
    }

    private func run(_ fault: Fault) async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let ports = Set(cluster.members.map { Int($0.clientPort) })
        let key = "/rc-restart/\(UUID().uuidString)/config"
        try await cluster.put(key, #"{"version": 0}"#)
        let descriptorsBefore = VersionLedger.openFileDescriptors()
        try await streamThrough(fault, cluster: cluster, key: key)
        let left = await SocketCensus.waitUntilClosed(toPorts: ports)
        #expect(left == 0, "\(left) socket(s) to the members still open after every client stopped: a leak")
        print(
            "etcd restart (\(fault)): open descriptors \(descriptorsBefore) before, "
                + "\(VersionLedger.openFileDescriptors()) after (the whole process: parallel tests move it)")
    }

    /// The clients' part; they are released when it returns.
    private func streamThrough(_ fault: Fault, cluster: EtcdCluster, key: String) async throws {
        // The first endpoint first: the clients read and watch there until it fails.
        let connection = EtcdConnection(endpoints: cluster.endpoints, requestTimeout: 2, reconnectDelay: 0.1...0.5)
        let layout = EtcdLayout.document(key: key)
        let clients = try (0..<2).map { _ in
            try RemoteConfigClient.builder(fetcher: try EtcdFetcher(connection: connection, layout: layout))
                .push(try EtcdWatcher(connection: connection, layout: layout)).register(Self.version).build()
        }
        let logs = clients.map(ProviderStateLog.init)
        let ledgers = clients.map { _ in VersionLedger() }
        let recorders = zip(clients, ledgers).map { ServerRestartScenario.record($0, into: $1) }
        do {
            for client in clients { _ = try? await client.refresh() }
            for version in 1...4 { try await put(version, key, cluster) }
            try await ServerRestartScenario.waitUntilHolding(4, ledgers, "before the kill")
            for (index, log) in logs.enumerated() {
                #expect(await log.waitUntilLatest(.ready), "client \(index) was not READY before the kill: \(log.history)")
            }
            let before = logs.map(\.states.count)

            try await put(5, key, cluster)
            switch fault {
            case .watchedMember:
                await cluster.kill(0)
                for (index, log) in logs.enumerated() {
                    #expect(await log.waitFor(.stale, from: before[index]), "client \(index) never went STALE: \(log.history)")
                }
                try await cluster.restart(0)
            case .wholeCluster:
                await withTaskGroup(of: Void.self) { group in
                    for member in cluster.members.indices { group.addTask { await cluster.kill(member) } }
                }
                for (index, log) in logs.enumerated() {
                    // With every member dead, STALE is where it ends: no watch can be created to end it.
                    #expect(await log.wait { $0.last == .stale }, "client \(index) is not STALE: \(log.history)")
                    #expect(clients[index][Self.version] >= 4, "the last good configuration stays")
                }
                try await cluster.restart(Array(cluster.members.indices))
            }
            for version in 6...Self.versions { try await put(version, key, cluster) }
            try await ServerRestartScenario.waitUntilHolding(Self.versions, ledgers, "at the end")
            for (index, log) in logs.enumerated() {
                #expect(await log.waitUntilLatest(.ready), "client \(index) did not come back READY: \(log.history)")
            }
            let ports = Set(cluster.members.map { Int($0.clientPort) })
            #expect(SocketCensus.sockets(toPorts: ports) > 0, "the census sees the clients' watches")
        } catch {
            for client in clients { await client.stop() }
            throw error
        }
        for client in clients { await client.stop() }
        for recorder in recorders { await recorder.value }
        for log in logs { await log.finish() }
        for (index, ledger) in ledgers.enumerated() {
            #expect(ledger.violations(publishedUpTo: Self.versions) == [], "client \(index) applied \(ledger.applied)")
            print("etcd restart (\(fault)): client \(index) applied \(ledger.applied), states \(logs[index].history)")
        }
    }

    private func put(_ version: Int, _ key: String, _ cluster: EtcdCluster) async throws {
        try await cluster.put(key, #"{"version": \#(version)}"#)
    }
}
