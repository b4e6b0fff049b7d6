import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import HTTPSupport
import TestSupport
import Testing

@testable import HTTPAdapter

@Suite("HTTPFetcher keeps secret header values out of everything it emits")
struct HTTPFetcherRedactionTests {
    private static let bearer = "Bearer tok_9f8e7d6c5b4a39281706"
    private static let customSecret = "custom-secret-value-5f4e3d2c"
    private static let providerSecret = "provider-secret-a1b2c3d4e5"
    private static let apiKey = "apikey-0a9b8c7d6e5f"
    private static let secrets = [bearer, "tok_9f8e7d6c5b4a39281706", customSecret, providerSecret, apiKey]

    private static func configuration(_ change: (inout HTTPFetcher.Configuration) -> Void = { _ in }) -> HTTPFetcher.Configuration
    {
        testConfiguration {
            $0.headers = ["Authorization": bearer, "X-Custom-Secret": customSecret, "X-Api-Key": apiKey, "X-Visible": "plain"]
            $0.secretHeaderNames = ["x-custom-secret", "X-Session"]
            $0.headerProvider = { ["X-Session": providerSecret] }
            // The one case that wants a timeout lowers it.
            $0.timeout = loopbackDeadline
            change(&$0)
        }
    }

    /// Every text an error exposes.
    private static func texts(of error: FetchError) -> [String] {
        [
            error.message, error.description, String(describing: error), String(reflecting: error), "\(error.kind)",
            "\(error.retry)",
        ]
    }

    /// A server whose faults echo the secrets it received wherever a response can carry text.
    private static func echoingFault(_ request: HTTPRequest) async throws -> HTTPResponse {
        let auth = request.headers[HTTPHeader("Authorization")] ?? ""
        let custom = request.headers[HTTPHeader("X-Custom-Secret")] ?? ""
        let echo = "\(auth) \(custom)"
        switch request.path {
        case "/500": return Reply.make(500, ["X-Echo": echo], body: Data(echo.utf8))
        case "/429": return Reply.make(429, ["Retry-After": echo])
        case "/404": return Reply.make(404, [:], body: Data(echo.utf8))
        case "/401": return Reply.make(401, ["WWW-Authenticate": echo])
        case "/type": return Reply.make(200, ["Content-Type": "text/html; note=\(custom)"], body: Data(echo.utf8))
        case "/loop": return Reply.make(302, ["Location": "/loop2?token=\(custom)"])
        case "/loop2": return Reply.make(302, ["Location": "/loop"])
        case "/insecure": return Reply.make(302, ["Location": "http://\(custom).example.com/"])
        case "/empty": return Reply.make(200, ["Content-Type": "application/json", "ETag": "\"\(custom)\""])
        case "/invalid": return Reply.json("{\"\(custom)\": nope}")
        case "/large": return Reply.large(4096, declareLength: false)
        case "/truncated": return Reply.truncated(declared: 500, sent: Data(echo.utf8))
        default: return Reply.json("{}")
        }
    }

