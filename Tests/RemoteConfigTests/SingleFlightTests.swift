import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

@Suite("Single-flight refresh")
struct SingleFlightTests {
    /// 1,000 trials of 8 to 64 concurrent callers: each trial makes exactly one fetch, and every caller sees its result.
    @Test("concurrent callers share exactly one fetch (1,000 trials)")
    func thousandTrials() async throws {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<1000 {
            let callers = Int.random(in: 8...64, using: &generator)
            let fetcher = ScriptedFetcher()
            let hold = fetcher.enqueueHeld(.modifiedJSON(payload(retries: trial % 10), etag: "\"t\(trial)\""))
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
            let results = await withTaskGroup(of: Result<RefreshResult, ConfigError>.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        do throws(ConfigError) { return .success(try await client.refresh()) } catch { return .failure(error) }
                    }
                }
                await hold.waitUntilReached()
                await client.engine.waitForParticipants(callers)
                hold.release()
                var all: [Result<RefreshResult, ConfigError>] = []
                for await result in group { all.append(result) }
                return all
            }
            #expect(fetcher.fetchCount == 1, "trial \(trial) with \(callers) callers fetched \(fetcher.fetchCount) times")
            #expect(results.count == callers)
            let first = try results[0].get()
            #expect(results.allSatisfy { (try? $0.get()) == first })
            #expect(client[Keys.retries] == trial % 10)
            if fetcher.fetchCount != 1 { break }
        }
    }

    @Test("a failed shared fetch fails every caller with the same error and keeps the state")
    func sharedFailure() async throws {
        let fetcher = ScriptedFetcher()
        let error = FetchError(.httpStatus(503), retry: .backoff, message: "server error 503")
        let hold = fetcher.enqueueHeld(.failure(error))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        let results = await withTaskGroup(of: ConfigError?.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    do throws(ConfigError) {
                        _ = try await client.refresh()
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            await hold.waitUntilReached()
            await client.engine.waitForParticipants(16)
            hold.release()
            var all: [ConfigError?] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(fetcher.fetchCount == 1)
        #expect(results.allSatisfy { $0 == .fetch(error) })
        #expect(client[Keys.retries] == 3)
    }
}
