import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// What the client hands its `PayloadVerifier`, and when: the port's contract seen from the client,
/// with a verifier that records its calls and refuses what the test tells it to.
@Suite("The payload verifier port: every payload's bytes, before decoding, under its configuration's name")
struct PayloadVerifierTests {
    @Test(
        "a fetched payload reaches the verifier with its exact bytes, its metadata, the held snapshot and the configuration's name"
    )
    func fetchedPayload() async throws {
        let verifier = RecordingVerifier()
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock())
            .cache(InMemoryCache(), name: "app").verifyPayloads(with: verifier).build()
        _ = try await client.refresh()
        let first = try #require(verifier.calls.first)
        #expect(first.payload == Data(payload(retries: 8).utf8))
        #expect(first.metadata.source == "memory://config" && first.metadata.contentHash == ContentHash(of: first.payload))
        #expect(first.held == nil, "nothing was held yet")
        #expect(first.configurationName == "app")

        fetcher.serve(json: payload(retries: 9))
        _ = try await client.refresh(force: true)
        #expect(verifier.calls.count == 2)
        #expect(verifier.calls.last?.held == first.metadata, "the snapshot it would replace")
        #expect(client[Keys.retries] == 9)
    }

    @Test("a refused payload is never decoded: the refresh fails with the verifier's error and the last good values stay")
    func refusedBeforeDecoding() async throws {
        let verifier = RecordingVerifier()
        let fetcher = InMemoryFetcher(json: payload(retries: 8))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock())
            .verifyPayloads(with: verifier).build()
        _ = try await client.refresh()
        verifier.refuse { _ in true }
        fetcher.serve(json: "{not json")
        do throws(ConfigError) {
            _ = try await client.refresh(force: true)
            Issue.record("the refused payload must fail the refresh")
        } catch {
            // Bytes that do not even parse fail on the verifier: it runs first.
            #expect(error == .signature(RecordingVerifier.refusal))
        }
        #expect(client[Keys.retries] == 8)
        #expect(client.status.lastError == .signature(RecordingVerifier.refusal))
    }

    @Test("each provider's payloads are verified under its own name")
    func providerNames() async throws {
        let verifier = RecordingVerifier()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock())
            .fetcher(InMemoryFetcher(json: payload(retries: 1)), name: "experiments", precedence: 10)
            .verifyPayloads(with: verifier).build()
        _ = try await client.refresh()
        #expect(Set(verifier.calls.map(\.configurationName)) == ["default", "experiments"])
    }

    @Test(
        "at build, the cached payload is verified with nothing held; a refused one is an untrusted cache and defaults are served")
    func cachedPayload() async throws {
        let cache = InMemoryCache()
        let stored = cached(payload(retries: 2), fetchedAt: epoch)
        try await cache.store(stored, as: "default", slot: .active)
        let verifier = RecordingVerifier()
        verifier.refuse { _ in true }
        let observer = RecordingObserver()
        let client = try Self.client(over: cache, verifier: verifier, observer: observer)
        #expect(verifier.calls.map(\.payload) == [stored.payload])
        #expect(verifier.calls.first?.held == nil && verifier.calls.first?.metadata == stored.metadata)
        #expect(client[Keys.retries] == 3)
        guard case .unreadable(let error) = client.status.cache, case .untrusted(let refusal) = error.kind else {
            Issue.record("expected an untrusted cache, got \(client.status.cache)")
            return
        }
        #expect(refusal == RecordingVerifier.refusal)
        #expect(observer.events.contains(.cacheUnreadable(error)))
    }

    @Test("next-launch activation: the pending payload is verified in place of the active one, then promoted")
    func pendingVerifiedThenPromoted() async throws {
        let (cache, active, pending) = try await Self.cacheWithPending()
        let verifier = RecordingVerifier()
        let client = try Self.client(over: cache, verifier: verifier, activation: .nextLaunch)
        let pendingCall = try #require(verifier.calls.first { $0.payload == pending.payload })
        #expect(pendingCall.held == active.metadata, "the active snapshot is what the pending one replaces")
        #expect(client[Keys.retries] == 8)
        #expect(cache.snapshot("default", slot: .pending) == nil)
    }

    @Test("next-launch activation: a refused pending payload is discarded and reported, never promoted; the active values stay")
    func refusedPendingIsDiscarded() async throws {
        let (cache, active, pending) = try await Self.cacheWithPending()
        let verifier = RecordingVerifier()
        verifier.refuse { $0 == pending.payload }
        let observer = RecordingObserver()
        let client = try Self.client(over: cache, verifier: verifier, activation: .nextLaunch, observer: observer)
        #expect(client[Keys.retries] == 2, "the active values are served")
        #expect(client.status.cache == .inSync)
        #expect(cache.snapshot("default") == active)
        #expect(cache.snapshot("default", slot: .pending) == nil)
        #expect(cache.operations.contains("discard default") && !cache.operations.contains("promote default"))
        let reported = observer.events.contains { event in
            guard case .cacheUnreadable(let error) = event, case .untrusted(let refusal) = error.kind else { return false }
            return refusal == RecordingVerifier.refusal
                && error.message.hasPrefix("the pending payload for \"default\" was not activated")
        }
        #expect(reported, "\(observer.events)")
    }

    @Test("next-launch activation: an active payload the verifier refuses is no reference for the pending one")
    func refusedActiveIsNoReference() async throws {
        let (cache, active, pending) = try await Self.cacheWithPending()
        let verifier = RecordingVerifier()
        verifier.refuse { $0 == active.payload }
        let client = try Self.client(over: cache, verifier: verifier, activation: .nextLaunch)
        #expect(verifier.calls.first { $0.payload == pending.payload }?.held == nil)
        #expect(client[Keys.retries] == 8, "the pending payload that verifies replaces the refused active one")
    }

    /// A client built over `cache` that verifies with `verifier`.
    static func client(
        over cache: InMemoryCache, verifier: RecordingVerifier, activation: ActivationPolicy = .immediate,
        observer: RecordingObserver = RecordingObserver()
    ) throws -> RemoteConfigClient {
        try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: payload()), clock: ManualClock(), cache: cache)
            .activation(activation).observer(observer).verifyPayloads(with: verifier).build()
    }

    /// A cache holding an active payload (max_retries 2) and a pending one (max_retries 8).
    static func cacheWithPending() async throws -> (InMemoryCache, active: CachedSnapshot, pending: CachedSnapshot) {
        let cache = InMemoryCache()
        let active = cached(payload(retries: 2), fetchedAt: epoch)
        let pending = cached(payload(retries: 8), fetchedAt: epoch.addingTimeInterval(60), etag: "\"v2\"")
        try await cache.store(active, as: "default", slot: .active)
        try await cache.store(pending, as: "default", slot: .pending)
        return (cache, active, pending)
    }
}

/// A verifier that records every call and refuses the payloads its rule picks.
final class RecordingVerifier: PayloadVerifier {
    /// One call's arguments.
    struct Call: Sendable {
        let payload: Data
        let metadata: SnapshotMetadata
        let held: SnapshotMetadata?
        let configurationName: String
    }

    /// The error every refusal throws.
    static let refusal = SignatureError(.mismatch(keyID: "test"), "refused by the test's verifier")

    private let state = Locked<(calls: [Call], refuses: @Sendable (Data) -> Bool)>(([], { _ in false }))

    /// Every call so far, in order.
    var calls: [Call] { state.withLock { $0.calls } }

    /// Refuses from now on the payloads for which `rule` is true.
    func refuse(_ rule: @escaping @Sendable (Data) -> Bool) { state.withLock { $0.refuses = rule } }

    func verify(
        _ payload: Data, metadata: SnapshotMetadata, replacing held: SnapshotMetadata?, configurationName: String
    ) throws(SignatureError) -> PayloadVerification {
        let refused = state.withLock { state in
            state.calls.append(Call(payload: payload, metadata: metadata, held: held, configurationName: configurationName))
            return state.refuses(payload)
        }
        if refused { throw Self.refusal }
        return PayloadVerification()
    }
}
