import ExampleDirectoryAdapter
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// The keys an app reading the directory would declare.
private enum Checkout {
    static let enabled = ConfigKey("checkout.enabled", default: false)
    static let maxItems = ConfigKey("checkout.max_items", default: 10, rules: [.range(1...100)])
}

@Suite("DirectoryFetcher in the client")
struct DirectoryFetcherClientTests {
    /// Writes `text` as the file of `key` in `directory`.
    private func write(_ text: String, key: String, in directory: URL) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent("\(key).json"))
    }

    @Test func theClientReadsTheFilesAndAnUnchangedDirectoryIsNotModified() async throws {
        let directory = ConfigDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try write("true", key: "checkout.enabled", in: directory.url)
        try write("20", key: "checkout.max_items", in: directory.url)
        try write("ignored", key: ".hidden", in: directory.url)

        let cache = InMemoryCache()
        let client = try RemoteConfigClient.builder(fetcher: DirectoryFetcher(directory: directory.url))
            .cache(cache)
            .clock(ManualClock())
            .register(Checkout.enabled, Checkout.maxItems)
            .build()
        #expect(client[Checkout.maxItems] == 10)

        #expect(try await client.refresh().changedKeys.sorted() == ["checkout.enabled", "checkout.max_items"])
        #expect(client[Checkout.enabled])
        #expect(client[Checkout.maxItems] == 20)

        // Reformatting a file changes no value: the digest is the same, the payload is not rewritten.
        try write(" 20 \n", key: "checkout.max_items", in: directory.url)
        #expect(try await client.refresh() == .unchanged)
        #expect(cache.storeCount == 1)
        #expect(cache.renewCount == 1)

        try write("30", key: "checkout.max_items", in: directory.url)
        #expect(try await client.refresh() == .updated(changedKeys: ["checkout.max_items"]))
        #expect(client[Checkout.maxItems] == 30)
    }

    @Test func aBrokenFileKeepsTheLastGoodValuesAndSaysWhichFile() async throws {
        let directory = ConfigDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        try write("20", key: "checkout.max_items", in: directory.url)
        let client = try RemoteConfigClient.builder(fetcher: DirectoryFetcher(directory: directory.url))
            .clock(ManualClock())
            .register(Checkout.maxItems)
            .build()
        _ = try await client.refresh()

        try write("{ \"half\": ", key: "checkout.max_items", in: directory.url)
        await #expect {
            try await client.refresh()
        } throws: { error in
            guard case ConfigError.fetch(let fetchError) = error else { return false }
            return fetchError.kind == .invalidPayload && !fetchError.isRetryable
                && fetchError.message.contains("checkout.max_items.json")
        }
        #expect(client[Checkout.maxItems] == 20)
    }
}
