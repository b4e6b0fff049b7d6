import ConfigDomain
import ConfigPorts
import EtcdAdapter
import Foundation
import RemoteConfig
import TestDoubles
import TestSupport
import Testing

/// The etcd adapter against a real 3-member cluster of Debian's etcd, shared by the suite (each
/// test uses keys of its own, so they run in parallel).
@Suite(
    "etcd: reads, writes and watches on a real cluster",
    .enabled(if: EtcdCluster.isAvailable, EtcdCluster.skipReason), EtcdClusterTrait())
struct EtcdClusterTests {
    /// A key no other test uses.
    private static func uniqueKey(_ name: String = "config") -> String { "/rc-test/\(UUID().uuidString)/\(name)" }

    private static func connection(_ cluster: EtcdCluster, endpoints: [URL]? = nil) -> EtcdConnection {
        EtcdConnection(endpoints: endpoints ?? cluster.endpoints, requestTimeout: 5)
    }

    @Test("EtcdFetcher passes FetcherContract on a document key")
    func fetcherContract() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let report = await FetcherContract(
            subject: "EtcdFetcher", capabilities: [.noFaultInjection, .cannotHold, .uncountedRequests, .noSecrets],
            makeFetcher: { try EtcdFetcher(connection: Self.connection(cluster), layout: .document(key: key)) },
            serve: { try await cluster.put(key, String(decoding: $0, as: UTF8.self)) }
        ).run()
        #expect(report.passed, "\(report)")
    }

    @Test("EtcdWatcher passes ChangeSignalContract on a document key")
    func watcherContract() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let report = await ChangeSignalContract<EtcdWatcher>(
            subject: "EtcdWatcher",
            makeSource: { document in
                let key = Self.uniqueKey()
                try await cluster.put(key, String(decoding: document, as: UTF8.self))
                return try EtcdWatcher(connection: Self.connection(cluster), layout: .document(key: key))
            },
            publish: { watcher, document in
                String(try await cluster.put(watcher.layout.path, String(decoding: document, as: UTF8.self)))
            }
        ).run()
        #expect(report.passed, "\(report)")
    }

    @Test("a document's version is its revision: unchanged is notModified, a put is modified with the new revision")
    func documentVersions() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let first = try await cluster.put(key, #"{"max_retries":3}"#)
        let fetcher = try EtcdFetcher(connection: Self.connection(cluster), layout: .document(key: key))

        guard case .modified(let payload) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("an unconditional fetch must return the payload")
            return
        }
        #expect(payload.bytes == Data(#"{"max_retries":3}"#.utf8))
        #expect(payload.validators.etag == String(first))
        #expect(payload.source.contains(key) && payload.source.contains("revision \(first)"), "\(payload.source)")
        #expect(try await fetcher.fetch(FetchRequest(validators: payload.validators)) == .notModified(payload.validators))

        let second = try await cluster.put(key, #"{"max_retries":5}"#)
        guard case .modified(let changed) = try await fetcher.fetch(FetchRequest(validators: payload.validators)) else {
            Issue.record("a fetch after a put must return the new payload")
            return
        }
        #expect(changed.validators.etag == String(second))
        #expect(changed.bytes == Data(#"{"max_retries":5}"#.utf8))
    }

    @Test(
        "a prefix makes one config key per etcd key: JSON values as JSON, other text as strings; a deletion changes the version")
    func prefixLayout() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let prefix = Self.uniqueKey("flags") + "/"
        try await cluster.put(prefix + "max_retries", "3")
        try await cluster.put(prefix + "greeting", "hello there")
        try await cluster.put(prefix + "quoted", #""3""#)
        try await cluster.put(prefix + "banner", #"{"title":"Hi"}"#)
        try await cluster.put(String(prefix.dropLast()) + "-not-under-the-prefix", "1")
        let fetcher = try EtcdFetcher(connection: Self.connection(cluster), layout: .prefix(prefix))

        guard case .modified(let payload) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("an unconditional fetch must return the payload")
            return
        }
        let values = try PlainJSONFormat().decode(payload.bytes).values
        #expect(
            values == [
                "max_retries": .int(3), "greeting": .string("hello there"), "quoted": .string("3"),
                "banner": .object(["title": .string("Hi")]),
            ])
        let version = try #require(payload.validators.etag)
        #expect(version.hasSuffix("/4"), "the version counts the keys: \(version)")

        try await cluster.delete(prefix + "greeting")
        guard case .modified(let after) = try await fetcher.fetch(FetchRequest(validators: payload.validators)) else {
            Issue.record("deleting a key must change the configuration")
            return
        }
        #expect(try PlainJSONFormat().decode(after.bytes).values["greeting"] == nil)
        #expect(after.validators.etag != version)
    }

    @Test("a missing key or an empty prefix is a typed error that names it and is not retried")
    func missingKey() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        for layout in [EtcdLayout.document(key: key), .prefix(key + "/")] {
            let fetcher = try EtcdFetcher(connection: Self.connection(cluster), layout: layout)
            let error = await #expect(throws: FetchError.self) { try await fetcher.fetch(FetchRequest()) }
            #expect(error?.retry == .doNotRetry)
            #expect(error?.message.contains("has no \(layout)") == true, "\(String(describing: error))")
        }
    }

    @Test("a document that is not a JSON object is an invalid payload naming the key and revision, not retried")
    func invalidDocument() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let revision = try await cluster.put(key, #"{"max_retries": 3"#)
        let fetcher = try EtcdFetcher(connection: Self.connection(cluster), layout: .document(key: key))
        let error = await #expect(throws: FetchError.self) { try await fetcher.fetch(FetchRequest()) }
        #expect(error?.kind == .invalidPayload)
        #expect(error?.retry == .doNotRetry)
        #expect(
            error?.message.contains("\(key) at revision \(revision) is not a configuration") == true,
            "\(String(describing: error))")

        try await cluster.put(key, "[1, 2]")
        let array = await #expect(throws: FetchError.self) { try await fetcher.fetch(FetchRequest()) }
        #expect(array?.message.contains("JSON array, not an object") == true, "\(String(describing: array))")
    }

    @Test("credentials given to a cluster without authentication are not needed, and reads work")
    func credentialsWithoutAuthentication() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let revision = try await cluster.put(key, #"{"a":1}"#)
        var connection = Self.connection(cluster)
        connection.credentials = EtcdCredentials(username: "app", password: "unused")
        let fetcher = try EtcdFetcher(connection: connection, layout: .document(key: key))
        guard case .modified(let payload) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("the fetch must succeed")
            return
        }
        #expect(payload.validators.etag == String(revision))
    }

    @Test("an unreachable cluster is a transport error, retried with backoff, listing each endpoint's failure")
    func unreachable() async throws {
        let closed = [
            URL(string: "http://127.0.0.1:\(try NginxRunner.freePort())")!,
            URL(string: "http://127.0.0.1:\(try NginxRunner.freePort())")!,
        ]
        let fetcher = try EtcdFetcher(connection: EtcdConnection(endpoints: closed), layout: .document(key: "/app/config"))
        let error = await #expect(throws: FetchError.self) { try await fetcher.fetch(FetchRequest()) }
        #expect(error?.kind == .transport)
        #expect(error?.retry == .backoff)
        for endpoint in closed {
            #expect(
                error?.message.contains("\(endpoint.absoluteString): connection refused") == true, "\(String(describing: error))")
        }
    }

    @Test("a read moves on to the next endpoint when the first cannot be reached")
    func readFailover() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        try await cluster.put(key, #"{"a":1}"#)
        let closed = URL(string: "http://127.0.0.1:\(try NginxRunner.freePort())")!
        let fetcher = try EtcdFetcher(
            connection: Self.connection(cluster, endpoints: [closed] + cluster.endpoints), layout: .document(key: key))
        guard case .modified(let payload) = try await fetcher.fetch(FetchRequest()) else {
            Issue.record("the fetch must succeed on the second endpoint")
            return
        }
        #expect(payload.source.contains(cluster.endpoints[0].absoluteString), "\(payload.source)")
    }

    @Test("the watcher signals every published revision, in order, none lost, each as the whole payload")
    func everyRevisionInOrder() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        try await cluster.put(key, #"{"n":0}"#)
        let watcher = try EtcdWatcher(connection: Self.connection(cluster), layout: .document(key: key))
        let subscription = SignalSubscription(watcher)
        defer { subscription.stop() }
        var signals = subscription.signals.makeAsyncIterator()
        guard case .payload(let first)? = await signals.nextChange() else {
            Issue.record("the first signal must be the current payload")
            return
        }
        #expect(first.bytes == Data(#"{"n":0}"#.utf8))

        var published: [Int64] = []
        for n in 1...25 { published.append(try await cluster.put(key, #"{"n":\#(n)}"#)) }
        var received: [String] = []
        var bodies: [Data] = []
        while received.count < published.count, let signal = await signals.nextChange() {
            guard case .payload(let payload) = signal else {
                Issue.record("a valid document must be signalled as a payload, got \(signal)")
                return
            }
            received.append(payload.validators.etag ?? "none")
            bodies.append(payload.bytes)
        }
        #expect(received == published.map(String.init))
        #expect(bodies == (1...25).map { Data(#"{"n":\#($0)}"#.utf8) })
    }

    @Test("a change published to etcd reaches a running client through the watch (latency measured and printed)")
    func clientLatency() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let revision = ConfigKey("revision", default: -1)
        try await cluster.put(key, #"{"revision":0}"#)
        let layout = EtcdLayout.document(key: key)
        let client = try RemoteConfigClient.builder(
            fetcher: try EtcdFetcher(connection: Self.connection(cluster), layout: layout)
        )
        .push(try EtcdWatcher(connection: Self.connection(cluster), layout: layout))
        .register(revision)
        .build()
        #expect(await ChangeWaiter(client, revision, equals: 0).wait() != nil, "the watch's first payload reaches the client")
        var samples: [TimeInterval] = []
        var last: Int64 = 0
        for n in 1...20 {
            let waiter = ChangeWaiter(client, revision, equals: n)
            let start = Date()
            last = try await cluster.put(key, #"{"revision":\#(n)}"#)
            let reached = try #require(await waiter.wait(), "revision \(n) never reached the client")
            samples.append(reached.timeIntervalSince(start))
        }
        let sorted = samples.sorted()
        print(
            String(
                format: "etcd push latency (put → client update, loopback, 3 members): median %.1f ms, max %.1f ms",
                sorted[sorted.count / 2] * 1000, (sorted.last ?? 0) * 1000))
        // The client never polls, so every revision arriving is the watch working; the times are figures, not checks.
        let explanation = "\(client.details(revision))"
        #expect(explanation.contains("\(key) at revision \(last)"), "provenance names the key and revision: \(explanation)")
        await client.stop()
    }

    @Test("the publisher writes a JSON object and returns its revision; anything else is refused and nothing is written")
    func publisher() async throws {
        let cluster = try EtcdClusterTrait.cluster()
        let key = Self.uniqueKey()
        let publisher = try EtcdPublisher(connection: Self.connection(cluster))
        let revision = try await publisher.publish(Data(#"{"a":1}"#.utf8), to: key)
        #expect(try await cluster.modRevision(of: key) == revision)

        let error = await #expect(throws: EtcdError.self) { try await publisher.publish(Data("{oops".utf8), to: key) }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("nothing was written") == true)
        #expect(try await cluster.modRevision(of: key) == revision)
    }
}
