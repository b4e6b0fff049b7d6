import ConfigDomain
import Foundation
import RemoteConfig
import TargetingFormat
import TestDoubles
import Testing

@Suite("Context changes")
struct ContextChangeTests {
    static let payload = #"""
        {
          "values": { "max_retries": 4 },
          "targeting": {
            "new_checkout": { "default": false, "rules": [ { "id": "pro", "when": { "plan": "pro" }, "value": true } ] },
            "banner": { "default": "guest", "rules": [ { "id": "signed-in", "when": { "targetingKey": { "$exists": true } }, "value": "member" } ] },
            "button_color": { "default": "blue", "rules": [ { "id": "de", "when": { "country": "DE" }, "value": "black" } ] }
          }
        }
        """#

    @Test("two users see different values")
    func twoUsers() async throws {
        let (alice, _) = try await targetingClient(
            Self.payload, context: EvaluationContext(targetingKey: "alice", attributes: ["plan": "pro"]))
        let (bob, _) = try await targetingClient(
            Self.payload, context: EvaluationContext(targetingKey: "bob", attributes: ["plan": "free"]))
        #expect(alice[TargetedKeys.checkout] == true)
        #expect(bob[TargetedKeys.checkout] == false)
    }

    @Test("login and logout update part of the context; the update names exactly the changed keys")
    func loginLogout() async throws {
        let (client, _) = try await targetingClient(Self.payload, context: EvaluationContext(attributes: ["country": "FR"]))
        var states = client.watch().makeAsyncIterator()
        #expect(await states.next()?.generation == client.status.generation, "the first view is the current state")
        #expect(client[TargetedKeys.banner] == "guest")

        let changed = client.updateContext { context in
            context.targetingKey = "u1"
            context.attributes["plan"] = "pro"
        }
        #expect(Set(changed) == ["banner", "new_checkout"])
        let login = await states.next()?.update
        #expect(login?.cause == .context)
        #expect(Set(login?.changedKeys ?? []) == ["banner", "new_checkout"])
        #expect(client[TargetedKeys.banner] == "member")
        #expect(client[TargetedKeys.checkout] == true)
        #expect(client[TargetedKeys.button] == "blue")
        #expect(client.context.attributes["country"] == "FR")

        client.updateContext { context in
            context.targetingKey = nil
            context.attributes["plan"] = nil
        }
        #expect(Set(await states.next()?.update?.changedKeys ?? []) == ["banner", "new_checkout"])
        #expect(client[TargetedKeys.banner] == "guest")
        #expect(client[TargetedKeys.retries] == 4)
    }

    @Test("replacing the whole context re-resolves; the same context again changes nothing and publishes nothing")
    func replace() async throws {
        let observer = RecordingObserver()
        let (client, _) = try await targetingClient(Self.payload, observer: observer)
        let generation = client.status.generation
        let changed = client.updateContext { $0 = EvaluationContext(targetingKey: "u2", attributes: ["country": "DE"]) }
        #expect(Set(changed) == ["banner", "button_color"])
        #expect(client[TargetedKeys.button] == "black")
        #expect(client.status.generation == generation + 1)
        #expect(client.updateContext { $0 = client.context } == [])
        #expect(client.status.generation == generation + 1)
        #expect(
            observer.events.contains(.activated(ConfigUpdate(changedKeys: changed, cause: .context, generation: generation + 1))))
    }

    @Test("a stopped client ignores context changes")
    func stopped() async throws {
        let (client, _) = try await targetingClient(Self.payload)
        await client.stop()
        #expect(client.updateContext { $0 = EvaluationContext(attributes: ["plan": "pro"]) } == [])
        #expect(client[TargetedKeys.checkout] == false)
        #expect(client.context == .empty)
    }

    @Test("a key without rules reads as before, and a context change never touches it")
    func keyWithoutRules() async throws {
        let (client, _) = try await targetingClient(Self.payload)
        let before = client.details(TargetedKeys.retries)
        client.updateContext { $0 = EvaluationContext(targetingKey: "u3", attributes: ["plan": "pro", "country": "DE"]) }
        #expect(client[TargetedKeys.retries] == 4)
        #expect(client.details(TargetedKeys.retries).decision == nil)
        #expect(client.details(TargetedKeys.retries).layer == before.layer)
    }

    @Test("the context set on the builder applies from the first read of a cached payload, before any fetch")
    func builderContextAppliesToTheCache() async throws {
        let bytes = Data(Self.payload.utf8)
        let cache = InMemoryCache()
        try await cache.store(
            CachedSnapshot(
                payload: bytes,
                metadata: SnapshotMetadata(
                    fetchedAt: Date(timeIntervalSince1970: 1_700_000_000), validators: Validators(),
                    contentHash: ContentHash(of: bytes),
                    source: "cache")),
            as: "default", slot: .active)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .clock(ManualClock())
            .cache(cache)
            .payloadFormat(TargetingJSONFormat())
            .context(EvaluationContext(targetingKey: "u4", attributes: ["plan": "pro"]))
            .register(TargetedKeys.all)
            .build()
        #expect(client[TargetedKeys.checkout] == true)
        #expect(client[TargetedKeys.banner] == "member")
    }

    @Test("a view taken before a context change keeps the old values; one taken after sees only the new ones")
    func consistentViews() async throws {
        let (client, _) = try await targetingClient(Self.payload)
        let before = client.view()
        client.updateContext { $0 = EvaluationContext(targetingKey: "u5", attributes: ["plan": "pro", "country": "DE"]) }
        let after = client.view()
        #expect(before[TargetedKeys.checkout] == false && before[TargetedKeys.button] == "blue")
        #expect(after[TargetedKeys.checkout] == true && after[TargetedKeys.button] == "black")
    }
}
