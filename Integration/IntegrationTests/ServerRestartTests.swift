import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import OFREPAdapter
import RemoteConfig
import SSEAdapter
import Testing

/// Servers killed with SIGKILL and started again on the same port while two clients each stream
/// from them and versions 1...8 are published (``ServerRestartScenario``): `remote-config serve`
/// over SSE and over OFREP events, sse-starlette (Python) over SSE, and fast-feature over OFREP
/// (polled: it names no event stream). The clients reconnect within half a second (their backoff
/// here), so each test takes a few seconds, most of it starting the servers.
@Suite("Servers killed with SIGKILL and restarted on the same port while clients stream", .timeLimit(.minutes(2)))
struct ServerRestartTests {
    private static let version = ServerRestartScenario.version
    /// Reconnections within half a second, whatever `retry:` the server sends.
    private static let reconnect = ReconnectPolicy(initial: 0.1, multiplier: 2, maximum: 0.5, honorsServerRetry: false)
    /// Failed fetches retried within half a second.
    private static let backoff = BackoffPolicy(initial: 0.1, multiplier: 2, maximum: 0.5)

    /// A client fetching `config` over HTTP, pushed to by the SSE stream at `events`.
    private static func sseClient(config: URL, events: URL) throws -> RemoteConfigClient {
        let stream = try SSEChangeSignalSource(
            url: events, configuration: .init(signalsOnConnect: false, heartbeatTimeout: 30, reconnect: reconnect))
        return try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: config, configuration: .init(timeout: 5)))
            .push(stream).backoff(backoff).register(version).build()
    }

    /// A client evaluating through OFREP at `endpoint`, pushed to by the event streams it names
    /// (`push`), or polling every quarter of a second.
    private static func ofrepClient(endpoint: URL, push: Bool) throws -> RemoteConfigClient {
        let fetcher = try OFREPFetcher(configuration: .init(endpoint: endpoint, timeout: 5))
        var builder = RemoteConfigClient.builder(fetcher: fetcher)
            .payloadFormat(OFREPFormat()).context(EvaluationContext(targetingKey: "restart"))
            .backoff(backoff).register(version)
        builder =
            push
            ? builder.push(fetcher.eventSource(configuration: .init(initialDelay: 0.1, maxDelay: 0.5)))
            : builder.periodicRefresh(every: 0.25)
        return try builder.build()
    }

    /// Runs the scenario on `server`, then stops it, whatever happens.
    private static func run<Server: RestartableServer>(
        _ server: Server, makeClient: (Server) throws -> RemoteConfigClient
    ) async throws {
        do {
            try await ServerRestartScenario.run(on: server) { try makeClient(server) }
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test("remote-config serve over SSE: every client ends on version 8, in order, each version once, no socket left")
    func serveOverSSE() async throws {
        try await Self.run(try await RestartableServe.start()) { server in
            try Self.sseClient(
                config: server.baseURL.appendingPathComponent("config.json"),
                events: server.baseURL.appendingPathComponent("events"))
        }
    }

    @Test("remote-config serve over OFREP events: every client ends on version 8, in order, each version once, no socket left")
    func serveOverOFREPEvents() async throws {
        try await Self.run(try await RestartableServe.start()) { server in
            try Self.ofrepClient(endpoint: server.baseURL, push: true)
        }
    }

    @Test(
        "sse-starlette (Python) over SSE: every client ends on version 8, in order, each version once, no socket left",
        .enabled(
            if: PythonSSEServer.isAvailable,
            "python3 cannot import sse_starlette and uvicorn; install them with python3 -m pip install sse-starlette uvicorn")
    )
    func pythonSSE() async throws {
        try await Self.run(try await RestartablePythonSSE.start()) { server in
            try Self.sseClient(config: server.url("/config.json"), events: server.url("/events"))
        }
    }

    @Test(
        "fast-feature over OFREP, polled: every client ends on version 8, in order, each version once, no socket left",
        .requiringFastFeature)
    func fastFeatureOverOFREP() async throws {
        try await Self.run(try await RestartableFastFeature.start()) { server in
            try Self.ofrepClient(endpoint: server.endpoint, push: false)
        }
    }
}
