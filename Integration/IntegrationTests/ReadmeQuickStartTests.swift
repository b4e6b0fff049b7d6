// BEGIN README QUICK START
import EnvAdapter
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig
import TestSupport
import Testing

enum Flags {
    static let newCheckout = ConfigKey("new_checkout", default: false)
    static let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
}

/// No `await`: launch code (a SwiftUI `App.init`) can call it. It reads the cache on this
/// thread, so the first read already sees the values of the last run.
func makeConfig(url: URL, cacheDirectory: URL) throws -> RemoteConfigClient {
    try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: url))
        .cache(FileSnapshotCache(directory: cacheDirectory))
        .override(EnvironmentOverrideSource(prefix: "MYAPP_"))
        .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(7 * 86_400)))
        .periodicRefresh(every: 300)  // while the app runs; .push(_:) hears of a change at once
        .register(Flags.newCheckout, Flags.maxRetries)
        .build()
}

/// At launch: build, refresh in the background, read at once, follow changes.
func launchConfig(url: URL, cacheDirectory: URL) throws -> RemoteConfigClient {
    let client = try makeConfig(url: url, cacheDirectory: cacheDirectory)
    Task { _ = try? await client.refresh() }  // a failure keeps the last good values
    if client[Flags.newCheckout] { print("new checkout") }  // synchronous: no I/O, never waits
    Task { await followCheckout(client) { enabled in print("new checkout:", enabled) } }
    return client
}

/// While the app runs: the key's value now, then its value after each change a refresh brings.
func followCheckout(_ client: RemoteConfigClient, show: (Bool) -> Void) async {
    for await enabled in client.watch(Flags.newCheckout) {
        show(enabled)
    }  // ends when the client stops or this task is cancelled
}

/// Where waiting is fine (a server, a command-line tool): refresh, then read.
func startConfig(url: URL, cacheDirectory: URL) async throws -> RemoteConfigClient {
    let client = try makeConfig(url: url, cacheDirectory: cacheDirectory)
    _ = try? await client.refresh()
    return client
}
// END README QUICK START

/// The README's quick start, kept identical to this file's copy, compiled here, and run against a real server.
@Suite("README quick start")
struct ReadmeQuickStartTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The first Swift block after `heading` in the README.
    static func readmeBlock(after heading: String) throws -> String {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: heading), "README.md has no '\(heading)' section")
        let afterHeading = readme[section.upperBound...]
        let open = try #require(afterHeading.range(of: "```swift\n"))
        let close = try #require(afterHeading[open.upperBound...].range(of: "\n```"))
        return String(afterHeading[open.upperBound..<close.lowerBound])
    }

    /// This file's copy between `// BEGIN <marker>` and `// END <marker>`.
    static func compiledBlock(_ marker: String) throws -> String {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let begin = try #require(source.range(of: "// BEGIN \(marker)\n"))
        let end = try #require(source.range(of: "\n// END \(marker)"))
        return String(source[begin.upperBound..<end.lowerBound])
    }

    @Test("the README's quick start block is identical to the compiled copy in this file")
    func readmeMatchesCompiledCopy() throws {
        // swift-format sorts this file's imports together, so the test's own imports (`Testing`, and `TestSupport`
        // for its server) sit inside the block.
        let compiledBlock = try Self.compiledBlock("README QUICK START")
            .replacingOccurrences(of: "import Testing\n", with: "")
            .replacingOccurrences(of: "import TestSupport\n", with: "")
        #expect(try Self.readmeBlock(after: "## Quick start") == compiledBlock)
    }

    @Test("the quick start runs: values from the server, then from the cache with the server gone")
    func quickStartRuns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rc-readme-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        server.publish(#"{"new_checkout": true, "max_retries": 7}"#)
        let client = try await startConfig(url: server.url(), cacheDirectory: directory)
        #expect(client[Flags.newCheckout] == true)
        #expect(client[Flags.maxRetries] == 7)
        let url = server.url()
        await server.stop()

        let offline = try await startConfig(url: url, cacheDirectory: directory)
        #expect(offline[Flags.newCheckout] == true)
        #expect(offline[Flags.maxRetries] == 7)
        #expect(offline.status.lastError != nil)
        #expect(offline.details(Flags.maxRetries).layer == .snapshot(source: url.absoluteString))
        await client.stop()
        await offline.stop()
    }

    @Test("the quick start follows a change: the watch yields the current value, then the one a refresh brings")
    func quickStartFollowsChanges() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rc-watch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        server.publish(#"{"new_checkout": false, "max_retries": 2}"#)
        let client = try await startConfig(url: server.url(), cacheDirectory: directory)
        let (shown, show) = AsyncStream<Bool>.makeStream()
        let follower = Task {
            await followCheckout(client) { show.yield($0) }
            show.finish()
        }
        var values = shown.makeAsyncIterator()
        #expect(await values.next() == false)
        server.publish(#"{"new_checkout": true, "max_retries": 2}"#)
        _ = try await client.refresh()
        #expect(await values.next() == true)
        await client.stop()
        await follower.value
        #expect(await values.next() == nil, "the watch ends when the client stops")
        await server.stop()
    }

    @Test("build() reads the cached values on the calling thread, before any refresh, with the server gone")
    func buildReadsTheCacheOnTheCallingThread() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rc-launch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        server.publish(#"{"new_checkout": true, "max_retries": 6}"#)
        _ = try await startConfig(url: server.url(), cacheDirectory: directory)
        let url = server.url()
        await server.stop()

        let client = try Self.buildWithoutRefresh(url: url, cacheDirectory: directory)
        #expect(client[Flags.newCheckout] == true)
        #expect(client[Flags.maxRetries] == 6)
        #expect(client.status.cache == .inSync)
        #expect(client.status.lastFetch == nil, "nothing was fetched: the values came from the cache file")
        #expect(client.details(Flags.maxRetries).layer == .snapshot(source: url.absoluteString))
        await client.stop()
    }

    /// The quick start's client, built by a function that cannot `await` (as launch code such as a
    /// SwiftUI `App.init`), and not refreshed.
    private static func buildWithoutRefresh(url: URL, cacheDirectory: URL) throws -> RemoteConfigClient {
        try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: url))
            .cache(FileSnapshotCache(directory: cacheDirectory))
            .register(Flags.newCheckout, Flags.maxRetries)
            .build()
    }
}
