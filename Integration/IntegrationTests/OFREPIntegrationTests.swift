import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import OFREPAdapter
import RemoteConfig
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fetcher that records what its inner fetcher answered, so a test can tell a 304 from a 200 of the same bytes.
private final class AnswerLog: ConfigFetcher {
    private let inner: any ConfigFetcher
    private let log = Locked<[(FetchRequest, Result<FetchOutcome, FetchError>)]>([])

    init(_ inner: any ConfigFetcher) { self.inner = inner }

    var evaluatesContext: Bool { inner.evaluatesContext }

    /// Each request and what it got.
    var answers: [(request: FetchRequest, outcome: Result<FetchOutcome, FetchError>)] { log.current }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        do throws(FetchError) {
            let result = try await inner.fetch(request)
            log.withLock { $0.append((request, .success(result.outcome))) }
            return result
        } catch {
            log.withLock { $0.append((request, .failure(error))) }
            throw error
        }
    }
}

private enum OFREPFlags {
    static let greeting = ConfigKey("greeting", default: "Welcome")
    static let broken = ConfigKey("broken", default: 0)
    static let off = ConfigKey("off", default: true)
    static let plan = ConfigKey("plan_banner", default: "none")
    static var all: [any ConfigKeyRepresentable] { [greeting, broken, off, plan] }
}

/// A fresh cache folder under the temporary directory.
private func cacheFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-ofrep-cache-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A client over an OFREP fetcher for `endpoint`, caching in `folder`, for `context`.
private func ofrepClient(
    _ fetcher: any ConfigFetcher, folder: URL, context: EvaluationContext, push: (any ChangeSignalSource)? = nil
) throws -> RemoteConfigClient {
    var builder = RemoteConfigClient.builder(fetcher: fetcher)
        .payloadFormat(OFREPFormat())
        .cache(FileSnapshotCache(directory: folder), name: "flags")
        .context(context)
        .register(OFREPFlags.all)
    if let push { builder = builder.push(push) }
    return try builder.build()
}

/// Waits (a safety net, not a timed assertion) until the client's refresh started by a context change answered.
private func nextRefresh(of client: RemoteConfigClient) -> Eventual<ConfigUpdate> {
    let updated = Eventual<ConfigUpdate>()
    let events = client.events()
    Task {
        for await event in events {
            if case .activated(let update) = event, update.cause == .refresh {
                _ = updated.set(update)
                return
            }
        }
    }
    return updated
}

/// The OFREP adapter against fast-feature, an OFREP server from PyPI, run as a child process on
/// 127.0.0.1 over a flags file of the test's.
@Suite("OFREP against fast-feature (Python)", .requiringFastFeature)
struct OFREPFastFeatureTests {
    /// `greeting` is "Hello" for u1 and for the pro plan, "Hi" otherwise; `broken` always fails to
    /// evaluate (its targeting names no variant); `off` is disabled; `plan_banner` names the plan.
    static let flags = """
        {"flags": [
          {"key": "greeting", "variants": {"hi": "Hi", "hello": "Hello"}, "defaultVariant": "hi",
           "targeting": {"if": [{"or": [{"==": [{"var": "targetingKey"}, "u1"]}, {"==": [{"var": "plan"}, "pro"]}]}, "hello", null]},
           "metadata": {"team": "web"}},
          {"key": "broken", "variants": {"one": 1}, "defaultVariant": "one", "targeting": {"if": [true, "nope", null]}},
          {"key": "off", "variants": {"on": true, "off": false}, "defaultVariant": "off", "state": "DISABLED"},
          {"key": "plan_banner", "variants": {"free": "Go pro", "pro": "Thanks"}, "defaultVariant": "free",
           "targeting": {"if": [{"==": [{"var": "plan"}, "pro"]}, "pro", null]}}
        ]}
        """

    @Test("the first fetch serves the server's evaluation; an unchanged context gets a 304")
    func notModifiedOnUnchangedContext() async throws {
        let cache = try cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        try await FastFeatureServer.with(flags: Self.flags) { server in
            let log = AnswerLog(try OFREPFetcher(endpoint: server.endpoint))
            let client = try ofrepClient(log, folder: cache, context: EvaluationContext(targetingKey: "u2"))
            #expect(try await client.refresh() == .updated(changedKeys: ["greeting", "off", "plan_banner"]))
            #expect(client[OFREPFlags.greeting] == "Hi")
            #expect(client[OFREPFlags.off] == false)  // DISABLED: the server's value
            #expect(client[OFREPFlags.plan] == "Go pro")
            #expect(try await client.refresh(force: true) == .unchanged)
            let last = try #require(log.answers.last)
            #expect(try last.outcome.get() == .notModified)
            #expect(last.request.validators.etag != nil)
            #expect(last.request.context.targetingKey == "u2")
            await client.stop()
        }
    }

