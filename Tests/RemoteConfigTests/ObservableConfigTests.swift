#if canImport(Observation)
    import ConfigDomain
    import ConfigPorts
    import Foundation
    import Observation
    import RemoteConfig
    import RemoteConfigApp
    import TestDoubles
    import Testing

    /// Starts tracking what `read` reads of `config`; the returned stream yields, then ends, at the first change.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @MainActor
    func track(_ read: @escaping @MainActor () -> Void) -> AsyncStream<Void> {
        let (changed, signal) = AsyncStream<Void>.makeStream()
        withObservationTracking(read) {
            signal.yield()
            signal.finish()
        }
        return changed
    }

    @Suite("ObservableConfig")
    @MainActor
    struct ObservableConfigTests {
        @Test("a view reading through it is told of the activation, and then reads the new value")
        func updatesOnActivation() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
            let fetcher = InMemoryFetcher(json: payload(flag: true, retries: 5))
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
            let config = ObservableConfig(client)
            #expect(config[Keys.flag] == false)
            let changed = track { _ = config[Keys.flag] }
            try await client.refresh()
            for await _ in changed {}
            #expect(config[Keys.flag] == true)
            #expect(config[Keys.retries] == 5)
            #expect(config.generation == client.status.generation)
        }

        @Test("it moves to every later activation, not just the first")
        func everyActivation() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
            let fetcher = InMemoryFetcher(json: payload(retries: 5))
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
            let config = ObservableConfig(client)
            for retries in [5, 6, 7] {
                fetcher.serve(json: payload(retries: retries))
                let changed = track { _ = config[Keys.retries] }
                try await client.refresh()
                for await _ in changed {}
                #expect(config[Keys.retries] == retries)
            }
        }

        @Test("following a set of keys, it moves only when one of them changes")
        func followedKeys() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
            let fetcher = InMemoryFetcher(json: payload(retries: 5, title: "One"))
            let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
            try await client.refresh()
            let config = ObservableConfig(client, keys: [Keys.retries])
            let firstGeneration = config.generation
            let changed = AsyncStream<UInt64>.makeStream()
            withObservationTracking({ _ = config[Keys.retries] }) {
                changed.continuation.yield(client.status.generation)
            }
            fetcher.serve(json: payload(retries: 5, title: "Two"))  // only the title changes
            try await client.refresh()
            let titleOnly = client.status.generation
            fetcher.serve(json: payload(retries: 6, title: "Two"))
            try await client.refresh()
            var told = changed.stream.makeAsyncIterator()
            let generationWhenTold = await told.next()
            #expect(generationWhenTold == titleOnly + 1)
            #expect(config.generation == titleOnly + 1)
            #expect(config.generation > firstGeneration)
            #expect(config[Keys.retries] == 6)
            #expect(config[Keys.title] == "Two")
        }

        @Test("a value written through a local override store moves it too")
        func writes() async throws {
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) else { return }
            let theme = ConfigKey("theme", default: "system")
            let store = LocalOverrideStore(buildKind: .debug)
            let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
                .override(store)
                .register(theme)
                .build()
            let config = ObservableConfig(client)
            let changed = track { _ = config[theme] }
            try await store.set(theme, "dark")
            for await _ in changed {}
            #expect(config[theme] == "dark")
        }
    }
#endif
