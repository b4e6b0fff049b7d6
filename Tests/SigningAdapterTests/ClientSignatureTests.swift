import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import SigningAdapter
import TestDoubles
import Testing

/// A client built with `verifyPayloads(with:)` and the real Ed25519 verifier: what it accepts,
/// what it refuses (before parsing, keeping the last good configuration), and how it reports it.
@Suite("A client that requires signatures")
struct ClientSignatureTests {
    static let flag = ConfigKey("new_checkout", default: false)
    static let retries = ConfigKey("max_retries", default: 3)

    static func json(flag: Bool, retries: Int = 3) -> Data {
        utf8(#"{"new_checkout":\#(flag),"max_retries":\#(retries)}"#)
    }

    /// A fetched payload with the signature text `signature`.
    static func fetched(_ bytes: Data, signature: String?, etag: String = "\"e\"") -> ScriptedFetcher.Step {
        .modified(
            FetchedPayload(
                bytes: bytes, validators: Validators(etag: etag), source: "https://cdn.test/config.json", signature: signature))
    }

    /// A signed payload step.
    static func signed(
        _ bytes: Data, version: UInt64, by signer: Ed25519Signer? = nil, etag: String = "\"e\""
    ) throws -> ScriptedFetcher.Step {
        fetched(bytes, signature: try (signer ?? TestKeys.current()).text(bytes, version: version), etag: etag)
    }

    /// The pieces of one test: fetcher, cache, observer, counting format, client.
    struct Harness {
        let fetcher = ScriptedFetcher()
        let cache: InMemoryCache
        let observer = RecordingObserver()
        let format = CountingFormat()
        let client: RemoteConfigClient

        init(
            cache: InMemoryCache = InMemoryCache(), name: String = "default", verifier: (any PayloadVerifier)? = nil,
            activation: ActivationPolicy = .immediate
        ) throws {
            self.cache = cache
            client = try RemoteConfigClient.builder(fetcher: fetcher)
                .clock(ManualClock())
                .cache(cache, name: name)
                .observer(observer)
                .payloadFormat(format)
                .activation(activation)
                .register(ClientSignatureTests.flag, ClientSignatureTests.retries)
                .verifyPayloads(with: try verifier ?? TestKeys.verifier())
                .build()
        }

        /// The refusal of a pending snapshot that `build()` reported, if any.
        var pendingRefusal: SignatureError? {
            observer.events.lazy.compactMap { event -> SignatureError? in
                guard case .cacheUnreadable(let error) = event, case .untrusted(let refusal) = error.kind,
                    error.message.hasPrefix("the pending payload for \"default\" was not activated")
                else { return nil }
                return refusal
            }.first
        }

        /// Refreshes (forced past any backoff) and returns the signature error it failed with.
        func refusal(sourceLocation: SourceLocation = #_sourceLocation) async -> SignatureError? {
            do throws(ConfigError) {
                let result = try await client.refresh(force: true)
                Issue.record("expected a signature refusal, got \(result)", sourceLocation: sourceLocation)
            } catch {
                if case .signature(let refusal) = error { return refusal }
                Issue.record("expected a signature refusal, got \(error)", sourceLocation: sourceLocation)
            }
            return nil
        }
    }

    // MARK: Accepted

    @Test("a signed payload is verified, activated, and cached with its signature")
    func acceptsSigned() async throws {
        let harness = try Harness()
        let bytes = Self.json(flag: true, retries: 7)
        let text = try TestKeys.current().text(bytes, version: 1)
        harness.fetcher.enqueue(Self.fetched(bytes, signature: text))
        #expect(Set(try await harness.client.refresh().changedKeys) == ["max_retries", "new_checkout"])
        #expect(harness.client[Self.flag] == true)
        #expect(harness.cache.snapshot("default")?.metadata.signature == text)
        #expect(harness.client.status.snapshot?.signature == text)
    }

    @Test("a payload signed with the previous key is accepted while both keys are trusted")
    func acceptsRotatedKey() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: true), version: 1, by: TestKeys.previous()))
        #expect(try await harness.client.refresh() == .updated(changedKeys: ["new_checkout"]))
    }

    @Test("signed configurations keep last good values in memory only: no unsigned record is written or read")
    func noUnsignedLastGoodRecord() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: true, retries: 5), version: 1))
        _ = try await harness.client.refresh()
        harness.fetcher.enqueue(try Self.signed(utf8(#"{"new_checkout":"yes","max_retries":6}"#), version: 2, etag: "\"f\""))
        _ = try await harness.client.refresh(force: true)
        #expect(harness.client[Self.flag] == true, "the rejected value falls back to the last good one")
        #expect(harness.cache.snapshot("default", slot: .lastGood) == nil)

        let relaunched = try Harness(cache: harness.cache)
        #expect(relaunched.client[Self.flag] == false, "the cached payload's value is rejected and no record is trusted")
        #expect(!harness.cache.operations.contains { $0.hasSuffix("/last-good") })
    }

    // MARK: Refused, before parsing, last good kept

    @Test("a tampered payload is refused before it is parsed; the last good configuration stays; an event reports it")
    func refusesTampered() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: false, retries: 5), version: 1))
        _ = try await harness.client.refresh()
        let decodes = harness.format.count

        let good = Self.json(flag: false, retries: 5)
        var tampered = Self.json(flag: true, retries: 5)
        tampered.append(contentsOf: [0x20])
        harness.fetcher.enqueue(Self.fetched(tampered, signature: try TestKeys.current().text(good, version: 2)))
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .mismatch(keyID: "prod-2026"))
        #expect(refusal.message.hasPrefix("the payload from https://cdn.test/config.json: its signature does not match"))
        #expect(harness.format.count == decodes, "the tampered bytes never reached the payload format")
        #expect(harness.client[Self.flag] == false && harness.client[Self.retries] == 5, "the last good values stay")
        #expect(harness.cache.snapshot("default")?.payload == good, "the cache keeps the last good payload")
        #expect(harness.client.status.lastError == .signature(refusal))
        #expect(!ConfigError.signature(refusal).isRetryable)
        #expect(harness.observer.events.contains(.refreshFailed(.signature(refusal))))
    }

    @Test("bytes that do not even parse, with a bad signature, fail on the signature: it is checked first")
    func signatureBeforeParsing() async throws {
        let harness = try Harness()
        let garbage = utf8("{not json")
        harness.fetcher.enqueue(Self.fetched(garbage, signature: try TestKeys.impostor().text(garbage, version: 1)))
        #expect(await harness.refusal()?.kind == .mismatch(keyID: "prod-2026"))
        #expect(harness.format.count == 0)
    }

    @Test("a payload without a signature is refused: signatures are required")
    func refusesUnsigned() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(Self.fetched(Self.json(flag: true), signature: nil))
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .missing)
        #expect(refusal.message.contains("carries no signature, and this client requires one"))
        #expect(refusal.message.contains("X-Config-Signature"))
        #expect(harness.client[Self.flag] == false)
        #expect(harness.format.count == 0)
    }

    @Test("a malformed signature is refused, saying what is wrong")
    func refusesMalformed() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(Self.fetched(Self.json(flag: true), signature: "keyid=prod-2026, sig=AAAA"))
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .malformed)
        #expect(refusal.message.contains("version is missing"))
        #expect(harness.format.count == 0)
    }

    @Test("a signature by an unknown key id is refused, naming it")
    func refusesUnknownKey() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: true), version: 1, by: TestKeys.stranger()))
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .unknownKey("stranger"))
        #expect(harness.client[Self.flag] == false)
    }

    @Test("a payload signed by another key under a trusted key id is refused")
    func refusesImpostor() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: true), version: 1, by: TestKeys.impostor()))
        #expect(await harness.refusal()?.kind == .mismatch(keyID: "prod-2026"))
    }

    @Test("flipping any one bit of the payload the client fetches: all refused, the last good values kept (exhaustive)")
    func everyBitThroughTheClient() async throws {
        let harness = try Harness()
        let good = utf8(#"{"new_checkout":false}"#)
        harness.fetcher.enqueue(try Self.signed(good, version: 1))
        _ = try await harness.client.refresh()
        let signature = try TestKeys.current().text(good, version: 2)
        var accepted: [Int] = []
        for bit in 0..<(good.count * 8) {
            var tampered = good
            tampered[bit / 8] ^= 1 << UInt8(bit % 8)
            harness.fetcher.enqueue(Self.fetched(tampered, signature: signature))
            do throws(ConfigError) {
                _ = try await harness.client.refresh(force: true)
                accepted.append(bit)
            } catch {
                if case .signature(let refusal) = error, refusal.kind == .mismatch(keyID: "prod-2026") { continue }
                accepted.append(bit)
            }
        }
        #expect(accepted.isEmpty, "bit flips not refused as mismatches: \(accepted)")
        #expect(harness.format.count == 1, "only the good payload was ever parsed")
        #expect(harness.client[Self.flag] == false)
    }

    // MARK: Replay

    @Test("an old payload, validly signed, is refused when replayed after a newer one")
    func refusesReplay() async throws {
        let harness = try Harness()
        let old = Self.json(flag: true)
        let oldStep = try Self.signed(old, version: 100)
        harness.fetcher.enqueue(oldStep)
        _ = try await harness.client.refresh()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: false), version: 200))
        _ = try await harness.client.refresh(force: true)
        #expect(harness.client[Self.flag] == false)

        harness.fetcher.enqueue(oldStep)
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .replayed(version: 100, lastAccepted: 200))
        #expect(refusal.message.contains("older than version 200"))
        #expect(refusal.message.contains("sign the current payload with a version above 200"))
        #expect(harness.client[Self.flag] == false, "the replayed value never applies")
    }

    @Test("other bytes under the version already accepted are refused too; a higher version is accepted")
    func sameVersionOtherBytes() async throws {
        let harness = try Harness()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: true), version: 5))
        _ = try await harness.client.refresh()
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: false), version: 5))
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .replayed(version: 5, lastAccepted: 5))
        #expect(refusal.message.contains("every new payload needs a new, higher version"))
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: false), version: 6))
        #expect(try await harness.client.refresh(force: true) == .updated(changedKeys: ["new_checkout"]))
    }

    @Test("the replay floor is kept with the cache: after a relaunch, an older payload is still refused")
    func replayFloorSurvivesRelaunch() async throws {
        let cache = InMemoryCache()
        let first = try Harness(cache: cache)
        first.fetcher.enqueue(try Self.signed(Self.json(flag: true), version: 50))
        _ = try await first.client.refresh()
        await first.client.stop()

        let relaunched = try Harness(cache: cache)
        #expect(relaunched.client[Self.flag] == true, "the cached payload verified at build")
        relaunched.fetcher.enqueue(try Self.signed(Self.json(flag: false), version: 49))
        #expect(await relaunched.refusal()?.kind == .replayed(version: 49, lastAccepted: 50))
    }

    @Test("a snapshot waiting for activation is the floor too")
    func pendingIsTheFloor() async throws {
        let harness = try Harness(activation: .manual)
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: true), version: 10))
        #expect(try await harness.client.refresh() == .pendingActivation(changedKeys: ["new_checkout"]))
        harness.fetcher.enqueue(try Self.signed(Self.json(flag: false, retries: 4), version: 9))
        #expect(await harness.refusal()?.kind == .replayed(version: 9, lastAccepted: 10))
    }

    @Test("the same bytes again renew the held snapshot and keep its verified signature, whatever signature comes with them")
    func sameBytesKeepTheVerifiedSignature() async throws {
        let harness = try Harness()
        let bytes = Self.json(flag: true)
        let text = try TestKeys.current().text(bytes, version: 3)
        harness.fetcher.enqueue(Self.fetched(bytes, signature: text))
        _ = try await harness.client.refresh()
        harness.fetcher.enqueue(Self.fetched(bytes, signature: "garbage", etag: "\"e2\""))
        #expect(try await harness.client.refresh(force: true) == .unchanged)
        #expect(harness.cache.snapshot("default")?.metadata.signature == text)
        #expect(harness.cache.snapshot("default")?.metadata.validators.etag == "\"e2\"")
    }

    // MARK: Cache at build

    @Test("a cached payload that verifies is used at build")
    func verifiedCacheLoads() async throws {
        let cache = InMemoryCache()
        try await cache.put(Self.json(flag: true), signature: TestKeys.current().text(Self.json(flag: true), version: 1))
        let harness = try Harness(cache: cache)
        #expect(harness.client[Self.flag] == true)
        #expect(harness.client.status.cache == .inSync)
    }

    @Test(
        "a cached payload altered on disk, unsigned, or signed by a key no longer trusted is refused at build: defaults, a typed report, an event",
        arguments: CacheTamper.allCases)
    func refusesCachedPayload(_ tamper: CacheTamper) async throws {
        let cache = InMemoryCache()
        let good = Self.json(flag: true, retries: 9)
        switch tamper {
        case .alteredBytes:
            // An attacker who rewrites the cache can recompute its checksums, but not the signature.
            try await cache.put(Self.json(flag: true, retries: 1), signature: TestKeys.current().text(good, version: 1))
        case .unsigned:
            try await cache.put(good, signature: nil)
        case .retiredKey:
            try await cache.put(good, signature: TestKeys.stranger().text(good, version: 1))
        case .malformed:
            try await cache.put(good, signature: "keyid=prod-2026")
        }
        let harness = try Harness(cache: cache)
        #expect(harness.client[Self.flag] == false && harness.client[Self.retries] == 3, "defaults, not the cached values")
        #expect(harness.format.count == 0, "the cached payload was never parsed")
        guard case .unreadable(let error) = harness.client.status.cache, case .untrusted(let refusal) = error.kind else {
            Issue.record("expected an untrusted cache, got \(harness.client.status.cache)")
            return
        }
        #expect(refusal.kind == tamper.expected)
        #expect(error.message.hasPrefix("the cached payload for \"default\" was not used: the payload from test-cache"))
        #expect(error.message.hasSuffix("serving defaults until a refresh brings a payload that verifies"))
        #expect(harness.observer.events.contains(.cacheUnreadable(error)))
    }

    // MARK: Next-launch activation

    @Test(
        "under next-launch activation, a pending snapshot rewritten in the cache is refused before it is promoted: discarded, reported, the active values kept",
        arguments: PendingTamper.allCases)
    func tamperedPendingIsNotPromoted(_ tamper: PendingTamper) async throws {
        let cache = InMemoryCache()
        let active = Self.json(flag: true, retries: 5)
        try await cache.put(active, signature: TestKeys.current().text(active, version: 20))
        let stored = Self.json(flag: false, retries: 0)
        switch tamper {
        case .alteredBytes:
            try await cache.put(stored, signature: TestKeys.current().text(Self.json(flag: false), version: 30), slot: .pending)
        case .olderSignedPayload:
            try await cache.put(stored, signature: TestKeys.current().text(stored, version: 10), slot: .pending)
        }

        let harness = try Harness(cache: cache, activation: .nextLaunch)
        #expect(harness.client[Self.flag] == true && harness.client[Self.retries] == 5, "the verified active values are served")
        #expect(harness.client.status.cache == .inSync)
        #expect(harness.cache.snapshot("default")?.payload == active)
        #expect(harness.cache.snapshot("default", slot: .pending) == nil, "the refused pending snapshot is discarded")
        #expect(harness.pendingRefusal?.kind == tamper.expected)
    }

    @Test("under next-launch activation, a pending snapshot that verifies is promoted; with no active one, it needs no floor")
    func verifiedPendingIsPromoted() async throws {
        let cache = InMemoryCache()
        let next = Self.json(flag: true, retries: 8)
        try await cache.put(next, signature: TestKeys.current().text(next, version: 30), slot: .pending)
        let harness = try Harness(cache: cache, activation: .nextLaunch)
        #expect(harness.client[Self.retries] == 8)
        #expect(harness.cache.snapshot("default")?.payload == next)
        #expect(harness.pendingRefusal == nil)
    }

    // MARK: The configuration's name

    @Test("a payload signed for another configuration is refused, naming both, fetched or cached")
    func otherConfigurationIsRefused() async throws {
        let bytes = Self.json(flag: true, retries: 9)
        let harness = try Harness(name: "pricing")
        harness.fetcher.enqueue(Self.fetched(bytes, signature: try TestKeys.current().text(bytes, version: 1, for: "checkout")))
        let refusal = try #require(await harness.refusal())
        #expect(refusal.kind == .wrongConfiguration(signedFor: "checkout", expected: "pricing"))
        #expect(refusal.message.contains("signed for the configuration \"checkout\", not \"pricing\""))
        #expect(refusal.message.contains("remote-config sign --name pricing"))
        #expect(harness.client[Self.retries] == 3)

        let cache = InMemoryCache()
        try await cache.put(bytes, signature: TestKeys.current().text(bytes, version: 1, for: "checkout"), as: "pricing")
        let relaunched = try Harness(cache: cache, name: "pricing")
        #expect(relaunched.client[Self.retries] == 3)
        guard case .unreadable(let error) = relaunched.client.status.cache, case .untrusted(let cached) = error.kind else {
            Issue.record("expected an untrusted cache, got \(relaunched.client.status.cache)")
            return
        }
        #expect(cached.kind == .wrongConfiguration(signedFor: "checkout", expected: "pricing"))
    }

    @Test("the name in the signature text cannot be relabelled: the signature covers it")
    func relabelledNameIsAMismatch() async throws {
        let bytes = Self.json(flag: true)
        var signature = try TestKeys.current().sign(bytes, version: 1, for: "checkout")
        signature.configurationName = "default"
        let harness = try Harness()
        harness.fetcher.enqueue(Self.fetched(bytes, signature: signature.text))
        #expect(await harness.refusal()?.kind == .mismatch(keyID: "prod-2026"))
    }

    // MARK: Without a verifier

    @Test("without verifyPayloads, signatures are not required, not checked, and still cached")
    func withoutVerifier() async throws {
        let fetcher = ScriptedFetcher()
        let cache = InMemoryCache()
        let client = try RemoteConfigClient.builder(fetcher: fetcher).clock(ManualClock()).cache(cache).register(Self.flag)
            .build()
        fetcher.enqueue(Self.fetched(Self.json(flag: true), signature: "anything"))
        #expect(try await client.refresh() == .updated(changedKeys: ["new_checkout"]))
        #expect(cache.snapshot("default")?.metadata.signature == "anything")
        fetcher.enqueue(Self.fetched(Self.json(flag: false), signature: nil))
        #expect(try await client.refresh(force: true) == .updated(changedKeys: ["new_checkout"]))
    }

    /// How someone who can write the cache rewrites the snapshot waiting for the next launch.
    enum PendingTamper: CaseIterable, Sendable, CustomStringConvertible {
        case alteredBytes, olderSignedPayload

        var expected: SignatureError.Kind {
            switch self {
            case .alteredBytes: .mismatch(keyID: "prod-2026")
            case .olderSignedPayload: .replayed(version: 10, lastAccepted: 20)
            }
        }

        var description: String {
            switch self {
            case .alteredBytes: "other bytes under a signature"
            case .olderSignedPayload: "an older, validly signed payload"
            }
        }
    }

    enum CacheTamper: CaseIterable, Sendable, CustomStringConvertible {
        case alteredBytes, unsigned, retiredKey, malformed

        var expected: SignatureError.Kind {
            switch self {
            case .alteredBytes: .mismatch(keyID: "prod-2026")
            case .unsigned: .missing
            case .retiredKey: .unknownKey("stranger")
            case .malformed: .malformed
            }
        }

        var description: String {
            switch self {
            case .alteredBytes: "payload altered on disk"
            case .unsigned: "unsigned"
            case .retiredKey: "signed by a key no longer trusted"
            case .malformed: "malformed signature"
            }
        }
    }
}

/// Plain JSON that counts its decodes, to show what was (not) parsed.
final class CountingFormat: PayloadFormat {
    private let decodes = Locked(0)

    var name: String { "json" }
    var count: Int { decodes.current }

    func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        decodes.withLock { $0 += 1 }
        return try PlainJSONFormat().decode(bytes)
    }
}

extension CachedSnapshot {
    /// Metadata for cached `bytes` with `signature`, as a cache would hold it.
    static func metadata(_ bytes: Data, signature: String?) -> SnapshotMetadata {
        SnapshotMetadata(
            fetchedAt: Date(timeIntervalSince1970: 1_700_000_000), validators: Validators(etag: "\"c\""),
            contentHash: ContentHash(of: bytes), source: "test-cache", signature: signature)
    }
}

extension InMemoryCache {
    /// Stores `bytes` with `signature` as `name`'s snapshot in `slot` (test setup before a build).
    func put(_ bytes: Data, signature: String?, as name: String = "default", slot: CacheSlot = .active) async throws {
        try await store(
            CachedSnapshot(payload: bytes, metadata: CachedSnapshot.metadata(bytes, signature: signature)), as: name, slot: slot)
    }
}
