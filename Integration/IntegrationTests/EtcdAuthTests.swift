import ConfigDomain
import ConfigPorts
import EtcdAdapter
import Foundation
import TestDoubles
import TestSupport
import Testing

/// The etcd adapter on a real cluster with authentication on. One test turns authentication off
/// and on again (which invalidates every token), so the tests run one at a time.
@Suite(
    "etcd: authentication",
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), .serialized,
    EtcdClusterTrait(authentication: true))
struct EtcdAuthTests {
    private typealias Auth = EtcdClusterTrait.Auth

    private static func uniqueKey() -> String { Auth.prefix + UUID().uuidString }

    private static func connection(_ cluster: EtcdCluster, credentials: EtcdCredentials?) -> EtcdConnection {
        EtcdConnection(endpoints: cluster.endpoints, credentials: credentials, requestTimeout: 5)
    }

    private static let app = EtcdCredentials(username: Auth.user, password: Auth.password)

    /// Writes as root (every write needs a token now).
    private static func put(_ cluster: EtcdCluster, _ key: String, _ value: String) async throws -> Int64 {
        try await cluster.put(key, value, token: try await cluster.authenticate("root", Auth.rootPassword))
    }

    @Test("with credentials the fetcher, the watcher and the publisher work, and the password never shows")
    func withCredentials() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let revision = try await Self.put(cluster, key, #"{"a":1}"#)
        let report = await FetcherContract(
            subject: "EtcdFetcher with credentials",
            capabilities: [.noFaultInjection, .cannotHold, .uncountedRequests],
            makeFetcher: {
                try EtcdFetcher(connection: Self.connection(cluster, credentials: Self.app), layout: .document(key: key))
            },
            serve: { _ = try await Self.put(cluster, key, String(decoding: $0, as: UTF8.self)) },
            secrets: [Auth.password]
        ).run()
        #expect(report.passed, "\(report)")

        let watcher = try EtcdWatcher(connection: Self.connection(cluster, credentials: Self.app), layout: .document(key: key))
        let subscription = SignalSubscription(watcher)
        defer { subscription.stop() }
        var signals = subscription.signals.makeAsyncIterator()
        guard case .payload? = await signals.nextChange() else {
            Issue.record("the watcher must signal the current payload")
            return
        }
        let publisher = try EtcdPublisher(connection: Self.connection(cluster, credentials: Self.app))
        let published = try await publisher.publish(Data(#"{"a":2}"#.utf8), to: key)
        #expect(published > revision)
        guard case .payload(let changed)? = await signals.nextChange() else {
            Issue.record("the watcher must signal the published payload")
            return
        }
        #expect(changed.validators.etag == String(published))
        #expect(!"\(Self.app)".contains(Auth.password) && !String(reflecting: Self.app).contains(Auth.password))
    }

    @Test("a token etcd invalidates (authentication turned off and on) is replaced without the caller noticing")
    func tokenRefresh() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        _ = try await Self.put(cluster, key, #"{"a":1}"#)
        let fetcher = try EtcdFetcher(connection: Self.connection(cluster, credentials: Self.app), layout: .document(key: key))
        let watcher = try EtcdWatcher(connection: Self.connection(cluster, credentials: Self.app), layout: .document(key: key))
        let subscription = SignalSubscription(watcher)
        defer { subscription.stop() }
        var signals = subscription.signals.makeAsyncIterator()
        guard case .payload? = await signals.nextChange(), case .modified = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("the first read and signal must succeed")
            return
        }
        let oldToken = try await cluster.authenticate(Auth.user, Auth.password)

        try await cluster.disableAuth(rootPassword: Auth.rootPassword)
        try await cluster.reenableAuth()
        await #expect(throws: EtcdAdmin.Refusal.self, "etcd invalidated the tokens it handed out") {
            try await cluster.put(key, #"{"a":0}"#, token: oldToken)
        }

        let revision = try await Self.put(cluster, key, #"{"a":2}"#)
        guard case .modified(let fetched) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("the fetch must succeed with a new token")
            return
        }
        #expect(fetched.validators.etag == String(revision))
        guard case .payload(let signalled)? = await signals.nextChange() else {
            Issue.record("the watcher must carry on")
            return
        }
        #expect(signalled.validators.etag == String(revision))
    }

    @Test("no credentials, a wrong password, or a key the user may not read: typed errors that say what to do, not retried")
    func refused() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        _ = try await Self.put(cluster, key, #"{"a":1}"#)

        let anonymous = try EtcdFetcher(connection: Self.connection(cluster, credentials: nil), layout: .document(key: key))
        let missing = await #expect(throws: FetchError.self) { try await anonymous.fetch(FetchRequest()) }
        #expect(missing?.retry == .doNotRetry)
        #expect(missing?.message.contains("give EtcdCredentials") == true, "\(String(describing: missing))")

        let wrong = EtcdCredentials(username: Auth.user, password: "not-the-password")
        let refused = try EtcdFetcher(connection: Self.connection(cluster, credentials: wrong), layout: .document(key: key))
        let badPassword = await #expect(throws: FetchError.self) { try await refused.fetch(FetchRequest()) }
        #expect(badPassword?.retry == .doNotRetry)
        #expect(badPassword?.message.contains("refused the user name or password of user \"app\"") == true)
        #expect(badPassword?.message.contains("not-the-password") == false)

        let elsewhere = "/not-auth/\(UUID().uuidString)"
        _ = try await Self.put(cluster, elsewhere, #"{"a":1}"#)
        let outside = try EtcdFetcher(
            connection: Self.connection(cluster, credentials: Self.app), layout: .document(key: elsewhere))
        let denied = await #expect(throws: FetchError.self) { try await outside.fetch(FetchRequest()) }
        #expect(denied?.retry == .doNotRetry)
        #expect(denied?.message.contains("has no permission") == true, "\(String(describing: denied))")

        let publisher = try EtcdPublisher(connection: Self.connection(cluster, credentials: wrong))
        let publishError = await #expect(throws: EtcdError.self) { try await publisher.publish(Data("{}".utf8), to: key) }
        #expect(publishError?.kind == .authenticationFailed)
    }
}
