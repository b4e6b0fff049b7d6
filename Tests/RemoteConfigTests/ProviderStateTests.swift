import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// A provider's state in OpenFeature's terms: READY, STALE, ERROR, RECONCILING (and NOT_READY before
/// anything is held), in the status and as one `stateChanged` event per transition.
@Suite("Provider states")
struct ProviderStateTests {
    /// The transitions the observer saw, in order.
    private func transitions(_ observer: RecordingObserver) -> [String] {
        observer.events.compactMap {
            if case .stateChanged(_, let from, let to, _) = $0 { "\(from)->\(to)" } else { nil }
        }
    }

    /// Waits for the transition `from` → `to`.
    private func waitForTransition(_ observer: RecordingObserver, _ from: ProviderState, _ to: ProviderState) async {
        _ = await observer.waitFor { event in
            if case .stateChanged(_, from, to, _) = event { true } else { false }
        }
    }

    @Test("a client is NOT_READY until its first refresh, then READY, with one event for the change")
    func notReadyThenReady() async throws {
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock())
            .observer(observer).build()
        #expect(client.status.state == .notReady)
        #expect(client.status.providers[0].stateReason == "nothing fetched or cached yet")
        try await client.refresh()
        #expect(client.status.state == .ready)
        _ = client.status  // reading the status again reports nothing new
        try await client.refresh(force: true)
        #expect(transitions(observer) == ["NOT_READY->READY"])
    }

    @Test("a failed first refresh is ERROR, with the error as the reason; the next good one is READY")
    func errorThenReady() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.failure(FetchError(.timeout, retry: .backoff, message: "timed out after 15 s")))
        fetcher.enqueue(.modifiedJSON(payload(), etag: "\"v1\""))
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        await #expect(throws: ConfigError.self) { try await client.refresh() }
        let provider = client.status.providers[0]
        #expect(provider.state == .error)
        #expect(provider.stateReason.contains("timed out after 15 s"), "\(provider.stateReason)")
        try await client.refresh(force: true)
        #expect(client.status.state == .ready)
        #expect(transitions(observer) == ["NOT_READY->ERROR", "ERROR->READY"])
    }

    @Test("a snapshot past its TTL is STALE; past its stale window with a failed refresh it is ERROR")
    func staleThenError() async throws {
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(.modifiedJSON(payload(), etag: "\"v1\""))
        fetcher.enqueue(.failure(FetchError(.transport, retry: .backoff, message: "connection refused")))
        let clock = ManualClock(now: epoch)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock).observer(observer).build()
        try await client.refresh()
        clock.advance(by: 3601)  // past the one-hour TTL
        #expect(client.status.state == .stale)
        #expect(client.status.providers[0].stateReason == "the snapshot is past its TTL")
        clock.advance(by: 86_400)  // past the one-day stale window: expired
        #expect(client.status.state == .stale)  // expired, but no refresh has failed yet
        await #expect(throws: ConfigError.self) { try await client.refresh(force: true) }
        #expect(client.status.state == .error)
        #expect(client.status.providers[0].stateReason.contains("connection refused"))
        #expect(client[Keys.retries] == 5)  // the freshness rules decide what is served, not the state
        #expect(transitions(observer) == ["NOT_READY->READY", "READY->STALE", "STALE->ERROR"])
    }

    @Test("a push source that goes down makes the provider STALE with its reason, and READY when it reconnects")
    func pushDownIsStale() async throws {
        let fetcher = InMemoryFetcher(json: payload())
        let push = InMemoryChangeSignalSource(name: "sse http://127.0.0.1:1/events")
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock())
            .observer(observer).push(push).build()
        try await client.refresh()
        await push.waitForSubscribers(count: 1)
        #expect(client.status.state == .ready)
        #expect(client.status.providers[0].stateReason == "a fresh snapshot is held and push is connected")

        push.report(.disconnected(reason: "connection reset", retryIn: 2))
        await waitForTransition(observer, .ready, .stale)
        let provider = client.status.providers[0]
        #expect(provider.state == .stale)
        #expect(provider.pushDown == ["sse http://127.0.0.1:1/events": "down: connection reset; reconnecting in 2.0 s"])
        #expect(
            provider.stateReason
                == "push source sse http://127.0.0.1:1/events is down: connection reset; reconnecting in 2.0 s; "
                + "polling, if on, still refreshes")
        push.report(.disconnected(reason: "connection refused", retryIn: 4))  // still down: no new transition
        push.report(.connected)
        await waitForTransition(observer, .stale, .ready)
        #expect(client.status.state == .ready)
        #expect(client.status.providers[0].pushDown.isEmpty)
        #expect(transitions(observer) == ["NOT_READY->READY", "READY->STALE", "STALE->READY"])
        let reasons = observer.events.compactMap { if case .stateChanged(_, _, _, let reason) = $0 { reason } else { nil } }
        #expect(reasons[1].contains("connection reset"))
    }

    @Test("a connection report is not a change: it fetches nothing and is never a subscriber's current state")
    func connectionIsNotAChange() async throws {
        let fetcher = InMemoryFetcher(json: payload())
        let push = InMemoryChangeSignalSource(current: .changed(version: "v9"))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).push(push).build()
        try await client.refresh()
        let fetches = fetcher.fetchCount
        push.report(.disconnected(reason: "stalled", retryIn: nil))
        #expect(push.current == .changed(version: "v9"))
        var late = push.signals().makeAsyncIterator()
        #expect(await late.next() == .changed(version: "v9"))
        #expect(fetcher.fetchCount == fetches)
        _ = client
    }

    @Test("the client's state is its providers' furthest from READY")
    func clientStateIsTheWorst() async throws {
        let good = InMemoryFetcher(json: #"{"a": 1}"#)
        let bad = ScriptedFetcher()
        bad.enqueue(.failure(FetchError(.transport, retry: .backoff, message: "connection refused")))
        let client = try RemoteConfigBuilder.testing(fetcher: good, clock: ManualClock())
            .fetcher(bad, name: "second", precedence: 10).build()
        _ = try? await client.refresh()
        let states = Dictionary(uniqueKeysWithValues: client.status.providers.map { ($0.name, $0.state) })
        #expect(states == ["default": .ready, "second": .error])
        #expect(client.status.state == .error)
    }

    @Test("severity orders the states from READY to ERROR")
    func severityOrder() {
        let ordered: [ProviderState] = [.ready, .stale, .reconciling, .notReady, .error]
        #expect(ordered.map(\.severity) == [0, 1, 2, 3, 4])
        #expect(ordered.map(\.description) == ["READY", "STALE", "RECONCILING", "NOT_READY", "ERROR"])
    }
}
