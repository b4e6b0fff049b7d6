import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Push sources: signals feed the single-flight refresh, payloads are activated directly, and a
/// signal naming what the client holds does nothing.
@Suite("Push")
struct PushTests {
    /// A client over `fetcher` with one push source, whose first signal (the current state) has been handled.
    private func pushClient(
        fetcher: any ConfigFetcher, push: InMemoryChangeSignalSource, cache: (any SnapshotCache)? = nil,
        observer: RecordingObserver = RecordingObserver(), configure: (RemoteConfigBuilder) -> RemoteConfigBuilder = { $0 }
    ) async throws -> RemoteConfigClient {
        let builder = RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), cache: cache)
            .observer(observer).push(push)
        let client = try configure(builder).build()
        try await settled(client, 1)
        return client
    }

    /// Waits until the client has handled `count` signals.
    private func settled(_ client: RemoteConfigClient, _ count: Int) async throws {
        let receiver = try #require(client.pushReceivers[0])
        await receiver.waitUntilSettled(count)
    }

    private func payloadSignal(_ json: String, etag: String, source: String = "push://test") -> FetchedPayload {
        FetchedPayload(bytes: Data(json.utf8), validators: Validators(etag: etag), source: source)
    }

    @Test("a signal with a new version refreshes once and updates the values")
    func changedVersionRefreshes() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 4))
        let push = InMemoryChangeSignalSource(current: .changed(version: nil))
        let client = try await pushClient(fetcher: fetcher, push: push)
        #expect(fetcher.fetchCount == 1)  // the first signal: "maybe changed" while holding nothing
        #expect(client[Keys.retries] == 4)

        var updates = client.activations().makeAsyncIterator()
        fetcher.serve(json: payload(retries: 6))
        push.announce(version: fetcher.currentETag)
        let update = await updates.next()
        #expect(update?.changedKeys == ["max_retries"])
        #expect(update?.cause == .refresh)
        #expect(client[Keys.retries] == 6)
        #expect(fetcher.fetchCount == 2)
        #expect(fetcher.requests[1].validators.etag != nil)  // still a conditional fetch
    }

    @Test("a signal naming the version held fetches nothing and emits no update")
    func heldVersionDoesNothing() async throws {
        let cache = InMemoryCache()
        try await cache.store(cached(payload(retries: 2), fetchedAt: epoch, etag: "\"v1\""), as: "default", slot: .active)
        let fetcher = ScriptedFetcher()  // an empty script fails any fetch loudly
        let observer = RecordingObserver()
        let push = InMemoryChangeSignalSource(current: .changed(version: "v1"))
        let client = try await pushClient(fetcher: fetcher, push: push, cache: cache, observer: observer)
        let generation = client.status.generation
        push.announce(version: "W/\"v1\"")
        push.deliver(payloadSignal(payload(retries: 9), etag: "\"v1\""))
        try await settled(client, 3)
        #expect(fetcher.fetchCount == 0)
        #expect(client.status.generation == generation)
        #expect(client[Keys.retries] == 2)
        #expect(!observer.events.contains(.refreshStarted))
    }

    @Test("a whole payload is validated, activated, cached and attributed without a fetch")
    func payloadIsActivatedDirectly() async throws {
        let cache = InMemoryCache()
        let fetcher = ScriptedFetcher()
        let push = InMemoryChangeSignalSource(current: .payload(payloadSignal(payload(retries: 5), etag: "\"p1\"")))
        let client = try await pushClient(fetcher: fetcher, push: push, cache: cache)
        #expect(client[Keys.retries] == 5)

        push.deliver(payloadSignal(payload(retries: 99, title: "Pushed"), etag: "\"p2\"", source: "sse http://x/events"))
        try await settled(client, 2)
        #expect(fetcher.fetchCount == 0)
        #expect(client[Keys.title] == "Pushed")
        #expect(client[Keys.retries] == 5)  // 99 breaks the key's range rule: the last good value stays
        let explanation = client.details(Keys.title)
        #expect(explanation.layer == .snapshot(source: "sse http://x/events"))
        #expect(explanation.snapshot?.validators.etag == "\"p2\"")
        #expect(client.details(Keys.retries).rejected.count == 1)
        let stored = try #require(cache.snapshot("default"))
        #expect(stored.payload == Data(payload(retries: 99, title: "Pushed").utf8))
        #expect(stored.metadata.validators.etag == "\"p2\"")
    }

    @Test("a pushed payload that does not decode is reported and the last good state is kept")
    func badPayloadKeepsLastGood() async throws {
        let observer = RecordingObserver()
        let push = InMemoryChangeSignalSource(current: .payload(payloadSignal(payload(retries: 7), etag: "\"p1\"")))
        let client = try await pushClient(fetcher: ScriptedFetcher(), push: push, observer: observer)
        push.deliver(payloadSignal(#"{"max_retries": 8,"#, etag: "\"p2\""))
        try await settled(client, 2)
        #expect(client[Keys.retries] == 7)
        guard case .payload? = client.status.lastError else {
            Issue.record("expected a payload error, got \(String(describing: client.status.lastError))")
            return
        }
        #expect(observer.events.contains { if case .refreshFailed = $0 { true } else { false } })
    }

    @Test("under manual activation a pushed payload waits, and a signal naming it does nothing")
    func manualActivationHoldsThePush() async throws {
        let fetcher = ScriptedFetcher()
        let push = InMemoryChangeSignalSource(current: .changed(version: "none-held"))
        fetcher.enqueue(.modifiedJSON(payload(retries: 1), etag: "\"f1\""))
        let client = try await pushClient(fetcher: fetcher, push: push) { $0.activation(.manual) }
        _ = await client.activate()
        #expect(client[Keys.retries] == 1)

        push.deliver(payloadSignal(payload(retries: 6), etag: "\"p2\""))
        push.announce(version: "\"p2\"")
        try await settled(client, 3)
        #expect(client[Keys.retries] == 1)
        #expect(client.status.pendingActivation)
        #expect(fetcher.fetchCount == 1)
        _ = await client.activate()
        #expect(client[Keys.retries] == 6)
    }

    @Test("a signal during a fetch that started before it gets a fetch of its own, after that one")
    func signalDuringAnEarlierFetchFetchesAgain() async throws {
        let fetcher = ScriptedFetcher()
        let push = InMemoryChangeSignalSource(current: .changed(version: "\"s0\""))
        fetcher.enqueue(.modifiedJSON(payload(retries: 1), etag: "\"s0\""))
        let client = try await pushClient(fetcher: fetcher, push: push)
        let hold = fetcher.enqueueHeld(.modifiedJSON(payload(retries: 2), etag: "\"s1\""))
        fetcher.enqueue(.modifiedJSON(payload(retries: 3), etag: "\"s2\""))
        let earlier = Task { try await client.refresh(force: true) }
        await hold.waitUntilReached()
        push.announce(version: "\"s2\"")
        await (try #require(client.pushReceivers[0])).waitUntilReceived(2)
        hold.release()
        _ = try await earlier.value
        try await settled(client, 2)
        #expect(fetcher.fetchCount == 3)
        #expect(client[Keys.retries] == 3)
    }

    @Test("a burst of signals during a fetch costs one more fetch, not one each")
    func burstIsCoalesced() async throws {
        let fetcher = ScriptedFetcher()
        let push = InMemoryChangeSignalSource(current: .changed(version: nil))
        let hold = fetcher.enqueueHeld(.modifiedJSON(payload(retries: 1), etag: "\"b0\""))
        fetcher.enqueue(.modifiedJSON(payload(retries: 9), etag: "\"b9\""))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).push(push).build()
        await hold.waitUntilReached()
        for index in 1...9 { push.announce(version: "\"b\(index)\"") }
        hold.release()
        try await settled(client, 10)
        #expect(fetcher.fetchCount == 2)
        #expect(client[Keys.retries] == 9)
    }

    @Test("a signal announcing the payload waiting to be applied does not replace it with a fetch")
    func announcementKeepsTheWaitingPayload() async throws {
        let fetcher = ScriptedFetcher()
        let push = InMemoryChangeSignalSource(current: .changed(version: nil))
        let hold = fetcher.enqueueHeld(.modifiedJSON(payload(retries: 1), etag: "\"c0\""))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).push(push).build()
        await hold.waitUntilReached()
        push.deliver(payloadSignal(payload(retries: 7), etag: "\"c1\""))
        push.announce(version: "c1")
        await (try #require(client.pushReceivers[0])).waitUntilReceived(3)
        hold.release()
        try await settled(client, 3)
        #expect(fetcher.fetchCount == 1)
        #expect(client[Keys.retries] == 7)
    }

    @Test("the minimum fetch interval does not delay a pushed change")
    func minimumIntervalDoesNotHoldAPush() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 4))
        let push = InMemoryChangeSignalSource()
        let client = try await pushClient(fetcher: fetcher, push: push) { $0.minimumFetchInterval(3600) }
        #expect(client.status.scheduler.hold == .minimumInterval)
        fetcher.serve(json: payload(retries: 8))
        push.announce(version: fetcher.currentETag)
        try await settled(client, 2)
        #expect(client[Keys.retries] == 8)
    }

    @Test("a failed push-started fetch keeps the last good state, and the next signal recovers")
    func failedFetchThenRecovery() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 4))
        let push = InMemoryChangeSignalSource()
        let client = try await pushClient(fetcher: fetcher, push: push)
        fetcher.serve(json: payload(retries: 6))
        fetcher.failNext(FetchError(.transport, retry: .backoff, message: "connection refused"))
        push.announce(version: fetcher.currentETag)
        try await settled(client, 2)
        #expect(client[Keys.retries] == 4)
        #expect(client.status.lastError != nil)
        push.announce(version: fetcher.currentETag)
        try await settled(client, 3)
        #expect(client[Keys.retries] == 6)
    }

    @Test("stopping the client closes its push subscriptions")
    func stopClosesSubscriptions() async throws {
        let push = InMemoryChangeSignalSource()
        let client = try await pushClient(fetcher: InMemoryFetcher(json: payload()), push: push)
        #expect(push.subscriberCount == 1)
        await client.stop()
        await push.waitUntilNoSubscribers()
        #expect(push.subscriberCount == 0)
    }

    @Test("a push source aimed at a named provider refreshes that provider only")
    func pushToNamedProvider() async throws {
        let main = InMemoryFetcher(json: payload(retries: 1))
        let experiments = InMemoryFetcher(json: #"{"max_retries": 7}"#)
        let push = InMemoryChangeSignalSource(current: .changed(version: nil))
        let client = try RemoteConfigBuilder.testing(fetcher: main, clock: ManualClock())
            .fetcher(experiments, name: "experiments", precedence: 10)
            .push(push, to: "experiments")
            .build()
        #expect(client.pushReceivers[0] == nil, "the builder's own fetcher has no push source")
        let receiver = try #require(client.pushReceivers[1])
        await receiver.waitUntilSettled(1)
        #expect(experiments.fetchCount == 1)
        #expect(main.fetchCount == 0)
        #expect(client[Keys.retries] == 7)

        var updates = client.activations().makeAsyncIterator()
        experiments.serve(json: #"{"max_retries": 9}"#)
        push.announce(version: experiments.currentETag)
        #expect(await updates.next()?.changedKeys == ["max_retries"])
        #expect(client[Keys.retries] == 9)
        #expect(experiments.fetchCount == 2)
        #expect(main.fetchCount == 0, "a signal for one provider fetches nothing from another")
        await client.stop()
    }

    @Test("a push source aimed at a provider no fetcher was added under is a typed build error naming the providers")
    func pushToUnknownProvider() throws {
        let builder = RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .fetcher(InMemoryFetcher(json: "{}"), name: "experiments", precedence: 10)
            .push(InMemoryChangeSignalSource(), to: "experiment")
        #expect {
            try builder.build()
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .unknownProvider && problem.message.contains("\"experiment\"")
                && problem.message.contains("\"experiments\"")
        }
    }

    @Test("a client without push sources has no receiver")
    func noPushNoReceiver() throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock()).build()
        #expect(client.pushReceivers[0] == nil)
    }
}
