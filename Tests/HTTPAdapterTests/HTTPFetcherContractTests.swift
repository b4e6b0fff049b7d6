import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import TestDoubles
import TestSupport
import Testing

@testable import HTTPAdapter

/// The backend the fetcher contract drives: what an in-process server serves, how it fails, and a
/// hold its handler waits at.
final class ContractHTTPBackend: Sendable {
    private struct State {
        var served = Data()
        var fault: FetcherContract.Fault?
        var holds: [FetchHold] = []
        var requests = 0
    }

    private let state = Locked(State())

    /// Serves `bytes` from now on, with an ETag derived from them.
    func serve(_ bytes: Data) { state.withLock { $0.served = bytes } }

    /// Fails every request from now on (`.temporary`: 503; `.permanent`: 404), or stops failing.
    func setFault(_ fault: FetcherContract.Fault?) { state.withLock { $0.fault = fault } }

    /// Makes the next request wait in the handler until the returned hold is released.
    func holdNext() -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.holds.append(hold) }
        return hold
    }

    /// How many requests reached the handler.
    var requestCount: Int { state.current.requests }

    /// Answers one request: waits at a hold if one is queued, then fails, answers 304, or serves the payload.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let hold = state.withLock { state -> FetchHold? in
            state.requests += 1
            return state.holds.isEmpty ? nil : state.holds.removeFirst()
        }
        if let hold { await hold.suspendUntilReleased() }
        let (bytes, fault) = state.withLock { ($0.served, $0.fault) }
        switch fault {
        case .temporary?: return Reply.make(503, ["Content-Type": "text/plain"], body: Data("maintenance".utf8))
        case .permanent?: return Reply.make(404, ["Content-Type": "text/plain"], body: Data("no such config".utf8))
        case nil: break
        }
        let etag = "\"\(ContentHash(of: bytes).value)\""
        if request.headers[HTTPHeader("If-None-Match")] == etag { return Reply.make(304, ["ETag": etag]) }
        return Reply.json(String(decoding: bytes, as: UTF8.self), ["ETag": etag])
    }
}

@Suite("HTTPFetcher contract")
struct HTTPFetcherContractTests {
    /// The bearer token and the query key the fetcher is configured with; neither may leak.
    private static let token = "contract-bearer-7f3a9c"
    private static let queryKey = "contract-query-key-51d2"

    @Test func httpFetcherPassesTheFetcherContractAgainstAnInProcessServer() async throws {
        let backend = ContractHTTPBackend()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let url = server.url("/config.json?key=\(Self.queryKey)")
            let report = await FetcherContract(
                subject: "HTTPFetcher",
                makeFetcher: {
                    try HTTPFetcher(
                        url: url, configuration: testConfiguration { $0.headers = ["Authorization": "Bearer \(Self.token)"] })
                },
                serve: { backend.serve($0) },
                setFault: { backend.setFault($0) },
                hold: { ContractHold(backend.holdNext()) },
                requestCount: { backend.requestCount },
                secrets: [Self.token, Self.queryKey]
            ).run()

            report.recordIssues()
            #expect(report.passed)
            #expect(report.skipped.isEmpty, "the HTTP fetcher declares no capability; every check runs")
            #expect(report.checks.count == FetcherContract.Check.allCases.count)
            // The contract's requests really carried the secret the check looks for.
            #expect(server.requests.contains { $0.headers["authorization"] == "Bearer \(Self.token)" })
        }
    }
}
