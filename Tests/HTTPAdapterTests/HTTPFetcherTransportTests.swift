import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport
import Testing

@testable import HTTPAdapter

/// An `HTTPTransport` that answers from a script and records what it was asked.
final class ScriptedTransport: HTTPTransport {
    private let answers = Locked<[Result<HTTPTransportResponse, FetchError>]>([])
    private let sent = Locked<[HTTPTransportRequest]>([])

    /// Answers the next requests with `answers`, in order.
    init(_ answers: [Result<HTTPTransportResponse, FetchError>]) { self.answers.withLock { $0 = answers } }

    /// The requests sent so far.
    var requests: [HTTPTransportRequest] { sent.current }

    func send(_ request: HTTPTransportRequest) async throws(FetchError) -> HTTPTransportResponse {
        sent.withLock { $0.append(request) }
        let next = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let next else { throw FetchError(.other, retry: .doNotRetry, message: "the script has no more answers") }
        return try next.get()
    }
}

/// The fetcher over a substituted transport: what it asks the shared layer for, and what it makes of the answers.
@Suite("HTTPFetcher over HTTPSupport's HTTPTransport port")
struct HTTPFetcherTransportTests {
    private static let url = URL(string: "https://cdn.example.com/app/config.json?key=k-123")

    @Test("the request carries the configuration's headers, limits, content types and redirect policy")
    func requestShape() async throws {
        let transport = ScriptedTransport([.success(HTTPTransportResponse(status: 304))])
        let configuration = testConfiguration {
            $0.headers = ["Authorization": "Bearer static-token-1234", "If-None-Match": "ignored"]
            $0.secretHeaderNames = ["X-Session"]
            $0.maxBodySize = 4096
            $0.maxRedirects = 2
            $0.acceptedContentTypes = ["application/json"]
            $0.acceptsMissingContentType = false
        }
        let fetcher = try HTTPFetcher(url: try #require(Self.url), configuration: configuration, transport: transport)
        let result = try await fetcher.fetch(FetchRequest(validators: Validators(etag: "\"v1\"")))
        #expect(result == .notModified(Validators(etag: "\"v1\"")))
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.header("if-none-match") == "\"v1\"")
        #expect(request.header("authorization") == "Bearer static-token-1234")
        #expect(request.header("accept") == "application/json")
        #expect(request.maxBodySize == 4096)
        #expect(request.acceptedContentTypes == ["application/json"])
        #expect(!request.acceptsMissingContentType)
        #expect(request.redirects == RedirectPolicy(maxRedirects: 2))
        #expect(request.isSecret(headerName: "x-session"))
        #expect(request.wording.url == "https://cdn.example.com/app/config.json?<redacted>")
    }

    @Test("a transport error passes through with secret values redacted; the sidecar asks with its own limits")
    func errorsAndSidecar() async throws {
        let leaky = FetchError(.transport, retry: .backoff, message: "reset while sending Bearer static-token-1234")
        let failing = try HTTPFetcher(
            url: try #require(Self.url),
            configuration: testConfiguration { $0.headers = ["Authorization": "Bearer static-token-1234"] },
            transport: ScriptedTransport([.failure(leaky)]))
        let error = try #require(await fetchError(failing))
        #expect(error.kind == .transport)
        #expect(!error.message.contains("static-token-1234"))

        let transport = ScriptedTransport([
            .success(HTTPTransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))),
            .success(HTTPTransportResponse(status: 200, body: Data("keyid=k, sig=abc\n".utf8))),
        ])
        let signed = try HTTPFetcher(
            url: try #require(Self.url), configuration: testConfiguration { $0.signatureTransport = .sidecarFile },
            transport: transport)
        let payload = try #require(modifiedPayload(try await signed.fetch(FetchRequest())))
        #expect(payload.signature == "keyid=k, sig=abc")
        let sidecar = try #require(transport.requests.last)
        #expect(sidecar.url.path.hasSuffix("config.json.sig"))
        #expect(sidecar.maxBodySize == HTTPFetcher.SignatureTransport.sidecarByteLimit)
        #expect(sidecar.acceptedContentTypes == ["*/*"])
        #expect(sidecar.header("Accept") == SidecarSignature.accept)
    }
}
