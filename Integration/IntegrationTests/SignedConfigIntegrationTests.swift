import ConfigDomain
import ConfigPorts
import FileCacheAdapter
import FlyingFox
import Foundation
import HTTPAdapter
import RemoteConfig
import SigningAdapter
import TestDoubles
import TestSupport
import Testing

/// Signed configurations end to end with real parts: `HTTPFetcher` against a real HTTP server on
/// 127.0.0.1 (header and sidecar transports), `FileSnapshotCache` on the real file system, Ed25519.
@Suite("Signed configurations end to end: HTTP header and sidecar, file cache, tampering and replay")
struct SignedConfigIntegrationTests {
    static let flag = ConfigKey("new_checkout", default: false)
    static let retries = ConfigKey("max_retries", default: 3)

    /// The publisher's key, from a fixed seed so that failures repeat.
    static func signer() throws -> Ed25519Signer { try makeSigner("prod-2026", 11) }
    /// A key the client does not trust.
    static func stranger() throws -> Ed25519Signer { try makeSigner("other", 12) }

    static func makeSigner(_ keyID: String, _ seed: UInt8) throws -> Ed25519Signer {
        try Ed25519Signer(keyID: keyID, privateKey: Data(repeating: seed, count: 32))
    }

    static func json(flag: Bool, retries: Int) -> Data { Data(#"{"new_checkout":\#(flag),"max_retries":\#(retries)}"#.utf8) }

    /// What the scripted server serves: the payload, its ETag, the header and the sidecar text (nil: none).
    struct Published: Sendable {
        var body: Data
        var etag: String
        var header: String?
        var sidecar: String?
    }

    /// A server that serves `published` at /config.json (304 on a matching ETag) and its sidecar at /config.json.sig.
    static func serving(_ published: Locked<Published>) -> TestHTTPServer.Handler {
        { request in
            let current = published.current
            if request.path == "/config.json.sig" {
                guard let sidecar = current.sidecar else { return Reply.make(404, ["Content-Type": "text/plain"]) }
                return Reply.make(200, ["Content-Type": "application/octet-stream"], body: Data((sidecar + "\n").utf8))
            }
            if request.headers[HTTPHeader("If-None-Match")] == current.etag { return Reply.make(304, ["ETag": current.etag]) }
            var headers = ["Content-Type": "application/json", "ETag": current.etag]
            if let header = current.header { headers["X-Config-Signature"] = header }
            return Reply.make(200, headers, body: current.body)
        }
    }

    /// A published version signed at `version` for the configuration `name`, in both transports.
    static func signed(
        _ body: Data, version: UInt64, etag: String, by signer: Ed25519Signer? = nil, for name: String = "app"
    ) throws -> Published {
        let text = try (signer ?? Self.signer()).sign(body, configurationName: name, version: version).text
        return Published(body: body, etag: etag, header: text, sidecar: text)
    }

    func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rc-signed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    func makeClient(
        _ url: URL, _ directory: URL, transport: HTTPFetcher.SignatureTransport, verify: Bool = true,
        name: String = "app", activation: ActivationPolicy = .immediate, observer: RecordingObserver = RecordingObserver(),
        verifier: Ed25519Verifier? = nil, clock: ManualClock? = nil
    ) throws -> RemoteConfigClient {
        let fetcher = try HTTPFetcher(url: url, configuration: .init(timeout: 10, signatureTransport: transport))
        var builder = RemoteConfigClient.builder(fetcher: fetcher)
            .cache(FileSnapshotCache(directory: directory), name: name)
            .activation(activation)
            .observer(observer)
            .register(Self.flag, Self.retries)
        if let clock { builder = builder.clock(clock) }
        if verify {
            builder = builder.verifyPayloads(with: try verifier ?? Ed25519Verifier(trustedKeys: [Self.signer().publicKey]))
        }
        return try builder.build()
    }

    /// The signature error a forced refresh fails with, or nil (recording an issue).
    func refusal(_ client: RemoteConfigClient, sourceLocation: SourceLocation = #_sourceLocation) async -> SignatureError? {
        do throws(ConfigError) {
            let result = try await client.refresh(force: true)
            Issue.record("expected a signature refusal, got \(result)", sourceLocation: sourceLocation)
        } catch {
            if case .signature(let refusal) = error { return refusal }
            Issue.record("expected a signature refusal, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test(
        "accepted, tampered on the server and refused (last good kept, cache untouched), 304 keeps the verified signature, relaunch verifies the cache",
        arguments: [HTTPFetcher.SignatureTransport.header, .sidecarFile])
    func endToEnd(transport: HTTPFetcher.SignatureTransport) async throws {
        let good = Self.json(flag: true, retries: 5)
        let published = Locked(try Self.signed(good, version: 1_000, etag: "\"v1\""))
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                let client = try makeClient(server.url(), directory, transport: transport)
                #expect(Set(try await client.refresh().changedKeys) == ["new_checkout", "max_retries"])
                #expect(client[Self.flag] == true && client[Self.retries] == 5)
                let cache = FileSnapshotCache(directory: directory)
                let stored = try #require(cache.load("app", slot: .active).snapshot)
                #expect(stored.payload == good)
                #expect(stored.metadata.signature == published.current.header, "the signature is cached with the payload")

                // The bucket is compromised: other bytes, the old signature, a new ETag.
                published.withLock {
                    $0.body = Self.json(flag: false, retries: 0); $0.etag = "\"evil\""
                }
                let refusal = try #require(await refusal(client))
                #expect(refusal.kind == .mismatch(keyID: "prod-2026"))
                #expect(client[Self.flag] == true && client[Self.retries] == 5, "the last good values stay")
                #expect(cache.load("app", slot: .active).snapshot?.payload == good, "the cache keeps the last good payload")

                // The real publisher fixes it; a 304 after that fetches no new signature and keeps the verified one.
                let fixed = try Self.signed(Self.json(flag: false, retries: 7), version: 2_000, etag: "\"v2\"")
                published.withLock { $0 = fixed }
                #expect(Set(try await client.refresh(force: true).changedKeys) == ["new_checkout", "max_retries"])
                let before = server.requests.count
                #expect(try await client.refresh(force: true) == .unchanged)
                #expect(server.requests.count == before + 1, "a 304 fetches no signature file")
                #expect(client.status.snapshot?.signature == published.current.header)
                await client.stop()

                // Relaunch: the cached payload is verified again, offline.
                await server.stop()
                let relaunched = try makeClient(server.url(), directory, transport: transport)
                #expect(relaunched[Self.retries] == 7)
                #expect(relaunched.status.cache == .inSync)
                await relaunched.stop()
            }
        }
    }

    @Test("sidecar deploy race: the new payload with the old .sig is refused, and the next refresh heals once the .sig is up")
    func sidecarDeployRace() async throws {
        let published = Locked(try Self.signed(Self.json(flag: false, retries: 1), version: 1, etag: "\"v1\""))
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                let client = try makeClient(server.url(), directory, transport: .sidecarFile)
                _ = try await client.refresh()
                let next = try Self.signed(Self.json(flag: true, retries: 2), version: 2, etag: "\"v2\"")
                published.withLock {
                    $0.body = next.body; $0.etag = next.etag
                }  // payload uploaded, .sig not yet
                #expect(await refusal(client)?.kind == .mismatch(keyID: "prod-2026"))
                #expect(client[Self.flag] == false)
                published.withLock { $0.sidecar = next.sidecar }
                #expect(try await client.refresh(force: true).changedKeys.contains("new_checkout"))
                #expect(client[Self.flag] == true && client[Self.retries] == 2)
                await client.stop()
            }
        }
    }

