import ConfigDomain
import ConfigPorts
import EtcdAdapter
import Foundation
import RemoteConfig
import TestSupport
import Testing

/// A one-member etcd inside a ``LinkDownNetwork``'s namespace, listening for clients on the
/// namespace's end of the pair (its peer URL stays on the namespace's own loopback).
private final class NamespacedEtcd: Sendable {
    private let child: ChildProcess
    private let folder: URL
    /// The client URL, `http://10.213.x.y:<port>`.
    let endpoint: URL
    /// The client port.
    let port: Int

    private init(child: ChildProcess, folder: URL, endpoint: URL, port: Int) {
        self.child = child
        self.folder = folder
        self.endpoint = endpoint
        self.port = port
    }

    /// Starts the member in `network`'s namespace and waits until it is healthy (30 s, a safety net).
    static func start(in network: LinkDownNetwork) async throws -> NamespacedEtcd {
        guard let etcd = EtcdCluster.executable else { throw EtcdClusterError("etcd is not installed") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-linkdown-etcd-\(UUID().uuidString)")
        // Any port is free in a namespace of its own; a random one keeps the census apart from other tests' servers.
        let port = Int.random(in: 20_000...29_999)
        let client = "http://\(network.serverAddress):\(port)"
        let peer = "http://127.0.0.1:\(port + 1)"
        let arguments = [
            "netns", "exec", network.namespace, etcd.path, "--name", "m0", "--data-dir", folder.path,
            "--listen-client-urls", client, "--advertise-client-urls", client, "--listen-peer-urls", peer,
            "--initial-advertise-peer-urls", peer, "--initial-cluster", "m0=\(peer)", "--initial-cluster-state", "new",
            "--logger", "zap", "--log-level", "error",
        ]
        let child = try ChildProcess(URL(fileURLWithPath: LinkDownNetwork.ipPath), arguments: arguments, mergingErrors: true)
        let member = NamespacedEtcd(child: child, folder: folder, endpoint: URL(string: client)!, port: port)
        let admin = EtcdAdmin()
        let deadline = Date().addingTimeInterval(30)
        while await !admin.isHealthy(member.endpoint) {
            guard child.ending == nil, Date() < deadline else {
                await member.stop()
                throw EtcdClusterError("etcd in \(network.namespace) was not healthy within 30 s: \(child.output.text)")
            }
            try await Task.sleep(nanoseconds: 25_000_000)  // a short pause between polls of /health
        }
        return member
    }

    /// Writes `{"version": n}` to `key` from this side of the link.
    func put(_ version: Int, _ key: String) async throws {
        _ = try await EtcdAdmin().call(endpoint, "v3/kv/put", Self.putBody(version, key))
    }

    /// The body of a `v3/kv/put` of `{"version": n}` to `key`.
    static func putBody(_ version: Int, _ key: String) -> [String: Any] {
        ["key": Data(key.utf8).base64EncodedString(), "value": Data(#"{"version": \#(version)}"#.utf8).base64EncodedString()]
    }

    /// Stops the member (SIGTERM, 1 s, SIGKILL) and deletes its data.
    func stop() async {
        _ = await child.stop(grace: 1)
        try? FileManager.default.removeItem(at: folder)
    }
}

/// An etcd member in a network namespace of its own, reached over a veth pair whose link the test
/// takes down and brings back while a client watches. etcd sends nothing on a quiet watch, so the
/// watcher's ``EtcdConnection/watchIdleTimeout`` plays the heartbeat timeout: past it the watch is
/// reopened, the reopening fails, and the watcher reports the connection down (`STALE`).
@Suite(
    "A link that really goes down: an etcd member in a network namespace",
    .enabled(if: LinkDownNetwork.unavailableReason == nil, LinkDownNetwork.skipComment),
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), .timeLimit(.minutes(2)))
struct LinkDownEtcdTests {
    private static let version = ServerRestartScenario.version
    private static let idleTimeout: TimeInterval = 1.5

    @Test(
        "etcd: the client goes STALE within its idle timeout, reconnects when the link returns, and ends READY on the newest version"
    )
    func etcdLinkDownAndUp() async throws {
        try await LinkDownNetwork.with { network in
            let member = try await NamespacedEtcd.start(in: network)
            do {
                try await Self.watchThroughOutage(network, member)
                await member.stop()
            } catch {
                await member.stop()
                throw error
            }
            let left = await SocketCensus.waitUntilClosed(toPorts: [member.port], host: network.serverAddress)
            #expect(left == 0, "\(left) socket(s) to the member still open after the client stopped: a leak")
        }
    }

    /// Versions 1 (read) and 2 (through the watch, which is then live) reach the client; the link
    /// goes down; version 3 is written inside the namespace; the link comes back. The client is
    /// released when this returns.
    private static func watchThroughOutage(_ network: LinkDownNetwork, _ member: NamespacedEtcd) async throws {
        let key = "/rc-linkdown/config"
        try await member.put(1, key)
        let connection = EtcdConnection(
            endpoints: [member.endpoint], requestTimeout: 1, watchIdleTimeout: idleTimeout, reconnectDelay: 0.2...1,
            allowsInsecureHTTPForNonLoopbackHosts: true)
        let layout = EtcdLayout.document(key: key)
        let client = try RemoteConfigClient.builder(fetcher: try EtcdFetcher(connection: connection, layout: layout))
            .push(try EtcdWatcher(connection: connection, layout: layout)).register(version).build()
        let states = ProviderStateLog(client)
        let ledger = VersionLedger()
        let recorder = ServerRestartScenario.record(client, into: ledger)
        do {
            _ = try? await client.refresh()
            try await ServerRestartScenario.waitUntilHolding(1, [ledger], "at the start")
            // Version 2 can only come through the watch: once it is held, the watch is live.
            try await member.put(2, key)
            try await ServerRestartScenario.waitUntilHolding(2, [ledger], "before the link went down")
            #expect(await states.waitUntilLatest(.ready), "READY before the link goes down: \(states.states)")
            let before = states.states.count

            let down = Date()
            try network.setLink(up: false)
            // A dead link sends no reset, so only the watcher's own timeouts can notice it: the kernel's would
            // take minutes, past this wait. The time is printed as a figure, not bounded.
            #expect(await states.waitFor(.stale, from: before), "the dead link never made the client STALE: \(states.states)")
            let elapsed = Date().timeIntervalSince(down)
            print("etcd link down: STALE after \(elapsed) s (idle timeout \(idleTimeout) s): \(states.history)")
            #expect(client[version] == 2, "the last good configuration stays")

            let put = try JSONSerialization.data(withJSONObject: NamespacedEtcd.putBody(3, key))
            try await network.post(String(decoding: put, as: UTF8.self), to: member.endpoint.appendingPathComponent("v3/kv/put"))
            let up = Date()
            try network.setLink(up: true)
            #expect(await ledger.waitUntilHolding(3, within: 20) != nil, "version 3 never arrived: \(ledger.applied)")
            #expect(await states.waitUntilLatest(.ready), "not READY again: \(states.states)")
            let connected = SocketCensus.sockets(toPorts: [member.port], host: network.serverAddress)
            #expect(connected > 0, "the census sees the client's connection")
            print("etcd link up: version 3 held and READY after \(Date().timeIntervalSince(up)) s")
        } catch {
            await client.stop()
            throw error
        }
        await client.stop()
        await recorder.value
        await states.finish()
        #expect(ledger.violations(publishedUpTo: 3) == [], "applied \(ledger.applied)")
    }
}