    @Test("a per-flag error (PARSE_ERROR) rejects that key alone; explain names the server's error code")
    func perFlagError() async throws {
        let cache = try cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        try await FastFeatureServer.with(flags: Self.flags) { server in
            let client = try ofrepClient(
                try OFREPFetcher(endpoint: server.endpoint), folder: cache,
                context: EvaluationContext(targetingKey: "u1"))
            try await client.refresh()
            #expect(client[OFREPFlags.broken] == 0)  // the key's default
            #expect(client[OFREPFlags.greeting] == "Hello")
            let rejection = try #require(client.details(OFREPFlags.broken).rejected.first)
            guard case .remoteEvaluation(let code, let details)? = rejection.targeting?.kind else {
                Issue.record("expected a remote evaluation problem, got \(rejection)")
                return
            }
            #expect(code == "PARSE_ERROR")
            #expect(details?.contains("nope") == true)
            await client.stop()
        }
    }

    @Test("a context change fetches again in the background and serves the new user's values")
    func contextChangeRefetches() async throws {
        let cache = try cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        try await FastFeatureServer.with(flags: Self.flags) { server in
            let log = AnswerLog(try OFREPFetcher(endpoint: server.endpoint))
            let client = try ofrepClient(
                log, folder: cache, context: EvaluationContext(targetingKey: "u2", attributes: ["plan": "free"]))
            try await client.refresh()
            #expect(client[OFREPFlags.plan] == "Go pro")
            let refreshed = nextRefresh(of: client)
            client.updateContext { $0.attributes["plan"] = "pro" }
            let update = try #require(await refreshed.value(within: 20))
            #expect(Set(update.changedKeys) == ["greeting", "plan_banner"])
            #expect(client[OFREPFlags.plan] == "Thanks")
            #expect(client[OFREPFlags.greeting] == "Hello")
            #expect(log.answers.count == 2)
            #expect(log.answers.last?.request.context.attributes["plan"] == "pro")
            #expect(try log.answers.last?.outcome.get() == .modified)
            await client.stop()
        }
    }

    @Test("offline, a new client with the same targeting key and cache folder serves that user's values; another user none")
    func offlineFromThePerUserCache() async throws {
        let folder = try cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = try await FastFeatureServer.with(flags: Self.flags) { server in
            let client = try ofrepClient(
                try OFREPFetcher(endpoint: server.endpoint), folder: folder, context: EvaluationContext(targetingKey: "u1"))
            try await client.refresh()
            #expect(client[OFREPFlags.greeting] == "Hello")
            let refreshed = nextRefresh(of: client)
            client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
            _ = await refreshed.value(within: 20)
            #expect(client[OFREPFlags.greeting] == "Hi")
            await client.stop()
            return server.endpoint
        }
        // The server has stopped: nothing listens at its port any more.
        let offline = try OFREPFetcher(endpoint: endpoint)
        let again = try ofrepClient(offline, folder: folder, context: EvaluationContext(targetingKey: "u1"))
        #expect(again[OFREPFlags.greeting] == "Hello")
        #expect(again[OFREPFlags.plan] == "Go pro")
        do {
            try await again.refresh()
            Issue.record("the refresh reached a stopped server")
        } catch {
            #expect(again[OFREPFlags.greeting] == "Hello")  // a failed refresh keeps the cached values
        }
        let stranger = try ofrepClient(offline, folder: folder, context: EvaluationContext(targetingKey: "u3"))
        #expect(stranger[OFREPFlags.greeting] == "Welcome")
        #expect(stranger[OFREPFlags.plan] == "none")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        #expect(!files.contains { $0.contains("u1") || $0.contains("u2") })  // slots are named by a hash
        await again.stop()
        await stranger.stop()
    }
}

/// The OFREP endpoint of `remote-config serve`, as a child process: bulk and single evaluation of a
/// targeting file for the posted context, ETags per context with 304, and SSE change notifications.
@Suite("OFREP against remote-config serve")
struct OFREPServeTests {
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// A targeting file: `greeting` is "Hallo" in DE and `greeting_default` elsewhere; `plan_banner` is plain.
    private static func targeting(german: String = "Hallo", banner: String = "Go pro") -> String {
        #"{"values": {"plan_banner": "\#(banner)"}, "targeting": {"greeting": {"default": "Hi", "rules": [{"id": "de", "when": {"country": "DE"}, "value": "\#(german)"}]}}}"#
    }

    /// A folder holding `flags.json`.
    private func served(_ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-ofrep-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("flags.json")
        try writeAtomically(text, to: file)
        return file
    }