    @Test(
        "missing signature where required (no header, or a 404 .sig), and a key the client does not trust",
        arguments: [HTTPFetcher.SignatureTransport.header, .sidecarFile])
    func missingAndUnknown(transport: HTTPFetcher.SignatureTransport) async throws {
        let body = Self.json(flag: true, retries: 4)
        let published = Locked(Published(body: body, etag: "\"v1\"", header: nil, sidecar: nil))
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                let client = try makeClient(server.url(), directory, transport: transport)
                let missing = try #require(await refusal(client))
                #expect(missing.kind == .missing)
                #expect(missing.message.contains(server.url().absoluteString))
                let foreign = try Self.signed(body, version: 1, etag: "\"v1\"", by: Self.stranger())
                published.withLock { $0 = foreign }
                #expect(await refusal(client)?.kind == .unknownKey("other"))
                #expect(client[Self.flag] == false, "nothing was accepted: the defaults stay")
                #expect(FileSnapshotCache(directory: directory).load("app", slot: .active) == .miss, "nothing was cached")
                await client.stop()
            }
        }
    }

    @Test("an old payload, validly signed, replayed by the server after a newer one, is refused")
    func replayOverHTTP() async throws {
        let old = try Self.signed(Self.json(flag: true, retries: 1), version: 100, etag: "\"old\"")
        let published = Locked(old)
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                let client = try makeClient(server.url(), directory, transport: .header)
                _ = try await client.refresh()
                let newer = try Self.signed(Self.json(flag: false, retries: 2), version: 200, etag: "\"new\"")
                published.withLock { $0 = newer }
                _ = try await client.refresh(force: true)
                published.withLock { $0 = old }
                #expect(await refusal(client)?.kind == .replayed(version: 100, lastAccepted: 200))
                #expect(client[Self.flag] == false && client[Self.retries] == 2)
                await client.stop()

                // After a relaunch the floor still holds: it is in the cache's metadata.
                let relaunched = try makeClient(server.url(), directory, transport: .header)
                #expect(await refusal(relaunched)?.kind == .replayed(version: 100, lastAccepted: 200))
                await relaunched.stop()
            }
        }
    }

    @Test("a cache file rewritten with other bytes (its checksums recomputed) is refused at build; an unsigned one too")
    func tamperedDiskCache() async throws {
        let good = Self.json(flag: true, retries: 5)
        let published = Locked(try Self.signed(good, version: 1, etag: "\"v1\""))
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                let first = try makeClient(server.url(), directory, transport: .header)
                _ = try await first.refresh()
                await first.stop()

                // Someone with write access to the app's files stores a valid cache file around other bytes.
                let cache = FileSnapshotCache(directory: directory)
                var snapshot = try #require(cache.load("app", slot: .active).snapshot)
                snapshot.payload = Self.json(flag: false, retries: 9)
                snapshot.metadata.contentHash = ContentHash(of: snapshot.payload)
                try await cache.store(snapshot, as: "app", slot: .active)
                #expect(cache.load("app", slot: .active).snapshot?.payload == snapshot.payload, "the cache itself accepts it")

                let observer = RecordingObserver()
                let relaunched = try makeClient(server.url(), directory, transport: .header, observer: observer)
                #expect(relaunched[Self.flag] == false && relaunched[Self.retries] == 3, "defaults, not the altered values")
                guard case .unreadable(let error) = relaunched.status.cache, case .untrusted(let refusal) = error.kind else {
                    Issue.record("expected an untrusted cache, got \(relaunched.status.cache)")
                    return
                }
                #expect(refusal.kind == .mismatch(keyID: "prod-2026"))
                #expect(observer.events.contains(.cacheUnreadable(error)))
                // The next refresh brings the signed payload back.
                #expect(try await relaunched.refresh(force: true).changedKeys.contains("max_retries"))
                #expect(relaunched[Self.retries] == 5)
                await relaunched.stop()

                // A cache written by an app that did not verify (unsigned payload) is refused by one that does.
                published.withLock {
                    $0 = Published(body: Self.json(flag: true, retries: 6), etag: "\"unsigned\"", header: nil, sidecar: nil)
                }
                let unverified = try makeClient(server.url(), directory, transport: .header, verify: false)
                _ = try await unverified.refresh(force: true)
                await unverified.stop()
                let strict = try makeClient(server.url(), directory, transport: .header)
                guard case .unreadable(let unsigned) = strict.status.cache, case .untrusted(let missing) = unsigned.kind else {
                    Issue.record("expected an untrusted cache, got \(strict.status.cache)")
                    return
                }
                #expect(missing.kind == .missing)
                await strict.stop()
            }
        }
    }

    /// How someone who can write the app's files rewrites the snapshot waiting for the next launch.
    enum PendingTamper: CaseIterable, Sendable, CustomStringConvertible {
        /// Other bytes under the signature that came with the real ones (checksums recomputed).
        case alteredBytes
        /// An older payload with its own valid signature: a rollback.
        case olderSignedPayload

        var description: String {
            switch self {
            case .alteredBytes: "other bytes under the fetched signature"
            case .olderSignedPayload: "an older, validly signed payload"
            }
        }
    }

    @Test(
        "next-launch activation: a pending snapshot rewritten on disk is refused before it is promoted; the verified active values stay",
        arguments: PendingTamper.allCases)
    func tamperedPendingKeepsTheActiveSnapshot(_ tamper: PendingTamper) async throws {
        let active = Self.json(flag: true, retries: 5)
        let published = Locked(try Self.signed(active, version: 1_000, etag: "\"v1\""))
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                // The first launch fetches v1 for the next one, which activates it and fetches v2 for the one after.
                let first = try makeClient(server.url(), directory, transport: .header, activation: .nextLaunch)
                _ = try await first.refresh()
                await first.stop()
                let second = try makeClient(server.url(), directory, transport: .header, activation: .nextLaunch)
                #expect(second[Self.flag] == true && second[Self.retries] == 5)
                let next = try Self.signed(Self.json(flag: false, retries: 7), version: 2_000, etag: "\"v2\"")
                published.withLock { $0 = next }
                #expect(try await second.refresh() == .pendingActivation(changedKeys: ["new_checkout", "max_retries"]))
                await second.stop()

                let cache = FileSnapshotCache(directory: directory)
                var pending = try #require(cache.load("app", slot: .pending).snapshot)
                switch tamper {
                case .alteredBytes:
                    pending.payload = Self.json(flag: false, retries: 0)
                case .olderSignedPayload:
                    let old = Self.json(flag: false, retries: 1)
                    pending.payload = old
                    pending.metadata.signature = try Self.signer().sign(old, configurationName: "app", version: 500).text
                }
                pending.metadata.contentHash = ContentHash(of: pending.payload)
                try await cache.store(pending, as: "app", slot: .pending)

                await server.stop()
                let observer = RecordingObserver()
                let relaunched = try makeClient(
                    server.url(), directory, transport: .header, activation: .nextLaunch, observer: observer)
                #expect(relaunched[Self.flag] == true && relaunched[Self.retries] == 5, "the verified active values are served")
                #expect(relaunched.status.cache == .inSync)
                #expect(cache.load("app", slot: .active).snapshot?.payload == active, "the active file is untouched")
                #expect(cache.load("app", slot: .pending) == .miss, "the refused pending snapshot is gone")
                let refusal = observer.events.lazy.compactMap { event -> SignatureError? in
                    guard case .cacheUnreadable(let error) = event, case .untrusted(let refusal) = error.kind else { return nil }
                    return refusal
                }.first
                switch tamper {
                case .alteredBytes: #expect(refusal?.kind == .mismatch(keyID: "prod-2026"))
                case .olderSignedPayload: #expect(refusal?.kind == .replayed(version: 500, lastAccepted: 1_000))
                }
                let quarantined = try FileManager.default.contentsOfDirectory(
                    atPath: directory.appendingPathComponent("quarantine").path)
                #expect(quarantined.count == 1, "the refused file is kept aside for inspection: \(quarantined)")
                await relaunched.stop()
            }
        }
    }

    @Test("a payload signed for one configuration is refused as another's: fetched, or copied into its cache file")
    func signatureNamesItsConfiguration() async throws {
        let checkout = Self.json(flag: true, retries: 9)
        let published = Locked(try Self.signed(checkout, version: 1, etag: "\"c1\"", for: "checkout"))
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                // The server answers checkout's signed payload where the "pricing" configuration is fetched.
                let pricing = try makeClient(server.url(), directory, transport: .header, name: "pricing")
                let fetched = try #require(await refusal(pricing))
                #expect(fetched.kind == .wrongConfiguration(signedFor: "checkout", expected: "pricing"))
                #expect(fetched.message.contains("signed for the configuration \"checkout\", not \"pricing\""))
                #expect(pricing[Self.retries] == 3)
                await pricing.stop()

                // Someone with write access copies checkout's cached snapshot, signature and all, into pricing's file.
                let owner = try makeClient(server.url(), directory, transport: .header, name: "checkout")
                _ = try await owner.refresh()
                #expect(owner[Self.retries] == 9)
                await owner.stop()
                let cache = FileSnapshotCache(directory: directory)
                let copied = try #require(cache.load("checkout", slot: .active).snapshot)
                try await cache.store(copied, as: "pricing", slot: .active)

                let relaunched = try makeClient(server.url(), directory, transport: .header, name: "pricing")
                #expect(relaunched[Self.retries] == 3, "defaults, not checkout's values")
                guard case .unreadable(let error) = relaunched.status.cache, case .untrusted(let cached) = error.kind else {
                    Issue.record("expected an untrusted cache, got \(relaunched.status.cache)")
                    return
                }
                #expect(cached.kind == .wrongConfiguration(signedFor: "checkout", expected: "pricing"))
                await relaunched.stop()
            }
        }
    }

    @Test(
        "2-of-3 signatures with an expiry, on the file cache: a relaunch keeps the expiry, refuses a rollback and a payload with too few signatures"
    )
    func expiryAndRollbackAcrossRelaunch() async throws {
        let signers = try [("ops-a", 21), ("ops-b", 22), ("ops-c", 23)].map { try Self.makeSigner($0.0, UInt8($0.1)) }
        let keySet = try KeySet(version: 1, threshold: 2, keys: signers.map(\.publicKey))
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let expiry = start.addingTimeInterval(3600)
        func publication(_ body: Data, version: UInt64, etag: String, by keys: [Ed25519Signer]) throws -> Published {
            let text = PayloadSignature.text(
                of: try keys.map { try $0.sign(body, configurationName: "app", version: version, expiresAt: expiry) })
            return Published(body: body, etag: etag, header: text, sidecar: text)
        }
        let old = try publication(Self.json(flag: true, retries: 1), version: 10, etag: "\"v1\"", by: [signers[0], signers[1]])
        let published = Locked(old)
        try await TestHTTPServer.with(Self.serving(published)) { server in
            try await withDirectory { directory in
                let clock = ManualClock(now: start)
                func client() throws -> RemoteConfigClient {
                    let ring = KeyRing(root: keySet, storedAt: directory.appendingPathComponent("keysets.json"))
                    return try makeClient(
                        server.url(), directory, transport: .header, verifier: Ed25519Verifier(keyRing: ring), clock: clock)
                }
                let first = try client()
                _ = try await first.refresh()
                let newer = try publication(
                    Self.json(flag: false, retries: 2), version: 20, etag: "\"v2\"", by: [signers[1], signers[2]])
                published.withLock { $0 = newer }
                _ = try await first.refresh(force: true)
                #expect(first[Self.retries] == 2)
                #expect(first.status.freshness == .fresh)
                await first.stop()

                // A day later the server (or a CDN in front of it) serves the older signed payload again.
                published.withLock { $0 = old }
                clock.advance(by: 86_400)
                let relaunched = try client()
                #expect(relaunched[Self.retries] == 2, "the newer payload, from the cache on disk")
                #expect(relaunched.status.snapshot?.signedExpiresAt == expiry, "the expiry comes back with the cached signature")
                #expect(relaunched.status.freshness == .expired)
                #expect(relaunched.status.providers[0].stateReason == "the signed expiry passed at 2023-11-14T23:13:20Z")
                #expect(await refusal(relaunched)?.kind == .replayed(version: 10, lastAccepted: 20))
                #expect(relaunched[Self.retries] == 2, "the rollback never applies")

                let underSigned = try publication(
                    Self.json(flag: true, retries: 3), version: 30, etag: "\"v3\"", by: [signers[2]])
                published.withLock { $0 = underSigned }
                let refused = try #require(await refusal(relaunched))
                #expect(refused.kind == .tooFewSignatures(valid: 1, threshold: 2))
                #expect(
                    refused.message.contains("signed by 1 of the trusted keys (ops-a, ops-b, ops-c), and this client requires 2"))
                #expect(relaunched[Self.retries] == 2)
                await relaunched.stop()
            }
        }
    }
}
