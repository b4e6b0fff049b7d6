import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Consistency")
struct ConsistencyTests {
    /// Every payload has `a == b`; a reader that ever saw `a != b` would have seen half of a refresh.
    @Test("reads racing with 1,000 refreshes always see one whole state")
    func readsRaceRefreshes() async throws {
        let fetcher = ScriptedFetcher()
        for n in 1...1000 { fetcher.enqueue(.modifiedJSON(#"{"a": \#(n), "b": \#(n)}"#, etag: "\"\(n)\"")) }
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [Keys.a, Keys.b]).build()
        let done = Recorder<Bool>()
        let torn = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for _ in 0..<1000 { _ = try? await client.refresh(force: true) }
                done.append(true)
                return 0
            }
            for _ in 0..<3 {
                group.addTask {
                    var tornReads = 0
                    var last = 0
                    var reads = 0
                    while done.values.isEmpty || reads < 1000 {
                        let view = client.view()
                        let a = view[Keys.a]
                        let b = view[Keys.b]
                        if a != b { tornReads += 1 }
                        if a < last { tornReads += 1 }
                        last = a
                        reads += 1
                        if reads % 64 == 0 { await Task.yield() }
                    }
                    return tornReads
                }
            }
            var total = 0
            for await t in group { total += t }
            return total
        }
        #expect(torn == 0)
        #expect(fetcher.fetchCount == 1000)
        #expect(client[Keys.a] == 1000)
        #expect(client[Keys.b] == 1000)
        #expect(client.status.generation >= 1001)
    }
}
