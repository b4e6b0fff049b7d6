import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import TestSupport
import Testing

@testable import HTTPAdapter

/// The two ways a signature travels: the `X-Config-Signature` header, and a sidecar file fetched
/// after each `200` of the payload. The fetcher only carries the text; it never verifies it.
@Suite("HTTPFetcher signature transports: header and sidecar file")
struct HTTPFetcherSignatureTests {
    private static let body = #"{"new_checkout":true}"#
    private static let etag = "\"v1\""
    private static let signature = "keyid=prod-1, version=7, sig=" + Data(repeating: 1, count: 64).base64EncodedString()

    /// Serves the payload at /config.json (304 on a matching ETag, the signature header on a 200) and
    /// answers /config.json.sig with `sidecar`.
    private static func serving(
        header: String? = signature,
        sidecar: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in
            Reply.make(200, ["Content-Type": "application/octet-stream"], body: Data((signature + "\r\n").utf8))
        }
    ) -> TestHTTPServer.Handler {
        { request in
            if request.path.contains(".sig") { return sidecar(request) }
            if request.headers[HTTPHeader("If-None-Match")] == etag { return Reply.make(304, ["ETag": etag]) }
            var headers = ["ETag": etag]
            if let header { headers["X-Config-Signature"] = header }
            return Reply.json(body, headers)
        }
    }

    private func sidecarFetcher(_ server: TestHTTPServer, path: String = "/config.json") throws -> HTTPFetcher {
        try HTTPFetcher(url: server.url(path), configuration: testConfiguration { $0.signatureTransport = .sidecarFile })
    }

    // MARK: Header

    @Test("the header transport (the default) hands the X-Config-Signature header of a 200 over verbatim, in one request")
    func headerIsCarried() async throws {
        try await TestHTTPServer.with(Self.serving()) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration())
            #expect(fetcher.configuration.signatureTransport == .header)
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(payload.signature == Self.signature)
            #expect(String(decoding: payload.bytes, as: UTF8.self) == Self.body)
            #expect(server.requests.map(\.path) == ["/config.json"], "no signature file is fetched")
        }
    }

    @Test("no header means no signature; the fetch itself succeeds (the client decides whether one is required)")
    func noHeaderNoSignature() async throws {
        try await TestHTTPServer.with(Self.serving(header: nil)) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration())
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(payload.signature == nil)
        }
    }

    @Test("a 304 carries no signature: the client keeps the one cached with its payload")
    func notModifiedCarriesNone() async throws {
        try await TestHTTPServer.with(Self.serving()) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration())
            #expect(
                try await fetcher.fetch(FetchRequest(validators: Validators(etag: Self.etag)))
                    == .notModified(Validators(etag: Self.etag)))
        }
    }

    // MARK: Sidecar

    @Test("the sidecar transport fetches config.json.sig after a 200, of any content type, trimmed, with the same credentials")
    func sidecarFetchedAlongside() async throws {
        try await TestHTTPServer.with(Self.serving(header: "keyid=ignored, version=1, sig=AAAA")) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(),
                configuration: testConfiguration {
                    $0.signatureTransport = .sidecarFile
                    $0.headers = ["Authorization": "Bearer s3cret"]
                })
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(payload.signature == Self.signature, "the sidecar's text, not the header's")
            #expect(String(decoding: payload.bytes, as: UTF8.self) == Self.body)
            #expect(payload.validators.etag == Self.etag, "the payload's validators, not the sidecar's")
            let requests = server.requests
            #expect(requests.map(\.path) == ["/config.json", "/config.json.sig"])
            #expect(requests.last?.headers["authorization"] == "Bearer s3cret", "same origin: credentials are sent")
            #expect(requests.last?.headers["if-none-match"] == nil, "the signature file is fetched unconditionally")
            #expect(requests.first?.headers["accept"]?.contains("application/json") == true)
            #expect(requests.last?.headers["accept"] == "text/plain, */*", "not the payload's JSON types")
        }
    }

    @Test("a 304 of the payload fetches no signature file")
    func sidecarNotFetchedOnNotModified() async throws {
        try await TestHTTPServer.with(Self.serving()) { server in
            let result = try await sidecarFetcher(server).fetch(FetchRequest(validators: Validators(etag: Self.etag)))
            #expect(result == .notModified(Validators(etag: Self.etag)))
            #expect(server.requests.map(\.path) == ["/config.json"])
        }
    }

    @Test("a custom suffix and the payload URL's query are used for the signature file")
    func sidecarKeepsQuery() async throws {
        let handler = Self.serving(sidecar: { request in
            guard request.path == "/app/config.json.signature", request.query["key"] == "abc" else {
                return Reply.make(403, ["Content-Type": "text/plain"], body: Data("wrong sidecar URL".utf8))
            }
            return Reply.make(200, ["Content-Type": "text/plain"], body: Data(Self.signature.utf8))
        })
        try await TestHTTPServer.with(handler) { server in
            let fetcher = try HTTPFetcher(
                url: server.url("/app/config.json?key=abc"),
                configuration: testConfiguration { $0.signatureTransport = .sidecar(suffix: ".signature") })
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(payload.signature == Self.signature)
        }
    }

    @Test(
        "a 404, a 410 or an empty signature file means no signature",
        arguments: [(404, ""), (410, ""), (200, ""), (200, " \r\n")] as [(Int, String)])
    func sidecarAbsent(status: Int, text: String) async throws {
        let handler = Self.serving(sidecar: { _ in Reply.make(status, ["Content-Type": "text/plain"], body: Data(text.utf8)) })
        try await TestHTTPServer.with(handler) { server in
            let payload = try #require(modifiedPayload(try await sidecarFetcher(server).fetch(FetchRequest())))
            #expect(payload.signature == nil)
            #expect(server.requests.count == 2)
        }
    }

    @Test("any other failure of the signature file fails the fetch with its usual typed error, naming the file")
    func sidecarFailure() async throws {
        let handler = Self.serving(sidecar: { _ in Reply.make(503, ["Content-Type": "text/plain"]) })
        try await TestHTTPServer.with(handler) { server in
            let error = try #require(await fetchError(try sidecarFetcher(server, path: "/config.json?token=hunter2")))
            #expect(error.kind == .httpStatus(503))
            #expect(error.retry == .backoff)
            #expect(error.message.contains("/config.json.sig?<redacted>"), "\(error.message)")
            #expect(!error.message.contains("hunter2"))
        }
        let forbidden = Self.serving(sidecar: { _ in Reply.make(403, ["Content-Type": "text/plain"]) })
        try await TestHTTPServer.with(forbidden) { server in
            let error = try #require(await fetchError(try sidecarFetcher(server)))
            #expect(error.kind == .httpStatus(403))
            #expect(!error.isRetryable)
        }
    }

    @Test("a 304 to the unconditional request for the signature file is a typed, retryable error")
    func sidecarNotModified() async throws {
        let handler = Self.serving(sidecar: { _ in Reply.make(304, ["ETag": "\"s\""]) })
        try await TestHTTPServer.with(handler) { server in
            let error = try #require(await fetchError(try sidecarFetcher(server)))
            #expect(error.kind == .other)
            #expect(error.retry == .backoff)
            #expect(error.message.contains("config.json.sig answered \"not modified\" to an unconditional request"))
        }
    }

    @Test("a signature file over the size limit is aborted")
    func sidecarTooLarge() async throws {
        let limit = HTTPFetcher.SignatureTransport.sidecarByteLimit
        let handler = Self.serving(sidecar: { _ in
            Reply.make(200, ["Content-Type": "text/plain"], body: Data(repeating: UInt8(ascii: "A"), count: limit + 1))
        })
        try await TestHTTPServer.with(handler) { server in
            let error = try #require(await fetchError(try sidecarFetcher(server)))
            #expect(error.kind == .bodyTooLarge(limit: limit))
            #expect(error.message.contains("config.json.sig"))
        }
    }

    @Test(
        "a sidecar suffix that cannot end a file name is refused when the fetcher is made",
        arguments: ["", "/sig", ".sig?x", ".s g", ".sig#x", "%2e"])
    func badSuffix(_ suffix: String) {
        do throws(ConfigurationError) {
            _ = try HTTPFetcher(
                url: URL(string: "https://example.com/config.json")!,
                configuration: .init(signatureTransport: .sidecar(suffix: suffix)))
            Issue.record("the suffix \"\(suffix)\" must be refused")
        } catch {
            #expect(error.kind == .invalidAdapterSetting)
            #expect(error.message.contains("sidecar suffix"))
        }
    }

    @Test("the configuration's description and mirror show the transport")
    func describesTransport() {
        let configuration = HTTPFetcher.Configuration(signatureTransport: .sidecarFile)
        #expect(configuration.description.contains("signatureTransport: sidecar(suffix: \".sig\")"))
        #expect(Mirror(reflecting: configuration).children.contains { $0.label == "signatureTransport" })
    }
}
