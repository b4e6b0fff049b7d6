import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Local override store")
struct LocalOverrideStoreTests {
    @Test("set, remove and removeAll re-resolve the client; readers see the new value")
    func setAndRemove() async throws {
        let store = LocalOverrideStore(buildKind: .debug)
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: payload(retries: 5)), clock: ManualClock()
        )
        .override(store).build()
        _ = try await client.refresh()
        var values = client.watch(Keys.retries).makeAsyncIterator()
        #expect(await values.next() == 5)
        try await store.set(Keys.retries, 9)
        #expect(await values.next() == 9)
        #expect(
            client.details(Keys.retries).layer
                == .override(source: "local overrides", position: 0, origin: "local overrides:max_retries"))
        try await store.set(Keys.flag, false)
        try await store.remove(Keys.retries)
        #expect(await values.next() == 5)
        try await store.removeAll()
        #expect(await store.currentValues().isEmpty)
    }

    @Test("a debug menu cannot set a value the key's rules reject")
    func rulesApply() async throws {
        let store = LocalOverrideStore(buildKind: .debug)
        await #expect {
            try await store.set(Keys.retries, 50)
        } throws: { error in
            guard case ConfigError.rejected(let r) = error else { return false }
            return r.key == "max_retries" && r.rule == "range(0...10)"
        }
        #expect(await store.currentValues().isEmpty)
    }

    @Test("in a release build the store refuses writes and is ignored unless allowedInRelease")
    func releaseBuilds() async throws {
        let cache = InMemoryCache()
        let persistence = LocalOverrideStore.Persistence(cache: cache)
        let debug = LocalOverrideStore(persistence: persistence, buildKind: .debug)
        try await debug.set(Keys.retries, 7)

        let locked = LocalOverrideStore(persistence: persistence, allowedInRelease: false, buildKind: .release)
        #expect(!locked.isEnabled)
        await #expect {
            try await locked.set(Keys.retries, 1)
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.message.contains("allowedInRelease")
        }
        let ignored = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(locked).build()
        #expect(ignored[Keys.retries] == 3)

        let allowed = LocalOverrideStore(persistence: persistence, allowedInRelease: true, buildKind: .release)
        #expect(allowed.isEnabled)
        let honoured = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(allowed).build()
        #expect(honoured[Keys.retries] == 7)
        try await allowed.set(Keys.retries, 2)
        #expect(await allowed.currentValues()["max_retries"] == .int(2))
    }

    @Test("persisted overrides survive a relaunch over the same cache")
    func persistence() async throws {
        let cache = InMemoryCache()
        let first = LocalOverrideStore(persistence: .init(cache: cache, name: "debug"), buildKind: .debug)
        try await first.set(Keys.flag, true)
        try await first.set(Keys.title, "QA build")
        #expect(cache.snapshot("debug", slot: .active) != nil)

        let relaunched = LocalOverrideStore(persistence: .init(cache: cache, name: "debug"), buildKind: .debug)
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(relaunched).build()
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.title] == "QA build")
    }

    @Test("unreadable persisted overrides are reported and the store starts empty")
    func unreadablePersistence() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached("[not an object", fetchedAt: epoch), as: "debug", slot: .active)
        let store = LocalOverrideStore(persistence: .init(cache: cache, name: "debug"), buildKind: .debug)
        let snapshot = store.overrides(for: [Keys.flag.descriptor])
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems.count == 1)
        #expect(snapshot.problems.first?.contains("unreadable") == true)
    }

    @Test("persisted overrides that are valid JSON but not an object are reported, not silently dropped")
    func persistedNonObject() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(#"["new_checkout", true]"#, fetchedAt: epoch), as: "debug", slot: .active)
        let store = LocalOverrideStore(persistence: .init(cache: cache, name: "debug"), buildKind: .debug)
        let snapshot = store.overrides(for: [Keys.flag.descriptor])
        #expect(snapshot.values.isEmpty)
        #expect(
            snapshot.problems == [
                #"persisted overrides in "debug" are a JSON array, not an object of keys to values; starting empty"#
            ])
    }

    @Test("a failing persistence write is a typed error; the value is still set in memory")
    func persistenceFailure() async throws {
        let cache = InMemoryCache()
        let failure = CacheError(.io(operation: "write", code: 13), message: "permission denied")
        cache.failWrites(with: failure)
        let store = LocalOverrideStore(persistence: .init(cache: cache), buildKind: .debug)
        await #expect(throws: ConfigError.cache(failure)) { try await store.set(Keys.flag, true) }
        #expect(await store.currentValues()["new_checkout"] == .bool(true))
    }

    @Test("the change stream yields the current state first")
    func changeStream() async throws {
        let store = LocalOverrideStore(buildKind: .debug)
        try await store.set(Keys.flag, true)
        var changes = store.changes(for: [Keys.flag.descriptor, Keys.retries.descriptor]).makeAsyncIterator()
        let first = await changes.next()
        #expect(first?.values["new_checkout"]?.content == .value(.bool(true)))
        try await store.set(Keys.retries, 4)
        let second = await changes.next()
        #expect(second?.values["max_retries"]?.content == .value(.int(4)))
    }
}
