import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import RemoteConfig
import SSEAdapter
import TestDoubles
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Push over server-sent events from a real `remote-config serve` process on 127.0.0.1.
@Suite("SSE push from remote-config serve")
struct SSEServeTests {
    private static let revision = ConfigKey("revision", default: -1)
    /// An ephemeral session with no URL cache, for the test's own requests.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// A folder with `config.json` holding revision `n`.
    private func configFolder(revision: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-sse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeAtomically(#"{"revision": \#(revision)}"#, to: folder.appendingPathComponent("config.json"))
        return folder
    }

    /// A client polling nothing, pushed to by `server`'s `/events`.
    private func pushClient(
        _ server: CLIServer, reconnect: ReconnectPolicy = ReconnectPolicy(),
        onEvent: (@Sendable (SSEConnectionEvent) -> Void)? = nil
    )
        throws -> RemoteConfigClient
    {
        let fetcher = try HTTPFetcher(url: URL(string: server.url("/config.json"))!)
        let events = try SSEChangeSignalSource(
            url: URL(string: server.url("/events"))!,
            configuration: .init(signalsOnConnect: false, heartbeatTimeout: 30, reconnect: reconnect, onEvent: onEvent))
        return try RemoteConfigClient.builder(fetcher: fetcher).register(Self.revision).push(events).build()
    }

    /// Asks the server for the document, which makes it notice a new file at once (instead of on its half-second timer).
    private func nudge(_ server: CLIServer) async throws -> String? {
        var request = URLRequest(url: URL(string: server.url("/config.json"))!)
        request.httpMethod = "HEAD"
        let (_, response) = try await Self.session.data(for: request)
        return (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag")
    }

    @Test("the source passes the change-signal contract against serve's /events")
    func contract() async throws {
        let folder = try configFolder(revision: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.json")
        try await CLIServer.with([file.path, "--port", "0", "--quiet"]) { server in
            let report = await ChangeSignalContract<SSEChangeSignalSource>(
                subject: "SSEChangeSignalSource on remote-config serve",
                makeSource: { document in
                    try document.write(to: file, options: .atomic)
                    _ = try await nudge(server)
                    return try SSEChangeSignalSource(
                        url: URL(string: server.url("/events"))!, configuration: .init(signalsOnConnect: false))
                },
                publish: { _, document in
                    try document.write(to: file, options: .atomic)
                    return try await nudge(server)
                }
            ).run()
            report.recordIssues()
            #expect(report.passed)
        }
    }

    @Test("a change published to serve reaches a running client (latency measured and printed)")
    func latency() async throws {
        let folder = try configFolder(revision: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.json")
        try await CLIServer.with([file.path, "--port", "0", "--quiet"]) { server in
            let client = try pushClient(server)
            #expect(await ChangeWaiter(client, Self.revision, equals: 0).wait() != nil)
            var pushOnly: [TimeInterval] = []
            var withReload: [TimeInterval] = []
            for revision in 1...20 {
                let waiter = ChangeWaiter(client, Self.revision, equals: revision)
                let start = Date()
                try writeAtomically(#"{"revision": \#(revision)}"#, to: file)
                // Odd revisions: the server notices the file on its own timer; even ones: a request makes it notice at once.
                if revision % 2 == 0 { _ = try await nudge(server) }
                let reached = try #require(await waiter.wait(), "revision \(revision) never reached the client")
                let elapsed = reached.timeIntervalSince(start)
                if revision % 2 == 0 { pushOnly.append(elapsed) } else { withReload.append(elapsed) }
            }
            let describe = { (samples: [TimeInterval]) -> String in
                let sorted = samples.sorted()
                return String(
                    format: "median %.1f ms, max %.1f ms", sorted[sorted.count / 2] * 1000, (sorted.last ?? 0) * 1000)
            }
            print("SSE push latency, serve noticed at once (write + request → client update): \(describe(pushOnly))")
            print("SSE push latency, serve's 0.5 s reload timer (write → client update): \(describe(withReload))")
            // The client never polls, so every revision arriving is the push working; the times are figures, not checks.
            await client.stop()
        }
    }

    @Test("killing serve keeps the last good configuration, and a restarted serve is picked up without help")
    func killAndRecover() async throws {
        let folder = try configFolder(revision: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.json")
        let first = try await CLIServer.start([file.path, "--port", "0", "--quiet"])
        let port = try #require(URL(string: first.baseURL)?.port)
        let disconnected = Eventual<SSEError>()
        let client: RemoteConfigClient
        do {
            client = try pushClient(
                first, reconnect: ReconnectPolicy(initial: 0.2, multiplier: 2, maximum: 1),
                onEvent: { if case .disconnected(let error) = $0 { _ = disconnected.set(error) } })
            #expect(await ChangeWaiter(client, Self.revision, equals: 1).wait() != nil)
        } catch {
            await first.stop()
            throw error
        }
        await first.stop(signal: SIGKILL, grace: 0)
        #expect(first.wasKilledBySignal)
        #expect(await disconnected.value(within: 20) != nil)
        await #expect(throws: ConfigError.self) { try await client.refresh(force: true) }
        #expect(client[Self.revision] == 1)  // the last good configuration stays

        try writeAtomically(#"{"revision": 2}"#, to: folder.appendingPathComponent("config.json"))
        let second = try await CLIServer.start([file.path, "--port", String(port), "--quiet"])
        let recovered = await ChangeWaiter(client, Self.revision, equals: 2).wait()
        await second.stop()
        #expect(recovered != nil, "the client did not pick up the restarted server's configuration")
        #expect(client[Self.revision] == 2)
        await client.stop()
    }
}
