import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// The subscript reads through a per-thread cache validated by a stamp (no lock); these tests race
/// it against activations and against other clients sharing the same cache entries.
@Suite("Lock-free reads")
struct LockFreeReadTests {
    @Test("subscript reads racing with 1,000 refreshes never go back to an older state and end on the last one")
    func subscriptReadsRaceRefreshes() async throws {
        let fetcher = ScriptedFetcher()
        for n in 1...1000 { fetcher.enqueue(.modifiedJSON(#"{"a": \#(n), "b": \#(n)}"#, etag: "\"\(n)\"")) }
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [Keys.a, Keys.b])
            .build()
        let done = Recorder<Bool>()
        let results = await withTaskGroup(of: (backwards: Int, reads: Int).self) { group in
            group.addTask {
                for _ in 0..<1000 { _ = try? await client.refresh(force: true) }
                done.append(true)
                return (0, 0)
            }
            for _ in 0..<3 {
                group.addTask {
                    var backwards = 0
                    var last = 0
                    var reads = 0
                    while done.values.isEmpty || reads < 1000 {
                        let a = client[Keys.a]
                        if a < last { backwards += 1 }
                        last = a
                        reads += 1
                        if reads % 64 == 0 { await Task.yield() }
                    }
                    return (backwards, reads)
                }
            }
            var all: [(backwards: Int, reads: Int)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.map(\.backwards).reduce(0, +) == 0)
        #expect(results.map(\.reads).reduce(0, +) >= 3000)
        #expect(fetcher.fetchCount == 1000)
        #expect(client[Keys.a] == 1000)
        #expect(client[Keys.b] == 1000)
    }

    @Test("a read right after an activation on the same thread sees the new value")
    func readAfterActivationSeesNewValue() async throws {
        let fetcher = InMemoryFetcher(json: #"{"a": 1}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [Keys.a]).build()
        #expect(client[Keys.a] == 0)
        for n in 1...50 {
            fetcher.serve(json: #"{"a": \#(n)}"#)
            try await client.refresh(force: true)
            #expect(client[Keys.a] == n)
            #expect(client[Keys.a] == n)
        }
    }

    @Test("40 clients sharing per-thread cache entries each read their own values")
    func manyClientsShareCacheEntries() async throws {
        var clients: [RemoteConfigClient] = []
        for n in 0..<40 {
            let fetcher = InMemoryFetcher(json: #"{"a": \#(n), "new_checkout": \#(n % 2 == 0)}"#)
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [Keys.a, Keys.flag])
                .build()
            try await client.refresh(force: true)
            clients.append(client)
        }
        let list = clients
        let wrong = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        for (n, client) in list.enumerated() {
                            if client[Keys.a] != n { wrong += 1 }
                            if client[Keys.flag] != (n % 2 == 0) { wrong += 1 }
                        }
                        if round % 16 == 0 { await Task.yield() }
                    }
                    return wrong
                }
            }
            var total = 0
            for await w in group { total += w }
            return total
        }
        #expect(wrong == 0)
    }

    @Test("a client released while threads still cache its state does not disturb a new client")
    func releasedClientDoesNotLeakIntoNewOne() async throws {
        for n in 0..<20 {
            let fetcher = InMemoryFetcher(json: #"{"a": \#(n)}"#)
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [Keys.a]).build()
            #expect(client[Keys.a] == 0)
            try await client.refresh(force: true)
            #expect(client[Keys.a] == n)
            await client.stop()
        }
    }
}
