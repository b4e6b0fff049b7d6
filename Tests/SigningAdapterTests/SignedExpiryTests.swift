import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import SigningAdapter
import TestDoubles
import Testing

/// A payload's signed expiry, seen from the client on the test clock: the verifier returns it, the
/// client keeps it with the snapshot, and the freshness rules count the snapshot expired from then on.
@Suite("Signed expiry: a payload past it counts as expired, whatever its fetch time")
struct SignedExpiryTests {
    static let flag = ConfigKey("new_checkout", default: false)
    static let bytes = utf8(#"{"new_checkout":true}"#)
    /// The test clock's start, 2023-11-14T22:13:20Z.
    static let start = Date(timeIntervalSince1970: 1_700_000_000)
    /// Ten minutes after the start: the expiry most tests sign.
    static let tenMinutesIn = start.addingTimeInterval(600)

    /// The signature text of `bytes` at `version`, expiring at `expiresAt`.
    static func signature(_ bytes: Data = bytes, version: UInt64, expiresAt: Date?) throws -> String {
        try TestKeys.current().sign(bytes, configurationName: "default", version: version, expiresAt: expiresAt).text
    }

    /// A fetched payload step.
    static func fetched(_ bytes: Data = bytes, signature: String?, etag: String = "\"e\"") -> ScriptedFetcher.Step {
        .modified(
            FetchedPayload(
                bytes: bytes, validators: Validators(etag: etag), source: "https://cdn.test/c.json", signature: signature))
    }

    /// A client on a test clock, with a one-hour TTL and a one-day stale window.
    struct Harness {
        let clock: ManualClock
        let fetcher = ScriptedFetcher()
        let cache: InMemoryCache
        let observer = RecordingObserver()
        let client: RemoteConfigClient

        init(
            clock: ManualClock = ManualClock(now: SignedExpiryTests.start), cache: InMemoryCache = InMemoryCache(),
            freshness: FreshnessPolicy = FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)), verifies: Bool = true
        ) throws {
            self.clock = clock
            self.cache = cache
            var builder = RemoteConfigClient.builder(fetcher: fetcher)
                .clock(clock).cache(cache).observer(observer).freshness(freshness).register(SignedExpiryTests.flag)
            if verifies { builder = builder.verifyPayloads(with: try TestKeys.verifier()) }
            client = try builder.build()
        }

