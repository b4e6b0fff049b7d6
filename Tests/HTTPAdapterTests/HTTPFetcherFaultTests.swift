import ConfigDomain
import ConfigPorts
import FlyingFox
import Foundation
import TestSupport
import Testing

@testable import HTTPAdapter

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("HTTPFetcher fault matrix")
struct HTTPFetcherFaultTests {
    // MARK: Status codes

    @Test("5xx is an httpStatus error retried with backoff", arguments: [500, 502, 504, 599])
    func serverErrorsRetryWithBackoff(status: Int) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(status, ["Content-Type": "text/plain"], body: Data("oops".utf8)) }) {
            server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .httpStatus(status))
            #expect(error.retry == .backoff)
            #expect(error.message.contains("HTTP \(status)"))
        }
    }

    @Test("503 without Retry-After is an httpStatus error retried with backoff")
    func unavailableWithoutRetryAfter() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(503) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .httpStatus(503))
            #expect(error.retry == .backoff)
        }
    }

    @Test(
        "429 and 503 with Retry-After in seconds are rate limited until now plus those seconds",
        arguments: [(429, "30", 30.0), (503, "120", 120.0), (429, " 0 ", 0.0)])
    func retryAfterSeconds(status: Int, header: String, seconds: Double) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(status, ["Retry-After": header]) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .rateLimited(status: status))
            #expect(error.retry == .after(fixedNow.addingTimeInterval(seconds)))
            #expect(error.isRetryable)
        }
    }

    @Test(
        "429 and 503 with Retry-After as an HTTP date are rate limited until that date",
        arguments: [429, 503])
    func retryAfterHTTPDate(status: Int) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(status, ["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"]) }) {
            server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .rateLimited(status: status))
            #expect(error.retry == .after(Date(timeIntervalSince1970: 1_445_412_480)))
        }
    }

    @Test("429 without a usable Retry-After is rate limited with backoff", arguments: [nil, "soon", "-5"])
    func rateLimitedWithoutUsableRetryAfter(header: String?) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(429, header.map { ["Retry-After": $0] } ?? [:]) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .rateLimited(status: 429))
            #expect(error.retry == .backoff)
        }
    }

    @Test("other 4xx are not retried", arguments: [400, 401, 403, 404, 410, 418, 451])
    func clientErrorsAreNotRetried(status: Int) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(status) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .httpStatus(status))
            #expect(error.retry == .doNotRetry)
        }
    }

    @Test("408 request timeout is retried with backoff")
    func requestTimeoutStatusIsRetried() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(408) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .httpStatus(408))
            #expect(error.retry == .backoff)
        }
    }

    // MARK: Redirects

    @Test("a redirect back to a visited URL is a redirect loop, not retried, stopped at once")
    func redirectLoop() async throws {
        try await TestHTTPServer.with({ request in
            Reply.make(302, ["Location": request.path == "/a" ? "/b" : "/a"])
        }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url("/a"), configuration: testConfiguration())))
            #expect(error.kind == .redirectLoop)
            #expect(error.retry == .doNotRetry)
            #expect(server.requests.map(\.path) == ["/a", "/b"])
        }
    }

    @Test("more redirects than maxRedirects is a redirect loop")
    func tooManyRedirects() async throws {
        try await TestHTTPServer.with({ request in
            let step = Int(request.path.dropFirst(6)) ?? 0
            return Reply.make(307, ["Location": "/chain\(step + 1)"])
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url("/chain0"), configuration: testConfiguration { $0.maxRedirects = 3 })
            let error = try #require(await fetchError(fetcher))
            #expect(error.kind == .redirectLoop)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("limit of 3"))
            #expect(server.requests.count == 4)
        }
    }

    @Test("a redirect to plain http on another host is refused as insecure")
    func redirectToInsecureHostIsRefused() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(302, ["Location": "http://config.example.com/config.json"]) }) {
            server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .insecureURL)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("allowsInsecureHTTPForNonLoopbackHosts"))
        }
    }

    // MARK: Bodies

    @Test("a body announced larger than the limit is refused without downloading it")
    func declaredOversizedBody() async throws {
        let counter = ByteCounter()
        let total = 128 * 1024 * 1024
        try await TestHTTPServer.with({ _ in Reply.large(total, declareLength: true, counter: counter) }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.maxBodySize = 1024 })
            let error = try #require(await fetchError(fetcher))
            #expect(error.kind == .bodyTooLarge(limit: 1024))
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("announced a body of \(total) bytes"))
        }
        // Only what the loopback socket buffers absorbed before the client hung up was written.
        #expect(counter.total < total / 4)
    }

    @Test("a streamed body without a length is aborted as soon as it passes the limit")
    func streamedOversizedBodyIsAbortedEarly() async throws {
        let counter = ByteCounter()
        let total = 256 * 1024 * 1024
        try await TestHTTPServer.with({ _ in Reply.large(total, declareLength: false, counter: counter) }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.maxBodySize = 64 * 1024 })
            let error = try #require(await fetchError(fetcher))
            #expect(error.kind == .bodyTooLarge(limit: 64 * 1024))
            #expect(error.retry == .doNotRetry)
        }
        // The server could hand over only what the socket buffers held when the client hung up.
        #expect(counter.total < total / 4)
    }

    @Test("the default limit is 2 MiB and a body just under it is accepted")
    func defaultLimitAcceptsBodyUnderIt() async throws {
        try await TestHTTPServer.with({ _ in Reply.large(2 * 1024 * 1024, declareLength: true) }) { server in
            let fetcher = try HTTPFetcher(url: server.url())
            #expect(fetcher.configuration.maxBodySize == 2 * 1024 * 1024)
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(payload.bytes.count == 2 * 1024 * 1024)
        }
        try await TestHTTPServer.with({ _ in Reply.large(2 * 1024 * 1024 + 1, declareLength: false) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url())))
            #expect(error.kind == .bodyTooLarge(limit: 2 * 1024 * 1024))
        }
    }

    @Test("a wrong content type is refused and retried with backoff")
    func wrongContentType() async throws {
        try await TestHTTPServer.with({ _ in
            Reply.make(200, ["Content-Type": "text/html; charset=utf-8"], body: Data("<html>login</html>".utf8))
        }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .unsupportedContentType("text/html; charset=utf-8"))
            #expect(error.retry == .backoff)
        }
    }

    @Test(
        "JSON content types are accepted, with parameters and +json suffixes",
        arguments: ["application/json", "application/json; charset=utf-8", "TEXT/JSON", "application/vnd.acme.flags+json"])
    func jsonContentTypesAreAccepted(type: String) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(200, ["Content-Type": type], body: Data("{}".utf8)) }) { server in
            let payload = try #require(modifiedPayload(try await HTTPFetcher(url: server.url()).fetch(FetchRequest())))
            #expect(payload.contentType == type)
        }
    }

    @Test("a missing content type is accepted by default and refused when configured so")
    func missingContentType() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(200, [:], body: Data("{}".utf8)) }) { server in
            #expect(modifiedPayload(try await HTTPFetcher(url: server.url()).fetch(FetchRequest())) != nil)
            let strict = try HTTPFetcher(
                url: server.url(), configuration: testConfiguration { $0.acceptsMissingContentType = false })
            let error = try #require(await fetchError(strict))
            #expect(error.kind == .unsupportedContentType(nil))
        }
    }

    @Test("configured content types replace the defaults")
    func configuredContentTypes() async throws {
        try await TestHTTPServer.with({ _ in Reply.make(200, ["Content-Type": "text/plain"], body: Data("{}".utf8)) }) {
            server in
            let fetcher = try HTTPFetcher(
                url: server.url(), configuration: testConfiguration { $0.acceptedContentTypes = ["text/*"] })
            #expect(modifiedPayload(try await fetcher.fetch(FetchRequest())) != nil)
            #expect(server.requests.first?.headers["accept"] == "text/*")
        }
    }

    @Test("a body cut short of its Content-Length is truncatedBody with both counts")
    func truncatedBody() async throws {
        try await TestHTTPServer.with({ _ in Reply.truncated(declared: 100, sent: Data(#"{"a":"#.utf8)) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .truncatedBody(expected: 100, received: 5))
            #expect(error.retry == .backoff)
        }
    }

    @Test("a chunked body cut off mid-way is a transport error retried with backoff")
    func droppedChunkedBody() async throws {
        try await TestHTTPServer.with({ _ in Reply.droppedChunked(sent: Data(#"{"a":"#.utf8)) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .transport)
            #expect(error.retry == .backoff)
        }
    }

    @Test("an empty 200 or a 204 is emptyBody, retried with backoff", arguments: [200, 204])
    func emptyBody(status: Int) async throws {
        try await TestHTTPServer.with({ _ in Reply.make(status, ["Content-Type": "application/json"]) }) { server in
            let error = try #require(await fetchError(try HTTPFetcher(url: server.url(), configuration: testConfiguration())))
            #expect(error.kind == .emptyBody)
            #expect(error.retry == .backoff)
        }
    }

    @Test("with validatePayload, a body that does not decode is invalidPayload with the reason and byte offset")
    func invalidPayload() async throws {
        try await TestHTTPServer.with({ _ in Reply.json(#"{"a": tru}"#) }) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(), configuration: testConfiguration { $0.validatePayload = PlainJSONFormat() })
            let error = try #require(await fetchError(fetcher))
            #expect(error.kind == .invalidPayload)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("at byte 9"))
            #expect(error.message.contains("unexpected character '}'"))
        }
    }

    @Test("with validatePayload, a body that decodes is returned unchanged")
    func validPayloadPassesValidation() async throws {
        try await TestHTTPServer.with({ _ in Reply.json(#"{"a": true}"#) }) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(), configuration: testConfiguration { $0.validatePayload = PlainJSONFormat() })
            let payload = try #require(modifiedPayload(try await fetcher.fetch(FetchRequest())))
            #expect(payload.bytes == Data(#"{"a": true}"#.utf8))
        }
    }

    // MARK: Transport, time, cancellation

    @Test("a refused connection is a transport error retried with backoff")
    func connectionRefused() async throws {
        // A port that was bound and released: nothing listens there, so the connection is refused
        // (a stopped in-process server may still reset a connection it half-accepted).
        let port = try #require(unusedLoopbackPort())
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/config.json"))
        let error = try #require(await fetchError(try HTTPFetcher(url: url, configuration: testConfiguration())))
        #expect(error.kind == .transport)
        #expect(error.retry == .backoff)
        #expect(error.message.contains("-1004"))
    }

    @Test("a host name that does not resolve is a transport error retried with backoff")
    func unresolvableHost() async throws {
        // `.invalid` never resolves (RFC 6761), with or without a network.
        let url = try #require(URL(string: "https://config.nonexistent.invalid/config.json"))
        let error = try #require(await fetchError(try HTTPFetcher(url: url, configuration: testConfiguration())))
        #expect(error.kind == .transport)
        #expect(error.retry == .backoff)
        #expect(error.message.contains("https://config.nonexistent.invalid/config.json"))
    }

    @Test("an answer slower than the timeout is a timeout error retried with backoff")
    func slowServerTimesOut() async throws {
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            await gate.wait()
            return Reply.json("{}")
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.timeout = 0.5 })
            let error = try #require(await fetchError(fetcher))
            gate.open()
            #expect(error.kind == .timeout)
            #expect(error.retry == .backoff)
        }
    }

    @Test("a body that stalls past the timeout is a timeout, even mid-transfer")
    func stallingBodyTimesOut() async throws {
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            Reply.stalling(declared: 50, prefix: Data(#"{"a":"#.utf8), gate: gate)
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.timeout = 0.5 })
            let error = try #require(await fetchError(fetcher))
            gate.open()
            #expect(error.kind == .timeout)
            #expect(error.retry == .backoff)
        }
    }

    @Test("cancelling the calling task cancels the transfer and throws .cancelled without waiting for the server")
    func cancellationIsPrompt() async throws {
        let arrived = Gate()
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            arrived.open()
            await gate.wait()
            return Reply.json("{}")
        }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration { $0.timeout = 600 })
            let task = Task { () -> FetchError? in await fetchError(fetcher) }
            await arrived.wait()
            task.cancel()
            let error = await task.value
            // The server is still holding its answer: the fetch ended because of the cancellation.
            gate.open()
            #expect(error == .cancelled)
            #expect(error?.retry == .doNotRetry)
        }
    }

    @Test("a fetch in an already cancelled task throws .cancelled and sends nothing")
    func alreadyCancelled() async throws {
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in
            let fetcher = try HTTPFetcher(url: server.url(), configuration: testConfiguration())
            let task = Task { () -> FetchError? in
                withUnsafeCurrentTask { $0?.cancel() }
                return await fetchError(fetcher)
            }
            #expect(await task.value == .cancelled)
            #expect(server.requests.isEmpty)
        }
    }

    @Test("cancelling while the header provider runs throws .cancelled and sends nothing")
    func cancelledDuringHeaderProvider() async throws {
        let entered = Gate()
        let gate = Gate()
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(),
                configuration: testConfiguration {
                    $0.headerProvider = {
                        entered.open()
                        await gate.wait()
                        return ["Authorization": "Bearer late-token-123456"]
                    }
                })
            let task = Task { () -> FetchError? in await fetchError(fetcher) }
            await entered.wait()
            task.cancel()
            gate.open()
            #expect(await task.value == .cancelled)
            #expect(server.requests.isEmpty)
        }
    }

    // MARK: Header provider

    @Test("a header provider that throws gives a retryable .other error naming only the error type")
    func headerProviderFailure() async throws {
        struct TokenRefreshFailed: Error, CustomStringConvertible {
            var description: String { "refresh failed for refresh-token-SECRET-998877" }
        }
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(), configuration: testConfiguration { $0.headerProvider = { throw TokenRefreshFailed() } })
            let error = try #require(await fetchError(fetcher))
            #expect(error.kind == .other)
            #expect(error.retry == .backoff)
            #expect(error.message.contains("TokenRefreshFailed"))
            #expect(!error.message.contains("SECRET-998877"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("a header provider may throw its own FetchError to choose the retry advice")
    func headerProviderFetchErrorPassesThrough() async throws {
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in
            let chosen = FetchError(.other, retry: .doNotRetry, message: "signed out; sign in again")
            let fetcher = try HTTPFetcher(
                url: server.url(), configuration: testConfiguration { $0.headerProvider = { throw chosen } })
            #expect(await fetchError(fetcher) == chosen)
        }
    }

    @Test("a header provider returning a header with a line break is refused without sending")
    func headerProviderBadHeader() async throws {
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(),
                configuration: testConfiguration { $0.headerProvider = { ["X-Api-Key": "abc\r\nInjected: yes"] } })
            let error = try #require(await fetchError(fetcher))
            #expect(error.kind == .other)
            #expect(error.retry == .doNotRetry)
            #expect(error.message.contains("X-Api-Key"))
            #expect(server.requests.isEmpty)
        }
    }

    @Test("header provider values win over static headers, case-insensitively")
    func headerProviderWins() async throws {
        try await TestHTTPServer.with({ _ in Reply.json("{}") }) { server in
            let fetcher = try HTTPFetcher(
                url: server.url(),
                configuration: testConfiguration {
                    $0.headers = ["authorization": "Bearer stale-token-000000"]
                    $0.headerProvider = { ["Authorization": "Bearer fresh-token-111111"] }
                })
            _ = try await fetcher.fetch(FetchRequest())
            #expect(server.requests.first?.headers["authorization"] == "Bearer fresh-token-111111")
        }
    }
}

/// A loopback TCP port with no listener: bound to port 0, read back, closed.
private func unusedLoopbackPort() -> UInt16? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else { return nil }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { return nil }
    return UInt16(bigEndian: address.sin_port)
}