    /// POSTs `body` to `url` with `headers`; the status, ETag and body.
    private func post(_ url: String, _ body: String, headers: [String: String] = [:]) async throws -> (Int, String?, ConfigValue?)
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "ETag"), try? JSONParser().parse(data))
    }

    @Test("bulk and single evaluation for the posted context; an ETag per context and 304 on If-None-Match")
    func endpoints() async throws {
        let file = try served(Self.targeting())
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let bulk = server.url("/ofrep/v1/evaluate/flags")
            let (status, etag, body) = try await post(bulk, #"{"context": {"targetingKey": "u1", "country": "DE"}}"#)
            #expect(status == 200)
            let flags = try #require(body?["flags"]?.arrayValue)
            let greeting = try #require(flags.first { $0["key"] == "greeting" })
            #expect(greeting["value"] == "Hallo")
            #expect(greeting["reason"] == "TARGETING_MATCH")
            #expect(flags.first { $0["key"] == "plan_banner" }?["reason"] == "STATIC")
            #expect(body?["eventStreams"]?.arrayValue?.first?["endpoint"]?["requestUri"] == "/ofrep/v1/events")
            let etagDE = try #require(etag)

            let (again, sameTag, _) = try await post(
                bulk, #"{"context": {"targetingKey": "u1", "country": "DE"}}"#, headers: ["If-None-Match": etagDE])
            #expect(again == 304)
            #expect(sameTag == etagDE)
            let (other, tagFR, bodyFR) = try await post(
                bulk, #"{"context": {"targetingKey": "u1", "country": "FR"}}"#, headers: ["If-None-Match": etagDE])
            #expect(other == 200)
            #expect(tagFR != etagDE)
            #expect(bodyFR?["flags"]?.arrayValue?.first { $0["key"] == "greeting" }?["value"] == "Hi")

            let (single, _, one) = try await post(
                server.url("/ofrep/v1/evaluate/flags/greeting"), #"{"context": {"country": "DE"}}"#)
            #expect(single == 200)
            #expect(one?["value"] == "Hallo")
            let (missing, _, none) = try await post(server.url("/ofrep/v1/evaluate/flags/nope"), #"{"context": {}}"#)
            #expect(missing == 404)
            #expect(none?["errorCode"] == "FLAG_NOT_FOUND")
            let (bad, _, failure) = try await post(bulk, #"{"context": {"targetingKey": 7}}"#)
            #expect(bad == 400)
            #expect(failure?["errorCode"] == "INVALID_CONTEXT")
            let (notJSON, _, parse) = try await post(bulk, "context")
            #expect(notJSON == 400)
            #expect(parse?["errorCode"] == "PARSE_ERROR")
        }
    }

    @Test("a client evaluates through serve, refetches on a context change, and a changed file reaches reads by push (latency printed)")
    func pushUnderASecond() async throws {
        let cache = try cacheFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let file = try served(Self.targeting())
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let fetcher = try OFREPFetcher(endpoint: URL(string: server.baseURL)!)
            let client = try ofrepClient(
                fetcher, folder: cache, context: EvaluationContext(targetingKey: "u1", attributes: ["country": "FR"]),
                push: fetcher.eventSource())
            try await client.refresh()
            #expect(client[OFREPFlags.greeting] == "Hi")
            #expect(client[OFREPFlags.plan] == "Go pro")

            let refreshed = nextRefresh(of: client)
            client.updateContext { $0.attributes["country"] = "DE" }
            _ = await refreshed.value(within: 20)
            #expect(client[OFREPFlags.greeting] == "Hallo")

            // The event stream is open once serve logs it, and the fetch its opening asks for has answered.
            #expect(await server.waitForLine { $0.contains("GET /ofrep/v1/events -> 200") } != nil)
            let waiter = ChangeWaiter(client, OFREPFlags.greeting, equals: "Grüß Gott")
            let started = Date()
            try writeAtomically(Self.targeting(german: "Grüß Gott"), to: file)
            _ = try? await post(server.url("/ofrep/v1/evaluate/flags/greeting"), "{}")  // serve notices the file at once
            let reached = try #require(await waiter.wait(within: 20))
            let latency = reached.timeIntervalSince(started)
            // The client never polls, so the change arriving at all is the push working; the time is a figure, not a check.
            print("OFREP push: file written to the new value read in \(Int(latency * 1000)) ms")
            await client.stop()
        }
    }

    @Test("serve --status 429 --retry-after 30 is a rate limit the scheduler waits out")
    func rateLimited() async throws {
        let file = try served(Self.targeting())
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await CLIServer.with([file.path, "--port", "0", "--status", "429", "--retry-after", "30"]) { server in
            let fetcher = try OFREPFetcher(endpoint: URL(string: server.baseURL)!)
            let started = Date()
            do throws(FetchError) {
                _ = try await fetcher.fetch(FetchRequest(context: EvaluationContext(targetingKey: "u1")))
                Issue.record("a 429 was not an error")
            } catch {
                #expect(error.kind == .rateLimited(status: 429))
                guard case .after(let date) = error.retry else {
                    Issue.record("expected retry after a date, got \(error.retry)")
                    return
                }
                #expect(abs(date.timeIntervalSince(started) - 30) < 5)
            }
        }
    }
}