        /// Why the provider is in its state now.
        var reason: String { client.status.providers[0].stateReason }
    }

    @Test("before its signed expiry, a payload is accepted, fresh and served; the expiry is kept with the snapshot")
    func acceptedBeforeExpiry() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(Self.fetched(signature: try Self.signature(version: 1, expiresAt: Self.tenMinutesIn)))
        #expect(try await harness.client.refresh() == .updated(changedKeys: ["new_checkout"]))
        #expect(harness.client.status.snapshot?.signedExpiresAt == Self.tenMinutesIn)
        harness.clock.advance(by: 599)
        #expect(harness.client.status.freshness == .fresh)
        #expect(harness.client.status.state == .ready)
        #expect(harness.client.details(Self.flag).freshness == .fresh)
        #expect(await harness.client.fetch(.cacheOnly)[Self.flag] == true)
        await harness.client.stop()
    }

    @Test(
        "past its signed expiry, the same payload is expired an hour before its TTL: cache-only reads get the default, the state says why"
    )
    func expiredAfterExpiry() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(Self.fetched(signature: try Self.signature(version: 1, expiresAt: Self.tenMinutesIn)))
        _ = try await harness.client.refresh()
        harness.clock.advance(by: 600)
        #expect(harness.client.status.freshness == .expired, "ten minutes after the fetch, well inside the one-hour TTL")
        #expect(harness.client.details(Self.flag).freshness == .expired)
        #expect(await harness.client.fetch(.cacheOnly)[Self.flag] == false, "an expired snapshot is not served cache-only")
        #expect(
            harness.client[Self.flag] == true,
            "an immediate read serves what is held, whatever its age, as for any expired snapshot")
        #expect(harness.client.status.state == .stale)
        #expect(harness.reason == "the signed expiry passed at 2023-11-14T22:23:20Z")
        #expect(
            harness.observer.events.contains(
                .stateChanged(
                    provider: "default", from: .ready, to: .stale, reason: "the signed expiry passed at 2023-11-14T22:23:20Z")))

        // The CDN keeps serving the same signed bytes (a freeze): nothing new is accepted, it stays expired.
        harness.fetcher.enqueue(Self.fetched(signature: try Self.signature(version: 1, expiresAt: Self.tenMinutesIn)))
        #expect(try await harness.client.refresh(force: true) == .unchanged)
        #expect(harness.client.status.freshness == .expired, "a renewal of the same bytes does not outlive the signed expiry")
        harness.fetcher.enqueue(.failure(FetchError(.transport, retry: .backoff, message: "offline")))
        _ = try? await harness.client.refresh(force: true)
        #expect(harness.client.status.state == .error)
        #expect(harness.reason.hasPrefix("the signed expiry passed at 2023-11-14T22:23:20Z and the last refresh failed: "))
        await harness.client.stop()
    }

    @Test("a newer payload with a later expiry makes the configuration current again")
    func newerPayloadRenews() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(Self.fetched(signature: try Self.signature(version: 1, expiresAt: Self.tenMinutesIn)))
        _ = try await harness.client.refresh()
        harness.clock.advance(by: 900)
        let later = Self.start.addingTimeInterval(7 * 86_400)
        let next = utf8(#"{"new_checkout":false}"#)
        harness.fetcher.enqueue(
            Self.fetched(next, signature: try Self.signature(next, version: 2, expiresAt: later), etag: "\"f\""))
        _ = try await harness.client.refresh(force: true)
        #expect(harness.client.status.freshness == .fresh)
        #expect(harness.client.status.snapshot?.signedExpiresAt == later)
        #expect(harness.client.status.state == .ready)
        await harness.client.stop()
    }

    @Test("the earlier of the two expires it: a TTL that ends first expires it with the usual reason")
    func earlierOfTTLAndSignedExpiry() async throws {
        let harness = try Harness(freshness: FreshnessPolicy(ttl: 60, maxStale: .none))
        let far = Self.start.addingTimeInterval(30 * 86_400)
        harness.fetcher.enqueue(Self.fetched(signature: try Self.signature(version: 1, expiresAt: far)))
        _ = try await harness.client.refresh()
        harness.clock.advance(by: 60)
        #expect(harness.client.status.freshness == .expired)
        #expect(harness.reason == "the snapshot has expired")
        await harness.client.stop()

        let policy = FreshnessPolicy(ttl: 60, maxStale: .seconds(60))
        let metadata = SnapshotMetadata(
            fetchedAt: Self.start, contentHash: ContentHash(of: Self.bytes), source: "t", signedExpiresAt: far)
        #expect(policy.expiresAt(of: metadata) == Self.start.addingTimeInterval(120))
        var early = metadata
        early.signedExpiresAt = Self.start.addingTimeInterval(30)
        #expect(policy.expiresAt(of: early) == Self.start.addingTimeInterval(30))
        #expect(FreshnessPolicy(ttl: 60, maxStale: .unlimited).expiresAt(of: early) == Self.start.addingTimeInterval(30))
        #expect(policy.expiryReason(of: early, now: Self.start.addingTimeInterval(29)) == nil)
    }

    @Test("a relaunch gets the expiry back from the cached signature, and a cache that claims a later one cannot extend it")
    func relaunchKeepsTheExpiry() async throws {
        let clock = ManualClock(now: Self.start)
        let first = try Harness(clock: clock)
        let text = try Self.signature(version: 1, expiresAt: Self.tenMinutesIn)
        first.fetcher.enqueue(Self.fetched(signature: text))
        _ = try await first.client.refresh()
        await first.client.stop()

        // Someone rewrites the cached metadata to a later expiry; only the signature is trusted.
        var stored = try #require(first.cache.snapshot("default"))
        stored.metadata.signedExpiresAt = Self.start.addingTimeInterval(365 * 86_400)
        try await first.cache.store(stored, as: "default", slot: .active)

        clock.advance(by: 601)
        let relaunched = try Harness(clock: clock, cache: first.cache)
        #expect(relaunched.client.status.cache == .inSync, "the cached payload still verifies")
        #expect(relaunched.client.status.snapshot?.signedExpiresAt == Self.tenMinutesIn)
        #expect(relaunched.client.status.freshness == .expired)
        #expect(relaunched.observer.events.contains(.cacheLoaded(name: "default", fetchedAt: Self.start, freshness: .expired)))
        #expect(await relaunched.client.fetch(.cacheOnly)[Self.flag] == false)
        await relaunched.client.stop()
    }

    @Test("without a verifier nothing is vouched for: no signed expiry is kept, whatever a cache holds")
    func noVerifierNoExpiry() async throws {
        let cache = InMemoryCache()
        var metadata = CachedSnapshot.metadata(
            Self.bytes, signature: try Self.signature(version: 1, expiresAt: Self.tenMinutesIn))
        metadata.fetchedAt = Self.start
        metadata.signedExpiresAt = Self.tenMinutesIn
        try await cache.store(CachedSnapshot(payload: Self.bytes, metadata: metadata), as: "default", slot: .active)
        let harness = try Harness(cache: cache, verifies: false)
        harness.clock.advance(by: 601)
        #expect(harness.client.status.snapshot?.signedExpiresAt == nil)
        #expect(harness.client.status.freshness == .fresh)
        await harness.client.stop()
    }

    @Test("the verifier returns the signed expiry, or none for a signature without one")
    func verifierReturnsTheExpiry() throws {
        let verifier = try TestKeys.verifier()
        func verify(_ signature: String) throws(SignatureError) -> PayloadVerification {
            try verifier.verify(
                Self.bytes, metadata: CachedSnapshot.metadata(Self.bytes, signature: signature), replacing: nil,
                configurationName: "default")
        }
        #expect(
            try verify(Self.signature(version: 1, expiresAt: Self.tenMinutesIn))
                == PayloadVerification(expiresAt: Self.tenMinutesIn))
        #expect(try verify(Self.signature(version: 1, expiresAt: nil)) == PayloadVerification())
        #expect(
            try verify(Self.signature(version: 1, expiresAt: Self.start.addingTimeInterval(-1))).expiresAt != nil,
            "a past expiry is not a refusal")
    }

    @Test("the expiry is signed: moving it in the signature text is a mismatch, as is removing it")
    func expiryIsSigned() throws {
        let verifier = try TestKeys.verifier()
        let signed = try TestKeys.current().sign(
            Self.bytes, configurationName: "default", version: 1, expiresAt: Self.tenMinutesIn)
        for moved in [Self.tenMinutesIn.addingTimeInterval(86_400), nil] {
            var signature = signed
            signature.expiresAt = moved
            do throws(SignatureError) {
                try verifier.check(Self.bytes, signature: signature)
                Issue.record("a signature whose expiry was changed to \(String(describing: moved)) must be refused")
            } catch {
                #expect(error.kind == .mismatch(keyID: "prod-2026"))
            }
        }
    }
}
