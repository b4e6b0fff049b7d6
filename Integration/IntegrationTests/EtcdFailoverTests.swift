import ConfigDomain
import ConfigPorts
import EtcdAdapter
import Foundation
import RemoteConfig
import TestDoubles
import TestSupport
import Testing

/// The etcd adapter while members of a real 3-member cluster die or freeze. The tests take
/// members down, so they run one at a time on a cluster of their own, and each brings the
/// cluster back to three healthy members before it ends.
@Suite(
    "etcd: failover, frozen members and compaction",
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), .serialized, EtcdClusterTrait())
struct EtcdFailoverTests {
    private static func uniqueKey() -> String { "/rc-failover/\(UUID().uuidString)/config" }

    /// The members with `first` first, then the others in order.
    private static func endpoints(_ cluster: EtcdCluster, first: Int) -> [URL] {
        [cluster.endpoints[first]] + cluster.endpoints.indices.filter { $0 != first }.map { cluster.endpoints[$0] }
    }

    @Test("killing the leader the watcher is connected to: it moves to another member and every revision arrives, in order")
    func leaderKilled() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let leader = try await cluster.leader()
        let key = Self.uniqueKey()
        try await cluster.put(key, #"{"n":0}"#)
        let connection = EtcdConnection(endpoints: Self.endpoints(cluster, first: leader), requestTimeout: 2)
        let watcher = try EtcdWatcher(connection: connection, layout: .document(key: key))
        let subscription = SignalSubscription(watcher)
        defer { subscription.stop() }
        var signals = subscription.signals.makeAsyncIterator()
        guard case .payload(let first)? = await signals.nextChange() else {
            Issue.record("the first signal must be the current payload")
            return
        }
        #expect(
            first.source.contains(cluster.endpoints[leader].absoluteString), "the watcher starts on the leader: \(first.source)")

        var published: [Int64] = []
        for n in 1...10 { published.append(try await cluster.put(key, #"{"n":\#(n)}"#)) }
        await cluster.kill(leader)
        // Writes wait for the new leader: a write held by a member during the election could be
        // applied after the harness gave up on it and wrote again, which would add a revision.
        _ = try await cluster.waitForLeader()
        for n in 11...20 { published.append(try await cluster.put(key, #"{"n":\#(n)}"#)) }
        var received: [String] = []
        var last: FetchedPayload?
        while received.count < published.count, let signal = await signals.nextChange() {
            guard case .payload(let payload) = signal else {
                Issue.record("expected payloads only, got \(signal)")
                break
            }
            received.append(payload.validators.etag ?? "none")
            last = payload
        }
        #expect(received == published.map(String.init), "every revision, in order, none lost")
        #expect(last?.bytes == Data(#"{"n":20}"#.utf8))
        #expect(last?.source.contains(cluster.endpoints[leader].absoluteString) == false, "\(last?.source ?? "")")
        // A fetch with the dead member first moves on too.
        let fetcher = try EtcdFetcher(connection: connection, layout: .document(key: key))
        guard case .modified(let fetched) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("a fetch must succeed on a surviving member")
            return
        }
        #expect(fetched.validators.etag == published.last.map(String.init))
        try await cluster.restart(leader)
    }

    @Test(
        "a frozen member is left once the watch stays silent past the idle timeout; a compacted revision makes the watcher re-read"
    )
    func frozenMemberAndCompaction() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let leader = try await cluster.leader()
        let follower = cluster.members.indices.first { $0 != leader } ?? 0
        let key = Self.uniqueKey()
        try await cluster.put(key, #"{"n":0}"#)
        let clock = ManualClock()
        let connection = EtcdConnection(
            endpoints: Self.endpoints(cluster, first: follower), requestTimeout: 2, watchIdleTimeout: 30, clock: clock)
        let watcher = try EtcdWatcher(connection: connection, layout: .document(key: key))
        let subscription = SignalSubscription(watcher)
        defer { subscription.stop() }
        var signals = subscription.signals.makeAsyncIterator()
        guard case .payload? = await signals.nextChange() else {
            Issue.record("the first signal must be the current payload")
            return
        }

        cluster.freeze(follower)
        var last: Int64 = 0
        for n in 1...3 { last = try await cluster.put(key, #"{"n":\#(n)}"#) }
        try await cluster.compact(last)
        // The watch on the frozen member hears nothing; its silence timer is the only sleeper.
        await clock.waitForSleepers(count: 1)
        clock.advance(by: 30)

        guard case .payload(let reread)? = await signals.nextChange() else {
            Issue.record("after the re-read, the watcher must signal the current payload")
            return
        }
        #expect(reread.validators.etag == String(last), "revisions 1 and 2 were compacted away; the re-read has the newest")
        #expect(reread.bytes == Data(#"{"n":3}"#.utf8))
        #expect(!reread.source.contains(cluster.endpoints[follower].absoluteString), "\(reread.source)")

        cluster.thaw(follower)
        let next = try await cluster.put(key, #"{"n":4}"#)
        guard case .payload(let after)? = await signals.nextChange() else {
            Issue.record("the watcher must carry on after the re-read")
            return
        }
        #expect(after.validators.etag == String(next))
        try await cluster.waitUntilHealthy(cluster.members.indices)
    }
}

/// A client fed by the etcd fetcher and watcher while the leader dies (its own cluster: the test
/// kills a member).
@Suite(
    "etcd: a client keeps its configuration through a leader's death",
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), EtcdClusterTrait())
struct EtcdClientFailoverTests {
    private static let revision = ConfigKey("revision", default: -1)

    @Test("killing the leader keeps the last good configuration; changes published after it arrive on their own, in order")
    func clientSurvivesLeaderKill() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let leader = try await cluster.leader()
        let key = "/rc-client/\(UUID().uuidString)/config"
        try await cluster.put(key, #"{"revision":1}"#)
        let endpoints =
            [cluster.endpoints[leader]] + cluster.endpoints.indices.filter { $0 != leader }.map { cluster.endpoints[$0] }
        let connection = EtcdConnection(endpoints: endpoints, requestTimeout: 2)
        let layout = EtcdLayout.document(key: key)
        let client = try RemoteConfigClient.builder(fetcher: try EtcdFetcher(connection: connection, layout: layout))
            .push(try EtcdWatcher(connection: connection, layout: layout))
            .register(Self.revision)
            .build()
        let events = client.events()
        let seen = Task {
            var values: [Int] = []
            for await revision in client.watch(Self.revision) where revision > 0 { values.append(revision) }
            return values
        }
        #expect(await ChangeWaiter(client, Self.revision, equals: 1).wait() != nil)

        await cluster.kill(leader)
        #expect(client[Self.revision] == 1, "the last good configuration stays while the cluster elects a leader")
        _ = try await cluster.waitForLeader()
        for n in 2...11 {
            let waiter = ChangeWaiter(client, Self.revision, equals: n)
            try await cluster.put(key, #"{"revision":\#(n)}"#)
            #expect(await waiter.wait() != nil, "revision \(n) reached the client without help")
        }
        await client.stop()
        let activations = await events.reduce(into: 0) { count, event in
            if case .activated(let update) = event, update.changedKeys.contains("revision") { count += 1 }
        }
        #expect(activations == 11, "each revision activated once")
        let watched = await seen.value
        #expect(watched.last == 11 && watched == watched.sorted() && Set(watched).count == watched.count, "in order: \(watched)")
        try await cluster.restart(leader)
    }
}
