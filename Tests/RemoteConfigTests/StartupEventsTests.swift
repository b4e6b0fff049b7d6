import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// What `build()` reports reaches `events()`, not only the observers given to the builder.
@Suite("Events raised while the client is built")
struct StartupEventsTests {
    @Test("each events() stream starts with build()'s events, in order, then the later ones")
    func streamsStartWithBuildEvents() async throws {
        let overrides = InMemoryOverrideSource(name: "env")
        overrides.report(problem: "MYAPP_MAX_RETRIE overrides no registered key")
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 99), fetchedAt: epoch), as: "default", slot: .active)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock(now: epoch), cache: cache)
            .override(overrides)
            .observer(observer)
            .build()

        var stream = client.events().makeAsyncIterator()
        var seen: [String] = []
        for _ in 0..<3 {
            guard let event = await stream.next() else { break }
            seen.append(Self.name(event))
        }
        #expect(seen == ["overrideProblem", "cacheLoaded", "valueRejected"])
        #expect(observer.events.map(Self.name) == seen, "observers saw the same events as they happened")

        try await client.refresh()
        let afterBuild = await stream.next()
        #expect(afterBuild.map(Self.name) == "refreshStarted")

        var second = client.events().makeAsyncIterator()
        #expect(await second.next().map(Self.name) == "overrideProblem", "a later stream starts with them too")
        await client.stop()
    }

    private static func name(_ event: ConfigEvent) -> String {
        switch event {
        case .overrideProblem: "overrideProblem"
        case .cacheLoaded: "cacheLoaded"
        case .valueRejected: "valueRejected"
        case .refreshStarted: "refreshStarted"
        default: "other"
        }
    }
}
