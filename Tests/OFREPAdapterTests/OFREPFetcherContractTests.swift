import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import OFREPAdapter
import TestDoubles
import TestSupport
import Testing

/// The backend the fetcher contract drives: an OFREP server whose bulk evaluation is the payload
/// the contract serves, failing and holding on demand.
private final class ContractBackend: Sendable {
    private struct State {
        var served = Data()
        var fault: FetcherContract.Fault?
        var holds: [FetchHold] = []
        var requests = 0
    }

    private let state = Locked(State())

    func serve(_ bytes: Data) { state.withLock { $0.served = bytes } }
    func setFault(_ fault: FetcherContract.Fault?) { state.withLock { $0.fault = fault } }
    func holdNext() -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.holds.append(hold) }
        return hold
    }
    var requestCount: Int { state.current.requests }

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let hold = state.withLock { s -> FetchHold? in
            s.requests += 1
            return s.holds.isEmpty ? nil : s.holds.removeFirst()
        }
        if let hold { await hold.suspendUntilReleased() }
        let (bytes, fault) = state.withLock { ($0.served, $0.fault) }
        switch fault {
        case .temporary?:
            return Reply.make(503, ["Content-Type": "application/json"], body: Data(#"{"errorDetails":"maintenance"}"#.utf8))
        case .permanent?: return Reply.make(401)
        case nil: break
        }
        guard request.method == .POST, request.path == "/ofrep/v1/evaluate/flags" else { return Reply.make(404) }
        let etag = "\"\(ContentHash(of: bytes).value)\""
        if request.headers[HTTPHeader("If-None-Match")] == etag { return Reply.make(304, ["ETag": etag]) }
        return Reply.json(String(decoding: bytes, as: UTF8.self), ["ETag": etag])
    }
}

@Suite("OFREPFetcher contract")
struct OFREPFetcherContractTests {
    private static let token = "ofrep-contract-bearer-93c1"

    @Test("OFREPFetcher passes the fetcher contract against an in-process OFREP server")
    func contract() async throws {
        let backend = ContractBackend()
        try await TestHTTPServer.with({ await backend.respond(to: $0) }) { server in
            let report = await FetcherContract(
                subject: "OFREPFetcher",
                makeFetcher: {
                    try OFREPFetcher(
                        configuration: .init(endpoint: server.url("/"), headers: ["Authorization": "Bearer \(Self.token)"]))
                },
                serve: { backend.serve($0) },
                setFault: { backend.setFault($0) },
                hold: { ContractHold(backend.holdNext()) },
                requestCount: { backend.requestCount },
                secrets: [Self.token]
            ).run()
            report.recordIssues()
            #expect(report.passed)
            #expect(report.skipped.isEmpty)
            #expect(server.requests.contains { $0.headers["authorization"] == "Bearer \(Self.token)" })
        }
    }
}
