import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Several remote providers")
struct MultipleProvidersTests {
    let down = FetchError(.transport, retry: .backoff, message: "connection refused (experiments server down)")

    /// A client of a main fetcher (precedence 0) and an `experiments` fetcher (precedence 10).
    func client(
        main: any ConfigFetcher, experiments: any ConfigFetcher, clock: ManualClock = ManualClock(),
        cache: InMemoryCache? = nil
    ) throws -> RemoteConfigClient {
        try RemoteConfigBuilder.testing(fetcher: main, clock: clock, cache: cache)
            .fetcher(experiments, name: "experiments", precedence: 10)
            .build()
    }

    @Test("a cache-only read leaves out only the providers whose snapshot expired")
    func cacheOnlyDropsOnlyExpiredProviders() async throws {
        let clock = ManualClock()
        let main = InMemoryFetcher(json: payload(retries: 5, title: "Main"), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"new_checkout": true, "ratio": 0.75}"#, source: "memory://experiments")
        let client = try client(main: main, experiments: experiments, clock: clock)
        _ = try await client.refresh()

        // Past the main snapshot's TTL and stale window; its server is down, the experiments server answers.
        clock.advance(by: 3600 + 86_400 + 1)
        main.failAll(with: down)
        experiments.serve(json: #"{"new_checkout": true, "ratio": 0.8}"#)
        _ = try? await client.refresh(force: true)
        #expect(client.status.providers[0].freshness == .expired)
        #expect(client.status.providers[1].freshness == .fresh)

        #expect(await client.fetch(.cacheOnly)[Keys.ratio] == 0.8, "the fresh provider's value is served")
        #expect(await client.fetch(.cacheOnly)[Keys.flag] == true)
        #expect(await client.fetch(.cacheOnly)[Keys.retries] == 3, "the expired provider's value is not")
        #expect(await client.fetch(.cacheOnly)[Keys.title] == "Welcome")
    }

    @Test("with two fetchers, one of them down, the other's values apply and the failure is its own")
    func oneDown() async throws {
        let main = InMemoryFetcher(json: payload(retries: 5, title: "Main"), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"new_checkout": true}"#, source: "memory://experiments")
        experiments.failAll(with: down)
        let client = try client(main: main, experiments: experiments)

        #expect(try await client.refresh() == .updated(changedKeys: ["new_checkout", "max_retries", "ratio", "title"]))
        #expect(client[Keys.retries] == 5)
        #expect(client[Keys.title] == "Main")
        let status = client.status
        #expect(status.providers.map(\.name) == ["default", "experiments"])
        #expect(status.providers[0].lastError == nil)
        #expect(status.providers[1].lastError == .fetch(down))
        #expect(status.providers[1].scheduler.hold == .backoff)
        #expect(status.providers[1].snapshot == nil)
        #expect(status.lastError == nil)  // the top-level fields are the main fetcher's
    }

    @Test("when every provider fails, refresh() throws the main fetcher's error and keeps the last good state")
    func allDown() async throws {
        let main = InMemoryFetcher(json: payload(retries: 5))
        let experiments = InMemoryFetcher(json: "{}")
        let mainError = FetchError(.httpStatus(500), retry: .backoff, message: "server error 500")
        main.failAll(with: mainError)
        experiments.failAll(with: down)
        let client = try client(main: main, experiments: experiments)
        await #expect(throws: ConfigError.fetch(mainError)) { try await client.refresh() }
        #expect(client[Keys.retries] == 3)
    }

    @Test("a provider whose fetch hangs never holds back another's activation")
    func hangingProviderDoesNotBlock() async throws {
        let main = InMemoryFetcher(json: payload(retries: 7), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"title": "Experiment"}"#, source: "memory://experiments")
        let hold = experiments.holdNext()
        let client = try client(main: main, experiments: experiments)
        var updates = client.activations().makeAsyncIterator()
        let refresh = Task { try await client.refresh() }
        await hold.waitUntilReached()
        let first = await updates.next()
        #expect(first?.changedKeys.contains("max_retries") == true)
        #expect(client[Keys.retries] == 7)
        #expect(client[Keys.title] == "Hello")
        hold.release()
        let result = try await refresh.value
        #expect(result.changedKeys.contains("max_retries") && result.changedKeys.contains("title"))
        #expect(client[Keys.title] == "Experiment")
    }

    @Test("the provider with the higher precedence wins; a value it has that a rule rejects falls to the next provider")
    func precedence() async throws {
        let main = InMemoryFetcher(json: payload(retries: 5, title: "Main"), source: "memory://main")
        let experiments = InMemoryFetcher(
            json: #"{"max_retries": 99, "title": "Experiment"}"#, source: "memory://experiments")
        let client = try client(main: main, experiments: experiments)
        try await client.refresh()

        #expect(client[Keys.title] == "Experiment")
        let title = client.details(Keys.title)
        #expect(title.layer == .snapshot(source: "memory://experiments"))
        #expect(title.provider == "experiments")
        #expect(title.snapshot?.source == "memory://experiments")

        #expect(client[Keys.retries] == 5)
        let retries = client.details(Keys.retries)
        #expect(retries.layer == .snapshot(source: "memory://main"))
        #expect(retries.provider == "default")
        #expect(retries.rejected.map(\.rule) == ["range(0...10)"])
        #expect(retries.rejected.first?.origin == "snapshot memory://experiments")
        #expect(retries.rejected.first?.value == "99", "the refused raw value is in the details")
    }

    @Test("a provider added with a lower precedence only fills the keys the main fetcher lacks")
    func lowerPrecedence() async throws {
        let main = InMemoryFetcher(json: #"{"title": "Main"}"#, source: "memory://main")
        let regional = InMemoryFetcher(json: #"{"title": "Regional", "ratio": 0.75}"#, source: "memory://regional")
        let client = try RemoteConfigBuilder.testing(fetcher: main, clock: ManualClock())
            .fetcher(regional, name: "regional", precedence: -10)
            .build()
        try await client.refresh()
        #expect(client[Keys.title] == "Main")
        #expect(client[Keys.ratio] == 0.75)
        #expect(client.details(Keys.ratio).provider == "regional")
    }

    @Test("each provider keeps its own cache name, validators and scheduler")
    func ownCacheValidatorsAndScheduler() async throws {
        let clock = ManualClock()
        let cache = InMemoryCache()
        let main = InMemoryFetcher(json: payload(retries: 5), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"title": "Experiment"}"#, source: "memory://experiments")
        let client = try client(main: main, experiments: experiments, clock: clock, cache: cache)
        try await client.refresh()
        #expect(cache.snapshot("default")?.payload == main.currentPayload)
        #expect(cache.snapshot("experiments")?.payload == experiments.currentPayload)

        // Each fetcher gets its own validators back: both answer 304.
        #expect(try await client.refresh() == .unchanged)
        #expect(main.requests.last?.validators.etag == main.currentETag)
        #expect(experiments.requests.last?.validators.etag == experiments.currentETag)
        #expect(main.requests.last?.configurationName == "default")
        #expect(experiments.requests.last?.configurationName == "experiments")

        // The experiments server goes down: it backs off alone; the main fetcher keeps fetching.
        experiments.failAll(with: down)
        try await client.refresh()
        main.serve(json: payload(retries: 6))
        #expect(try await client.refresh() == .updated(changedKeys: ["max_retries"]))
        #expect(experiments.fetchCount == 3)
        #expect(main.fetchCount == 4)
        #expect(client.status.providers[1].scheduler.consecutiveFailures == 1)
        #expect(client.status.providers[0].scheduler.consecutiveFailures == 0)
    }

    @Test("a relaunch starts from each provider's own cached snapshot")
    func relaunchFromEachCache() async throws {
        let clock = ManualClock()
        let cache = InMemoryCache()
        let main = InMemoryFetcher(json: payload(retries: 5), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"title": "Experiment"}"#, source: "memory://experiments")
        try await client(main: main, experiments: experiments, clock: clock, cache: cache).refresh()

        let offline = ScriptedFetcher()
        let relaunched = try client(main: offline, experiments: ScriptedFetcher(), clock: clock, cache: cache)
        #expect(relaunched[Keys.retries] == 5)
        #expect(relaunched[Keys.title] == "Experiment")
        #expect(relaunched.status.providers.map(\.cache) == [.inSync, .inSync])
    }

    @Test("under manual activation each provider's snapshot waits, and activate() applies them all")
    func manualActivation() async throws {
        let main = InMemoryFetcher(json: payload(retries: 5), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"title": "Experiment"}"#, source: "memory://experiments")
        let client = try RemoteConfigBuilder.testing(fetcher: main, clock: ManualClock())
            .fetcher(experiments, name: "experiments", precedence: 10)
            .activation(.manual)
            .build()
        #expect(try await client.refresh() == .pendingActivation(changedKeys: ["new_checkout", "max_retries", "ratio", "title"]))
        #expect(client.status.providers.map(\.pendingActivation) == [true, true])
        #expect(client[Keys.retries] == 3)
        let activated = try #require(await client.activate())
        #expect(Set(activated.changedKeys) == ["new_checkout", "max_retries", "ratio", "title"])
        #expect(client[Keys.retries] == 5)
        #expect(client[Keys.title] == "Experiment")
        #expect(await client.activate() == nil)
    }

    @Test("each provider refreshes periodically on its own schedule")
    func periodicPerProvider() async throws {
        let clock = ManualClock()
        let main = InMemoryFetcher(json: payload(retries: 5), source: "memory://main")
        let experiments = InMemoryFetcher(json: #"{"title": "Experiment"}"#, source: "memory://experiments")
        experiments.failNext(down)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: main, clock: clock)
            .fetcher(experiments, name: "experiments", precedence: 10)
            .periodicRefresh(every: 600)
            .backoff(BackoffPolicy(initial: 1, maximum: 1, jitter: false))
            .observer(observer)
            .build()
        await clock.waitForSleepers(count: 2)
        clock.advance(by: 600)
        _ = await observer.waitFor { if case .refreshFailed = $0 { true } else { false } }
        _ = await observer.waitFor { if case .activated = $0 { true } else { false } }
        #expect(client[Keys.retries] == 5)
        #expect(client.status.providers[1].lastError == .fetch(down))
        await clock.waitForSleepers(count: 2)
        clock.advance(by: 600)
        let experimentsRefreshed = await observer.waitFor { event in
            if case .activated(let update) = event { update.changedKeys == ["title"] } else { false }
        }
        if case .activated(let update) = experimentsRefreshed { #expect(update.cause == .refresh) }
        #expect(client[Keys.title] == "Experiment")
        #expect(client.status.providers[1].lastError == nil)
        await client.stop()
    }

    @Test("two providers with one name, or one precedence, are a setup mistake")
    func conflicts() throws {
        let fetcher = InMemoryFetcher(json: "{}")
        #expect {
            _ = try RemoteConfigClient.builder(fetcher: fetcher).fetcher(fetcher, name: "default", precedence: 1).build()
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .conflictingProvider && problem.message.contains("two providers are named \"default\"")
        }
        #expect {
            _ = try RemoteConfigClient.builder(fetcher: fetcher)
                .fetcher(fetcher, name: "a", precedence: 5).fetcher(fetcher, name: "b", precedence: 5).build()
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .conflictingProvider && problem.message.contains("both have precedence 5")
        }
    }

    @Test("a provider may bring its own payload format")
    func ownFormat() async throws {
        let main = InMemoryFetcher(json: #"{"title": "Main"}"#)
        let nested = InMemoryFetcher(json: #"{"retry": {"max": 4}}"#, source: "memory://nested")
        let client = try RemoteConfigBuilder.testing(fetcher: main, clock: ManualClock())
            .fetcher(
                nested, name: "nested", precedence: 1,
                format: MappedFormat(name: "nested") { value in
                    ["max_retries": value["retry"]?["max"] ?? .null]
                }
            )
            .build()
        try await client.refresh()
        #expect(client[Keys.retries] == 4)
        #expect(client[Keys.title] == "Main")
    }
}
