import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import RemoteConfig
import TestDoubles
import Testing

/// The HTTP fetcher and the client against Debian's nginx serving a static config file.
///
/// Skipped, with the reason shown in the test report, when nginx is not installed
/// (`.ci/run` installs it; locally: `apt-get install -y nginx`).
@Suite(
    "HTTP against nginx serving a config file",
    .enabled(
        if: NginxRunner.isAvailable,
        "nginx is not installed (looked in /usr/sbin, /usr/local/sbin and PATH); install it with apt-get install -y nginx")
)
struct HTTPNginxTests {
    private enum Flags {
        static let greeting = ConfigKey("greeting", default: "default greeting")
    }

    /// A whole-second file time, so nginx's Last-Modified round-trips exactly.
    private static let firstTime = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(
        "fetcher: first fetch 200 with ETag and Last-Modified, then 304 with no body, then a changed file gives a new ETag and a 200"
    )
    func fetcherCycle() async throws {
        try await NginxRunner.with { nginx in
            try nginx.write(#"{"greeting":"hello"}"#, to: "config.json", modified: Self.firstTime)
            let fetcher = try HTTPFetcher(url: nginx.url("config.json"), configuration: .init(timeout: 5))

            guard case .modified(let first) = try await fetcher.fetch(FetchRequest()) else {
                Issue.record("the first fetch should be a 200; nginx error log: \(nginx.errorLogText())")
                return
            }
            #expect(first.bytes == Data(#"{"greeting":"hello"}"#.utf8))
            let etag = try #require(first.validators.etag)
            #expect(first.validators.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")
            #expect(first.contentType == "application/json")

            let second = try await fetcher.fetch(FetchRequest(validators: first.validators))
            #expect(second == .notModified(first.validators))

            // A weak form of the same tag also matches (nginx compares weakly for If-None-Match).
            let weak = try await fetcher.fetch(FetchRequest(validators: Validators(etag: "W/" + etag)))
            #expect(weak == .notModified(first.validators))

            try nginx.write(#"{"greeting":"bonjour!"}"#, to: "config.json", modified: Self.firstTime.addingTimeInterval(60))
            guard case .modified(let changed) = try await fetcher.fetch(FetchRequest(validators: first.validators)) else {
                Issue.record("the fetch after the change should be a 200")
                return
            }
            #expect(changed.bytes == Data(#"{"greeting":"bonjour!"}"#.utf8))
            #expect(changed.validators.etag != etag)
            #expect(changed.validators.lastModified == "Tue, 14 Nov 2023 22:14:20 GMT")

            // Server side: four requests, the 304s carried no body, and validators were sent only when given.
            let log = try nginx.accessEntries()
            #expect(log.map(\.status) == [200, 304, 304, 200])
            #expect(log[1].bodyBytes == 0 && log[2].bodyBytes == 0)
            #expect(log.map(\.ifNoneMatch) == ["", etag, "W/" + etag, etag])
            #expect(log[1].ifModifiedSince == "Tue, 14 Nov 2023 22:13:20 GMT")
        }
    }

    @Test("If-Modified-Since alone is honoured by nginx")
    func lastModifiedAlone() async throws {
        try await NginxRunner.with { nginx in
            try nginx.write(#"{"greeting":"hello"}"#, to: "config.json", modified: Self.firstTime)
            let fetcher = try HTTPFetcher(url: nginx.url("config.json"), configuration: .init(timeout: 5))
            let result = try await fetcher.fetch(
                FetchRequest(validators: Validators(lastModified: "Tue, 14 Nov 2023 22:13:20 GMT")))
            guard case .notModified(let validators) = result else {
                Issue.record("expected a 304, got \(result)")
                return
            }
            #expect(validators.etag != nil)
            #expect(try nginx.accessEntries().map(\.status) == [304])
        }
    }

    @Test("no URL cache answers in nginx's place: every fetch is in its access log")
    func everyFetchReachesNginx() async throws {
        try await NginxRunner.with { nginx in
            try nginx.write(#"{"greeting":"hello"}"#, to: "config.json", modified: Self.firstTime)
            let fetcher = try HTTPFetcher(url: nginx.url("config.json"), configuration: .init(timeout: 5))
            var validators = Validators.none
            for _ in 0..<3 {
                if case .modified(let payload) = try await fetcher.fetch(FetchRequest()) { validators = payload.validators }
            }
            for _ in 0..<3 { #expect(try await fetcher.fetch(FetchRequest(validators: validators)) == .notModified(validators)) }
            #expect(try nginx.accessEntries().map(\.status) == [200, 200, 200, 304, 304, 304])
        }
    }

    @Test("a missing file is a non-retryable 404")
    func missingFile() async throws {
        try await NginxRunner.with { nginx in
            let fetcher = try HTTPFetcher(url: nginx.url("absent.json"), configuration: .init(timeout: 5))
            do throws(FetchError) {
                _ = try await fetcher.fetch(FetchRequest())
                Issue.record("expected a 404")
            } catch {
                #expect(error.kind == .httpStatus(404))
                #expect(error.retry == .doNotRetry)
            }
        }
    }

    @Test("client: first refresh updates, the next is a 304 that keeps the values, a changed file updates them")
    func clientCycle() async throws {
        try await NginxRunner.with { nginx in
            try nginx.write(#"{"greeting":"hello"}"#, to: "config.json", modified: Self.firstTime)
            let clock = ManualClock()
            let fetcher = try HTTPFetcher(url: nginx.url("config.json"), configuration: .init(timeout: 5, now: { clock.now() }))
            let cache = InMemoryCache()
            let client = try RemoteConfigClient.builder(fetcher: fetcher)
                .cache(cache)
                .clock(clock)
                .register(Flags.greeting)
                .build()
            #expect(try await client.refresh() == .updated(changedKeys: ["greeting"]))
            #expect(client[Flags.greeting] == "hello")
            clock.advance(by: 60)
            #expect(try await client.refresh(force: true) == .unchanged)
            #expect(client[Flags.greeting] == "hello")
            try nginx.write(#"{"greeting":"bonjour!"}"#, to: "config.json", modified: Self.firstTime.addingTimeInterval(60))
            clock.advance(by: 60)
            #expect(try await client.refresh(force: true) == .updated(changedKeys: ["greeting"]))
            #expect(client[Flags.greeting] == "bonjour!")
            let log = try nginx.accessEntries()
            #expect(log.map(\.status) == [200, 304, 200])
            #expect(log[1].bodyBytes == 0)
            #expect(client.view().snapshotMetadata?.validators.lastModified == "Tue, 14 Nov 2023 22:14:20 GMT")
        }
    }
}
