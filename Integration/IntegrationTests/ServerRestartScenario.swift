import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestSupport
import Testing

/// The story every restart test tells, against any server: clients stream while the server
/// publishes versions 1...n; after version `killAfter` has reached every client, the next version
/// is published and the server is SIGKILLed at once (its clients may or may not have heard of that
/// version), then started again on the same port; the remaining versions follow.
///
/// Each client's activations go into a `VersionLedger`: at the end every client must hold version n,
/// having applied no version twice and none after a newer one. Then, with the clients stopped and
/// released, no socket of this process may still be connected to the server's port.
enum ServerRestartScenario {
    /// The key each published document sets: `{"version": n}`.
    static let version = ConfigKey("version", default: 0)

    /// Runs the story on `server` with `clients` clients made by `makeClient`, publishing 1...`versions`.
    static func run(
        on server: some RestartableServer, versions: Int = 8, killAfter: Int = 4, clients: Int = 2,
        makeClient: () throws -> RemoteConfigClient
    ) async throws {
        let ports: Set = [server.port]
        let descriptorsBefore = VersionLedger.openFileDescriptors()
        try await streamThroughRestart(
            on: server, versions: versions, killAfter: killAfter, clients: clients, makeClient: makeClient)
        let left = await SocketCensus.waitUntilClosed(toPorts: ports)
        let leftovers = SocketCensus.describe(toPorts: ports)
        #expect(left == 0, "\(left) socket(s) to port \(server.port) still open after every client stopped: \(leftovers)")
        print(
            "restart on port \(server.port): open descriptors \(descriptorsBefore) before, "
                + "\(VersionLedger.openFileDescriptors()) after (the whole process: parallel tests move it)")
    }

    /// The clients' part of the story; they are released when it returns.
    private static func streamThroughRestart(
        on server: some RestartableServer, versions n: Int, killAfter: Int, clients count: Int,
        makeClient: () throws -> RemoteConfigClient
    ) async throws {
        let clients = try (0..<count).map { _ in try makeClient() }
        let ledgers = clients.map { _ in VersionLedger() }
        let recorders = zip(clients, ledgers).map { record($0, into: $1) }
        do {
            for client in clients { _ = try? await client.refresh() }
            for version in 1...killAfter { try await server.publish(version) }
            try await waitUntilHolding(killAfter, ledgers, "before the kill")

            try await server.publish(killAfter + 1)
            await server.kill()
            try await server.restart()
            let restarted = Date()
            try await waitUntilHolding(killAfter + 1, ledgers, "after the restart", since: restarted)
            for version in (killAfter + 2)...n { try await server.publish(version) }
            try await waitUntilHolding(n, ledgers, "at the end")
            let connected = SocketCensus.sockets(toPorts: [server.port])
            #expect(connected > 0, "the census sees the clients' connections to port \(server.port)")
        } catch {
            for client in clients { await client.stop() }
            throw error
        }
        for client in clients { await client.stop() }
        for recorder in recorders { await recorder.value }
        for (index, ledger) in ledgers.enumerated() {
            #expect(ledger.violations(publishedUpTo: n) == [], "client \(index) applied \(ledger.applied)")
            #expect(clients[index][version] == n)
        }
    }

    /// Records the version of each state `client` activates, until the client stops.
    static func record(_ client: RemoteConfigClient, into ledger: VersionLedger) -> Task<Void, Never> {
        let states = client.watch()
        return Task {
            for await view in states {
                let applied = view[version]
                if applied > 0 { ledger.record(applied) }  // 0 is the key's default: nothing applied yet
            }
        }
    }

    /// Waits (a 20 s safety net) until every ledger holds `version`; records an issue naming the
    /// clients that do not, and prints how long the slowest took when `since` is given.
    static func waitUntilHolding(
        _ version: Int, _ ledgers: [VersionLedger], _ moment: String, since start: Date? = nil
    ) async throws {
        for (index, ledger) in ledgers.enumerated() {
            let reached = await ledger.waitUntilHolding(version, within: 20)
            try #require(reached != nil, "client \(index) did not reach version \(version) \(moment): applied \(ledger.applied)")
        }
        if let start { print("every client held version \(version) \(moment) in \(Date().timeIntervalSince(start)) s") }
    }
}
