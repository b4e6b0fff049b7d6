import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import RemoteConfig
import SSEAdapter
import TestDoubles
import Testing

/// The SSE adapter against an event-stream server nobody here wrote: sse-starlette on uvicorn
/// (Integration/SSEServer/sse_server.py), which ends lines with CR LF, sends multi-line data and pings.
///
/// Skipped, with the reason shown in the test report, when the Python packages are missing
/// (`.ci/run` installs them; locally: `python3 -m pip install sse-starlette uvicorn`).
@Suite(
    "SSE against sse-starlette (Python)",
    .enabled(
        if: PythonSSEServer.isAvailable,
        "python3 cannot import sse_starlette and uvicorn; install them with python3 -m pip install sse-starlette uvicorn")
)
struct SSEThirdPartyServerTests {
    private static let revision = ConfigKey("revision", default: -1)

    @Test("the source passes the change-signal contract against sse-starlette")
    func contract() async throws {
        try await PythonSSEServer.with { server in
            let report = await ChangeSignalContract<SSEChangeSignalSource>(
                subject: "SSEChangeSignalSource on sse-starlette",
                makeSource: { document in
                    _ = try await server.publish(document)
                    return try SSEChangeSignalSource(url: server.url("/events"))
                },
                publish: { _, document in try await server.publish(document) }
            ).run()
            report.recordIssues()
            #expect(report.passed)
        }
    }

    @Test("the payload contract holds too: multi-line data comes back byte for byte")
    func payloadContract() async throws {
        try await PythonSSEServer.with { server in
            let report = await ChangeSignalContract<SSEChangeSignalSource>(
                subject: "SSEChangeSignalSource (payloads) on sse-starlette",
                makeSource: { document in
                    _ = try await server.publish(document)
                    return try SSEChangeSignalSource(
                        url: server.url("/events?mode=payload"),
                        configuration: .init(mapping: .payload(), signalsOnConnect: false))
                },
                publish: { _, document in try await server.publish(document) }
            ).run()
            report.recordIssues()
            #expect(report.passed)
        }
    }

    @Test("a client activates a pushed multi-line payload without fetching, then polls conditionally")
    func pushedPayloadReachesTheClient() async throws {
        try await PythonSSEServer.with { server in
            _ = try await server.publish(Data(#"{"revision": 1}"#.utf8))
            let fetcher = try HTTPFetcher(url: server.url("/config.json"))
            let events = try SSEChangeSignalSource(
                url: server.url("/events?mode=payload"), configuration: .init(mapping: .payload(), signalsOnConnect: false))
            let client = try RemoteConfigClient.builder(fetcher: fetcher).register(Self.revision).push(events).build()
            #expect(await ChangeWaiter(client, Self.revision, equals: 1).wait() != nil)
            let waiter = ChangeWaiter(client, Self.revision, equals: 2)
            let etag = try await server.publish(Data("{\n  \"revision\": 2\n}\n".utf8))
            #expect(await waiter.wait() != nil)
            #expect(client.status.snapshot?.validators.etag == etag)
            #expect(client.status.lastFetch != nil)
            #expect(try await client.refresh(force: true) == .unchanged)  // the pushed ETag makes the poll a 304
            await client.stop()
        }
    }
}
