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

func startConfig(url: URL, cacheDirectory: URL) async throws -> RemoteConfigClient {
    let client = try await RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: url))
        .cache(FileSnapshotCache(directory: cacheDirectory))
        .override(EnvironmentOverrideSource(prefix: "MYAPP_"))
        .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(7 * 86_400)))
        .register(Flags.newCheckout, Flags.maxRetries)
        .build()  // first read already sees the cache
    _ = try? await client.refresh()  // a failure keeps the last good values
    return client
}
// Anywhere, synchronously:  if client[Flags.newCheckout] { ... }
// END README QUICK START

/// The README's quick start, kept identical to this file's copy, compiled here, and run against a real server.
@Suite("README quick start")
struct ReadmeQuickStartTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the README's quick start block is identical to the compiled copy in this file")
    func readmeMatchesCompiledCopy() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let section = try #require(readme.range(of: "## Quick start"), "README.md has no '## Quick start' section")
        let afterHeading = readme[section.upperBound...]
        let open = try #require(afterHeading.range(of: "```swift\n"))
        let close = try #require(afterHeading[open.upperBound...].range(of: "\n```"))
        let readmeBlock = String(afterHeading[open.upperBound..<close.lowerBound])

        let begin = try #require(source.range(of: "// BEGIN README QUICK START\n"))
        let end = try #require(source.range(of: "\n// END README QUICK START"))
        // swift-format sorts this file's imports together, so the test's own imports (`Testing`, and `TestSupport`
        // for its server) sit inside the block.
        let compiledBlock = String(source[begin.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "import Testing\n", with: "")
            .replacingOccurrences(of: "import TestSupport\n", with: "")
        #expect(readmeBlock == compiledBlock)
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
        #expect(offline.explain(Flags.maxRetries).layer == .snapshot(source: url.absoluteString))
    }
}