    @Test("no error from any fault contains a secret header value, in message, description or kind")
    func noSecretInAnyError() async throws {
        var errors: [FetchError] = []
        try await TestHTTPServer.with(Self.echoingFault) { server in
            for path in [
                "/500", "/429", "/404", "/401", "/type", "/loop", "/insecure", "/empty", "/invalid", "/large", "/truncated",
            ] {
                let fetcher = try HTTPFetcher(
                    url: server.url(path),
                    configuration: Self.configuration {
                        $0.maxBodySize = 1024
                        $0.validatePayload = PlainJSONFormat()
                    })
                if let error = await fetchError(fetcher) { errors.append(error) }
            }
            // The server did receive the secrets: the redaction is the fetcher's doing.
            #expect(server.requests.contains { $0.headers["authorization"] == Self.bearer })
            #expect(server.requests.contains { $0.headers["x-session"] == Self.providerSecret })
        }
        // Transport failure and timeout.
        let closed = try await TestHTTPServer.start { _ in Reply.json("{}") }
        let closedURL = closed.url()
        await closed.stop()
        if let error = await fetchError(try HTTPFetcher(url: closedURL, configuration: Self.configuration())) {
            errors.append(error)
        }
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            await gate.wait()
            return Reply.json("{}")
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: Self.configuration { $0.timeout = 0.3 })
            if let error = await fetchError(fetcher) { errors.append(error) }
            gate.open()
        }
        // A header provider whose error text holds the secret.
        struct LeakyError: Error, CustomStringConvertible {
            var description: String { "could not refresh \(HTTPFetcherRedactionTests.providerSecret)" }
        }
        let failing = try HTTPFetcher(
            url: closedURL, configuration: Self.configuration { $0.headerProvider = { throw LeakyError() } })
        if let error = await fetchError(failing) { errors.append(error) }
        // A provider's own FetchError that quotes a static secret is redacted too.
        let quoting = try HTTPFetcher(
            url: closedURL,
            configuration: Self.configuration {
                $0.headerProvider = { throw FetchError(.other, retry: .doNotRetry, message: "bad key \(Self.apiKey)") }
            })
        if let error = await fetchError(quoting) { errors.append(error) }

        #expect(errors.count == 15)
        let kinds = Set(errors.map { "\($0.kind)".prefix(12) })
        #expect(kinds.count >= 10)
        for error in errors {
            for text in Self.texts(of: error) {
                for secret in Self.secrets {
                    #expect(!text.contains(secret), "secret leaked in \(error.kind): \(text)")
                }
            }
        }
        let redacted = errors.filter { $0.message.contains(SecretRedactor.placeholder) }
        #expect(!redacted.isEmpty)
    }

    @Test("descriptions, debug descriptions and dumps of the fetcher and configuration show no secret")
    func noSecretInDescriptions() throws {
        let configuration = Self.configuration()
        let url = try #require(URL(string: "https://cdn.example.com/app/config.json?key=\(Self.apiKey)"))
        let fetcher = try HTTPFetcher(url: url, configuration: configuration)
        var dumped = ""
        dump(fetcher, to: &dumped)
        var dumpedConfiguration = ""
        dump(configuration, to: &dumpedConfiguration)
        let texts = [
            String(describing: fetcher), String(reflecting: fetcher), "\(fetcher)", dumped,
            String(describing: configuration), String(reflecting: configuration), "\(configuration)", dumpedConfiguration,
            "\(configuration.redactedHeaders)",
        ]
        for text in texts {
            for secret in Self.secrets { #expect(!text.contains(secret), "secret in \(text)") }
        }
        #expect(String(describing: configuration).contains("X-Visible: plain"))
        #expect(String(describing: configuration).contains("Authorization: <redacted>"))
        #expect(String(describing: fetcher) == "HTTPFetcher(https://cdn.example.com/app/config.json?<redacted>)")
    }

    @Test("a URL's query and user info are redacted in messages and provenance")
    func urlQueryIsRedacted() async throws {
        try await TestHTTPServer.with({ request in
            request.path == "/ok" ? Reply.json("{}") : Reply.make(500)
        }) { server in
            let failing = try HTTPFetcher(
                url: try #require(URL(string: "http://user:pw-secret-123@127.0.0.1:\(server.port)/fail?key=query-secret-456")))
            let error = try #require(await fetchError(failing))
            #expect(!error.message.contains("query-secret-456"))
            #expect(!error.message.contains("pw-secret-123"))
            #expect(error.message.contains("http://127.0.0.1:\(server.port)/fail?<redacted>"))
            let working = try HTTPFetcher(
                url: try #require(URL(string: "http://127.0.0.1:\(server.port)/ok?key=query-secret-456")))
            let payload = try #require(modifiedPayload(try await working.fetch(FetchRequest())))
            #expect(payload.source == "http://127.0.0.1:\(server.port)/ok?<redacted>")
        }
    }

    @Test("secret headers are not forwarded when a redirect leads to another origin; other headers are")
    func secretsStayOnTheirOrigin() async throws {
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { other in
            try await TestHTTPServer.with({ request in
                request.path == "/here"
                    ? Reply.json("{}")
                    : Reply.make(302, ["Location": request.path == "/away" ? other.url().absoluteString : "/here"])
            }) { origin in
                let away = try HTTPFetcher(url: origin.url("/away"), configuration: Self.configuration())
                #expect(modifiedPayload(try await away.fetch(FetchRequest())) != nil)
                let received = try #require(other.requests.first)
                #expect(received.headers["authorization"] == nil)
                #expect(received.headers["x-custom-secret"] == nil)
                #expect(received.headers["x-api-key"] == nil)
                #expect(received.headers["x-session"] == nil)
                #expect(received.headers["x-visible"] == "plain")

                let same = try HTTPFetcher(url: origin.url("/same"), configuration: Self.configuration())
                #expect(modifiedPayload(try await same.fetch(FetchRequest())) != nil)
                let final = try #require(origin.requests.last)
                #expect(final.path == "/here")
                #expect(final.headers["authorization"] == Self.bearer)
            }
        }
    }

    @Test("the redactor replaces whole values and the token inside a Bearer value")
    func redactorReplacesValuesAndTokens() {
        let redactor = SecretRedactor(secretValues: ["Bearer abcdefgh12345678", "short", ""])
        #expect(redactor.redact("got Bearer abcdefgh12345678 back") == "got <redacted> back")
        #expect(redactor.redact("token abcdefgh12345678 echoed") == "token <redacted> echoed")
        #expect(redactor.redact("a short word") == "a <redacted> word")
        #expect(redactor.redact("Bearer alone") == "Bearer alone")
    }
}
