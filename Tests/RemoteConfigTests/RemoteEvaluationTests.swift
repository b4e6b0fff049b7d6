import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// A fetcher whose "server" evaluates for the request's context: each targeting key gets its own
/// payload and ETag, and a request carrying that ETag gets `notModified`.
private final class PerUserFetcher: ConfigFetcher {
    private struct State {
        var titles: [String: String] = [:]
        var versions: [String: Int] = [:]
        var requests: [FetchRequest] = []
        var holds: [FetchHold] = []
        var failure: FetchError?
    }

    private let state = Locked(State())

    var evaluatesContext: Bool { true }

    /// Serves `title` to the user `key` from now on (a new version of that user's payload).
    func serve(_ title: String, to key: String) {
        state.withLock { s in
            s.titles[key] = title
            s.versions[key, default: 0] += 1
        }
    }

    func failAll(with error: FetchError?) { state.withLock { $0.failure = error } }

    func holdNext() -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.holds.append(hold) }
        return hold
    }

    var requests: [FetchRequest] { state.withLock { $0.requests } }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let hold = state.withLock { s -> FetchHold? in
            s.requests.append(request)
            return s.holds.isEmpty ? nil : s.holds.removeFirst()
        }
        if let hold {
            await hold.suspendUntilReleased()
            if Task.isCancelled { throw .cancelled }
        }
        return try state.withLock { s throws(FetchError) -> FetchResult in
            if let failure = s.failure { throw failure }
            let key = request.context.targetingKey ?? "anonymous"
            let title = s.titles[key] ?? "Hello stranger"
            let etag = "\"\(key)-v\(s.versions[key, default: 0])\""
            if request.validators.etag == etag { return .notModified(Validators(etag: etag)) }
            return .modified(
                FetchedPayload(
                    bytes: Data(#"{"title": "\#(title)"}"#.utf8), validators: Validators(etag: etag), source: "remote://flags"))
        }
    }
}

/// A provider whose server evaluates the flags for the client's context: it fetches again when the
/// context changes, keeps one cache slot per targeting key, and never applies a payload fetched for a
/// context the client has left.
@Suite("Remote evaluation")
struct RemoteEvaluationTests {
    private func client(
        _ fetcher: PerUserFetcher, cache: InMemoryCache = InMemoryCache(), user: String? = "u1"
    ) throws -> RemoteConfigClient {
        try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), cache: cache)
            .context(EvaluationContext(targetingKey: user, attributes: ["plan": "free"]))
            .build()
    }

    /// Waits for the refresh the context change started (the engine's flight), if any.
    private func backgroundRefresh(of client: RemoteConfigClient) async -> Result<RefreshResult, ConfigError>? {
        await client.engine.currentFlight?.value
    }

    @Test("the fetch request carries the client's context")
    func requestCarriesContext() async throws {
        let fetcher = PerUserFetcher()
        let client = try client(fetcher)
        try await client.refresh()
        let request = try #require(fetcher.requests.first)
        #expect(request.context == EvaluationContext(targetingKey: "u1", attributes: ["plan": "free"]))
        #expect(request.configurationName == "default")
    }

    @Test("a context change fetches for the new user in the background and serves that user's values")
    func contextChangeRefetches() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u1", to: "u1")
        fetcher.serve("Hello u2", to: "u2")
        let client = try client(fetcher)
        try await client.refresh()
        #expect(client[Keys.title] == "Hello u1")

        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        #expect(client[Keys.title] == "Welcome")  // no cached payload for u2 yet: the key's default
        let result = await backgroundRefresh(of: client)
        #expect(result == .success(.updated(changedKeys: ["title"])))
        #expect(client[Keys.title] == "Hello u2")
        #expect(fetcher.requests.last?.context.targetingKey == "u2")
        #expect(fetcher.requests.last?.validators == Validators.none)  // nothing held for u2: unconditional
    }

    @Test("an attribute change refetches with the held ETag and gets notModified")
    func attributeChangeIsConditional() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u1", to: "u1")
        let client = try client(fetcher)
        try await client.refresh()
        client.updateContext { $0.attributes["plan"] = "pro" }
        #expect(await backgroundRefresh(of: client) == .success(.unchanged))
        #expect(fetcher.requests.count == 2)
        #expect(fetcher.requests.last?.validators.etag == "\"u1-v1\"")
        #expect(fetcher.requests.last?.context.attributes["plan"] == "pro")
    }

    @Test("an unchanged context fetches nothing")
    func sameContextFetchesNothing() async throws {
        let fetcher = PerUserFetcher()
        let client = try client(fetcher)
        try await client.refresh()
        client.updateContext { $0 = client.context }
        #expect(client.engine.currentFlight == nil)
        #expect(fetcher.requests.count == 1)
    }

    @Test("while it fetches for a new context the provider is RECONCILING, then READY, one event each")
    func reconcilingWhileRefetching() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u2", to: "u2")
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock())
            .context(EvaluationContext(targetingKey: "u1")).observer(observer).build()
        try await client.refresh()
        let hold = fetcher.holdNext()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        await hold.waitUntilReached()
        #expect(client.status.state == .reconciling)
        #expect(client.status.providers[0].stateReason == "fetching the flags for the new evaluation context")
        hold.release()
        _ = await backgroundRefresh(of: client)
        #expect(client.status.state == .ready)
        let transitions = observer.events.compactMap {
            if case .stateChanged(_, let from, let to, _) = $0 { "\(from)->\(to)" } else { nil }
        }
        #expect(transitions == ["NOT_READY->READY", "READY->RECONCILING", "RECONCILING->READY"])
    }

    @Test("switching back to a user serves that user's cached payload at once, before the refetch answers")
    func switchBackServesCache() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u1", to: "u1")
        fetcher.serve("Hello u2", to: "u2")
        let client = try client(fetcher)
        try await client.refresh()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        _ = await backgroundRefresh(of: client)
        #expect(client[Keys.title] == "Hello u2")

        let hold = fetcher.holdNext()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u1") }
        #expect(client[Keys.title] == "Hello u1")  // from u1's cache slot, synchronously
        await hold.waitUntilReached()
        #expect(fetcher.requests.last?.validators.etag == "\"u1-v1\"")  // the refetch is conditional on u1's ETag
        hold.release()
        #expect(await backgroundRefresh(of: client) == .success(.unchanged))
        #expect(client[Keys.title] == "Hello u1")
    }

    @Test(
        "a user's refused value falls to the default, never to the previous user's value; within a user it keeps the last good one"
    )
    func refusedValueStaysWithItsUser() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u1", to: "u1")
        fetcher.serve("", to: "u2")  // refused by the key's nonEmpty rule
        let client = try client(fetcher)
        try await client.refresh()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        _ = await backgroundRefresh(of: client)
        #expect(client[Keys.title] == "Welcome")
        client.updateContext { $0 = EvaluationContext(targetingKey: "u1") }
        _ = await backgroundRefresh(of: client)
        #expect(client[Keys.title] == "Hello u1")

        // u2's cache slot holds the refused value: the switch serves the default at once, not u1's title.
        let hold = fetcher.holdNext()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        #expect(client[Keys.title] == "Welcome")
        #expect(client.details(Keys.title).layer == .defaultValue)
        await hold.waitUntilReached()
        hold.release()
        _ = await backgroundRefresh(of: client)
        #expect(client[Keys.title] == "Welcome")

        fetcher.serve("Hi u2", to: "u2")
        try await client.refresh()
        #expect(client[Keys.title] == "Hi u2")
        fetcher.serve("", to: "u2")
        await #expect(throws: ConfigError.self) { try await client.refresh() }
        #expect(client[Keys.title] == "Hi u2")
        #expect(client.details(Keys.title).layer == .lastGoodSnapshot(source: "remote://flags"))
    }

    @Test("cache slots are named by a hash of the targeting key, never the key")
    func slotsHideTheKey() async throws {
        let fetcher = PerUserFetcher()
        let cache = InMemoryCache()
        let secretKey = "alice@example.com"
        let client = try client(fetcher, cache: cache, user: secretKey)
        try await client.refresh()
        let name = ContextSlot.cacheName(base: "default", targetingKey: secretKey, evaluatesContext: true)
        #expect(name.hasPrefix("default.user-"))
        #expect(!name.contains("alice"))
        #expect(cache.snapshot(name) != nil)
        #expect(cache.snapshot("default") == nil)
        #expect(!cache.operations.joined().contains("alice"))
        #expect(ContextSlot.cacheName(base: "default", targetingKey: nil, evaluatesContext: true) == "default.anonymous")
        #expect(ContextSlot.cacheName(base: "default", targetingKey: "bob", evaluatesContext: true) != name)
        #expect(ContextSlot.cacheName(base: "default", targetingKey: secretKey, evaluatesContext: false) == "default")
    }

    @Test("an offline launch with the same targeting key serves that user's values; another user gets none of them")
    func offlineLaunchServesThatUser() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u1", to: "u1")
        let cache = InMemoryCache()
        let first = try client(fetcher, cache: cache)
        try await first.refresh()
        await first.stop()

        let offline = PerUserFetcher()
        offline.failAll(with: FetchError(.transport, retry: .backoff, message: "offline"))
        let again = try client(offline, cache: cache, user: "u1")
        #expect(again[Keys.title] == "Hello u1")
        let other = try client(offline, cache: cache, user: "u9")
        #expect(other[Keys.title] == "Welcome")
        other.updateContext { $0 = EvaluationContext(targetingKey: "u1") }  // a later login serves u1's slot
        #expect(other[Keys.title] == "Hello u1")
        _ = await backgroundRefresh(of: other)
        #expect(other[Keys.title] == "Hello u1")  // the failed refetch keeps it
    }

    @Test("a refresh in flight for a user the client left is cancelled and applies nothing")
    func staleRefreshIsDiscarded() async throws {
        let fetcher = PerUserFetcher()
        fetcher.serve("Hello u1", to: "u1")
        fetcher.serve("Hello u2", to: "u2")
        let cache = InMemoryCache()
        let client = try client(fetcher, cache: cache)
        let hold = fetcher.holdNext()
        let old = Task { try await client.refresh() }
        await hold.waitUntilReached()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        hold.release()
        let oldResult = try await old.value
        #expect(oldResult == .updated(changedKeys: ["title"]) || oldResult == .unchanged)
        _ = await backgroundRefresh(of: client)
        #expect(client[Keys.title] == "Hello u2")
        #expect(client.status.lastError == nil)  // the cancelled fetch is not a failure
        let u1Slot = ContextSlot.cacheName(base: "default", targetingKey: "u1", evaluatesContext: true)
        #expect(cache.snapshot(u1Slot) == nil)  // nothing of u1's cancelled fetch was stored
    }

    @Test("a provider whose payloads hold for every context fetches nothing on a context change")
    func ordinaryProviderDoesNotRefetch() async throws {
        let fetcher = InMemoryFetcher(json: payload())
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        try await client.refresh()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u2") }
        #expect(client.engine.currentFlight == nil)
        #expect(fetcher.fetchCount == 1)
        #expect(fetcher.requests.first?.context == .empty)
    }
}
