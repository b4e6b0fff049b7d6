import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// The client over the real file cache on the real file system: relaunches, corruption, 304 renewals.
@Suite("Client over the file cache")
struct FileCacheClientTests {
    static let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let title = ConfigKey("title", default: "Welcome")

    func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rc-client-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    func build(
        _ fetcher: any ConfigFetcher, _ directory: URL, observer: RecordingObserver = RecordingObserver(),
        activation: ActivationPolicy = .immediate
    ) async throws -> RemoteConfigClient {
        try RemoteConfigClient.builder(fetcher: fetcher)
            .cache(FileSnapshotCache(directory: directory), name: "app")
            .activation(activation)
            .observer(observer)
            .register(Self.retries, Self.title)
            .build()
    }

    @Test("a relaunch serves the values written by the previous process's client")
    func relaunch() async throws {
        try await withDirectory { directory in
            let fetcher = InMemoryFetcher(json: #"{"max_retries": 6, "title": "Hi"}"#)
            let first = try await build(fetcher, directory)
            _ = try await first.refresh()
            let offline = InMemoryFetcher(json: "{}")
            offline.failAll(with: FetchError(.transport, retry: .backoff, message: "offline"))
            let second = try await build(offline, directory)
            #expect(second[Self.retries] == 6)
            #expect(second[Self.title] == "Hi")
            #expect(second.status.cache == .inSync)
        }
    }

    @Test("a corrupt cache file: the client builds, serves defaults, reports the reason, and recovers on refresh")
    func corruptFile() async throws {
        try await withDirectory { directory in
            let fetcher = InMemoryFetcher(json: #"{"max_retries": 6}"#)
            _ = try await build(fetcher, directory).refresh()
            let file = directory.appendingPathComponent(
                FileSnapshotCache(directory: directory).fileNames(for: "app").snapshot(.active))
            var bytes = try Data(contentsOf: file)
            bytes[bytes.count - 3] ^= 0xFF
            try bytes.write(to: file)

            let observer = RecordingObserver()
            let client = try await build(fetcher, directory, observer: observer)
            #expect(client[Self.retries] == 3)
            guard case .unreadable(let error) = client.status.cache else {
                Issue.record("expected an unreadable cache, got \(client.status.cache)")
                return
            }
            #expect(error.kind == .corrupt(.badChecksum))
            #expect(observer.events.contains(.cacheUnreadable(error)))
            _ = try await client.refresh()
            #expect(client[Self.retries] == 6)
            #expect(client.status.cache == .inSync)
        }
    }

    @Test("a 304 renews the metadata on disk without rewriting the payload file")
    func renewal() async throws {
        try await withDirectory { directory in
            let fetcher = InMemoryFetcher(json: #"{"max_retries": 6}"#)
            let client = try await build(fetcher, directory)
            _ = try await client.refresh()
            let payloadFile = directory.appendingPathComponent(
                FileSnapshotCache(directory: directory).fileNames(for: "app").snapshot(.active))
            let before = try FileManager.default.attributesOfItem(atPath: payloadFile.path)
            #expect(try await client.refresh(force: true) == .unchanged)
            let after = try FileManager.default.attributesOfItem(atPath: payloadFile.path)
            #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
            #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
            let reloaded = FileSnapshotCache(directory: directory).load("app", slot: .active)
            #expect(reloaded.snapshot?.metadata.fetchedAt == client.status.snapshot?.fetchedAt)
        }
    }

    @Test("next-launch activation across a real relaunch promotes the pending file")
    func nextLaunch() async throws {
        try await withDirectory { directory in
            let fetcher = InMemoryFetcher(json: #"{"max_retries": 6}"#)
            let first = try await build(fetcher, directory, activation: .nextLaunch)
            #expect(try await first.refresh() == .pendingActivation(changedKeys: ["max_retries"]))
            #expect(first[Self.retries] == 3)
            let second = try await build(fetcher, directory, activation: .nextLaunch)
            #expect(second[Self.retries] == 6)
            let pending = FileSnapshotCache(directory: directory).load("app", slot: .pending)
            #expect(pending == .miss)
        }
    }
}
