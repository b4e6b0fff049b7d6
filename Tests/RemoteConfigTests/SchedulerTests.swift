import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Scheduler")
struct SchedulerTests {
    let serverError = FetchError(.httpStatus(500), retry: .backoff, message: "server error 500")

    @Test("the minimum fetch interval skips a refresh and says so")
    func minimumInterval() async throws {
        let clock = ManualClock()
        let fetcher = InMemoryFetcher(json: payload())
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock).minimumFetchInterval(60).build()
        _ = try await client.refresh()
        let skipped = try await client.refresh()
        #expect(skipped == .skipped(reason: .minimumInterval, nextAllowed: clock.now().addingTimeInterval(60)))
        #expect(fetcher.fetchCount == 1)
        #expect(client.status.lastError == nil)
        #expect(client.status.scheduler.hold == .minimumInterval)
        clock.advance(by: 60)
        #expect(try await client.refresh() == .unchanged)
        #expect(fetcher.fetchCount == 2)
    }

    @Test("backoff grows exponentially up to the maximum")
    func backoffGrowth() async throws {
        let clock = ManualClock()
        let fetcher = InMemoryFetcher(json: payload())
        fetcher.failAll(with: serverError)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock)
            .backoff(BackoffPolicy(initial: 2, multiplier: 2, maximum: 10))
            .build()
        var waits: [TimeInterval] = []
        for _ in 0..<6 {
            await #expect(throws: ConfigError.fetch(serverError)) { try await client.refresh() }
            let scheduler = client.status.scheduler
            let next = try #require(scheduler.nextAllowedFetch)
            #expect(scheduler.hold == .backoff)
            let wait = next.timeIntervalSince(clock.now())
            waits.append(wait)
            #expect(try await client.refresh() == .skipped(reason: .backoff, nextAllowed: next))
            clock.advance(by: wait)
        }
        #expect(waits == [2, 4, 8, 10, 10, 10])
        #expect(client.status.scheduler.consecutiveFailures == 6)
        #expect(fetcher.fetchCount == 6)
    }

    @Test("full jitter draws the wait uniformly below the bound", arguments: [0.0, 0.25, 0.5, 0.999])
    func jitterBounds(random: Double) async throws {
        let clock = ManualClock()
        let fetcher = InMemoryFetcher(json: payload())
        fetcher.failAll(with: serverError)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock)
            .backoff(BackoffPolicy(initial: 4, multiplier: 2, maximum: 100))
            .jitter(fixedJitter(random))
            .build()
        for failures in 1...4 {
            _ = try? await client.refresh(force: true)
            let next = try #require(client.status.scheduler.nextAllowedFetch)
            let wait = next.timeIntervalSince(clock.now())
            let bound = 4 * pow(2, Double(failures - 1))
            #expect(wait >= 0 && wait <= bound)
            #expect(abs(wait - bound * random) < 1e-6)
        }
    }

    @Test("BackoffPolicy.delay stays within 0...bound for any random draw")
    func delayWithinBounds() {
        let policy = BackoffPolicy(initial: 1, multiplier: 3, maximum: 50)
        for failures in 0...20 {
            for draw in stride(from: 0.0, through: 1.0, by: 0.125) {
                let delay = policy.delay(afterFailures: failures, random: draw)
                #expect(delay >= 0 && delay <= policy.bound(afterFailures: failures))
            }
        }
        #expect(policy.bound(afterFailures: 0) == 0)
        #expect(policy.bound(afterFailures: 1) == 1)
        #expect(policy.bound(afterFailures: 3) == 9)
        #expect(policy.bound(afterFailures: 30) == 50)
        #expect(BackoffPolicy(initial: 2, jitter: false).delay(afterFailures: 2, random: 0) == 4)
    }

    @Test("Retry-After from the fetcher's error holds even a forced refresh")
    func retryAfter() async throws {
        let clock = ManualClock()
        let until = clock.now().addingTimeInterval(120)
        let fetcher = ScriptedFetcher()
        let limited = FetchError(.rateLimited(status: 429), retry: .after(until), message: "rate limited; retry after 120 s")
        fetcher.enqueue(.failure(limited))
        fetcher.enqueue(.modifiedJSON(payload(retries: 4), etag: "\"v2\""))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock).build()
        await #expect(throws: ConfigError.fetch(limited)) { try await client.refresh() }
        #expect(client.status.scheduler.hold == .retryAfter)
        #expect(client.status.scheduler.nextAllowedFetch == until)
        #expect(try await client.refresh(force: true) == .skipped(reason: .retryAfter, nextAllowed: until))
        clock.advance(by: 120)
        #expect(try await client.refresh() == .updated(changedKeys: ["new_checkout", "max_retries", "ratio", "title"]))
        #expect(client.status.scheduler.consecutiveFailures == 0)
        #expect(client[Keys.retries] == 4)
    }

    @Test("force bypasses backoff and the minimum interval")
    func forceBypassesBackoff() async throws {
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.failure(serverError))
        fetcher.enqueue(.modifiedJSON(payload(retries: 6), etag: nil))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock).minimumFetchInterval(300).build()
        _ = try? await client.refresh()
        #expect(try await client.refresh(force: true).changedKeys.contains("max_retries"))
        #expect(client[Keys.retries] == 6)
    }

    @Test("a periodic refresh runs on the clock, reports failures, and stops with the client")
    func periodicRefresh() async throws {
        let clock = ManualClock()
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(payload(retries: 1), etag: "\"p1\""))
        fetcher.enqueue(.failure(serverError))
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock)
            .periodicRefresh(every: 600)
            .backoff(BackoffPolicy(initial: 1, maximum: 1, jitter: false))
            .observer(observer)
            .build()
        #expect(client.status.scheduler.periodicInterval == 600)
        await clock.waitForSleepers(count: 1)
        #expect(fetcher.fetchCount == 0)
        clock.advance(by: 600)
        _ = await observer.waitFor { if case .activated = $0 { true } else { false } }
        #expect(client[Keys.retries] == 1)
        await clock.waitForSleepers(count: 1)
        clock.advance(by: 600)
        let failed = await observer.waitFor { if case .refreshFailed = $0 { true } else { false } }
        #expect(failed == .refreshFailed(.fetch(serverError)))
        #expect(client.status.lastError == .fetch(serverError))
        #expect(client[Keys.retries] == 1)
        await clock.waitForSleepers(count: 1)
        await client.stop()
        #expect(client.status.scheduler.hold == .stopped)
        await #expect(throws: ConfigError.stopped) { try await client.refresh() }
    }
}
