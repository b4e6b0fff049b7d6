import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// The client as a `ResolvedConfiguration`: what bridges to other configuration APIs read.
@Suite("Client as a resolved configuration")
struct ResolvedConfigurationTests {
    static let token = ConfigKey("api_token", default: "none", secret: true)
    struct Banner: Decodable, Sendable { var title: String }
    static let banner = ConfigKey(decoding: "banner", default: Banner(title: "default"))

    private func client(
        _ json: String, fetcher: InMemoryFetcher? = nil, overrides: InMemoryOverrideSource? = nil,
        clock: ManualClock = ManualClock()
    ) async throws -> (RemoteConfigClient, InMemoryFetcher) {
        let fetcher = fetcher ?? InMemoryFetcher(json: json)
        var builder = RemoteConfigBuilder.testing(
            fetcher: fetcher, clock: clock, keys: Keys.all + [Self.token, Self.banner])
        if let overrides { builder = builder.override(overrides) }
        let client = try builder.build()
        _ = try await client.refresh()
        return (client, fetcher)
    }

    @Test("a registered key answers with the value reads see, rendered as a value, secret when the key is")
    func registeredKeys() async throws {
        let (client, _) = try await client(
            #"{"new_checkout": true, "max_retries": 7, "ratio": 1, "api_token": "s3cret", "extra": [1, "a"]}"#)
        let values = client.view()
        #expect(values.entry(forName: "new_checkout") == .init(value: .bool(true), isSecret: false))
        #expect(values.entry(forName: "max_retries") == .init(value: .int(7), isSecret: false))
        #expect(values.entry(forName: "ratio") == .init(value: .double(1), isSecret: false), "a Double key renders a double")
        #expect(values.entry(forName: "api_token") == .init(value: .string("s3cret"), isSecret: true))
        #expect(values.entry(forName: "extra") == .init(value: [1, "a"], isSecret: false), "unregistered: raw")
        #expect(values.entry(forName: "absent") == nil)
        await client.stop()
    }

    @Test("a key at its default answers nil; a rejected value falls back to the last good one")
    func defaultsAndRejections() async throws {
        let (client, fetcher) = try await client(#"{"max_retries": 4}"#)
        #expect(client.view().entry(forName: "title") == nil, "title is at its default")
        fetcher.serve(json: #"{"max_retries": 99, "title": ""}"#)
        await client.refreshRejectingEveryValue()
        let values = client.view()
        #expect(values.entry(forName: "max_retries")?.value == .int(4), "99 breaks the range rule: last good value")
        #expect(values.entry(forName: "title") == nil, "an empty title breaks nonEmpty, and there is no last good value")
        await client.stop()
    }

    @Test("an override wins, as it does for reads")
    func overrides() async throws {
        let source = InMemoryOverrideSource(name: "qa", values: ["max_retries": .text("9")])
        let (client, _) = try await client(#"{"max_retries": 4}"#, overrides: source)
        #expect(client.view().entry(forName: "max_retries")?.value == .int(9))
        await client.stop()
    }

    @Test("a key whose type cannot render answers with its value as it arrived")
    func decodableOnly() async throws {
        let (client, _) = try await client(#"{"banner": {"title": "Sale"}}"#)
        #expect(client.view().entry(forName: "banner")?.value == ["title": "Sale"])
        await client.stop()
    }

    @Test("values taken before a refresh keep their state: one state per lookup set")
    func oneState() async throws {
        let (client, fetcher) = try await client(#"{"max_retries": 4}"#)
        let before = client.view()
        fetcher.serve(json: #"{"max_retries": 5}"#)
        _ = try await client.refresh()
        #expect(before.entry(forName: "max_retries")?.value == .int(4))
        #expect(client.view().entry(forName: "max_retries")?.value == .int(5))
        #expect(client.view().generation > before.generation)
        await client.stop()
    }

    @Test("updates: the current values first, then the values after each activation, until the client stops")
    func updates() async throws {
        let (client, fetcher) = try await client(#"{"max_retries": 4}"#)
        var updates = client.watch().makeAsyncIterator()
        #expect(await updates.next()?.entry(forName: "max_retries")?.value == .int(4))
        fetcher.serve(json: #"{"max_retries": 6}"#)
        _ = try await client.refresh()
        #expect(await updates.next()?.entry(forName: "max_retries")?.value == .int(6))
        await client.stop()
        #expect(await updates.next() == nil)
    }

    @Test("an override change reaches the updates")
    func overrideUpdates() async throws {
        let source = InMemoryOverrideSource(name: "qa")
        let (client, _) = try await client(#"{"max_retries": 4}"#, overrides: source)
        var updates = client.watch().makeAsyncIterator()
        _ = await updates.next()
        source.set("max_retries", .text("2"))
        #expect(await updates.next()?.entry(forName: "max_retries")?.value == .int(2))
        await client.stop()
    }

    @Test("cancelling the consumer ends the updates")
    func cancelledUpdates() async throws {
        let (client, _) = try await client(#"{"max_retries": 4}"#)
        let (received, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var count = 0
            for await _ in client.watch() {
                count += 1
                signal.yield()
            }
            return count
        }
        var firstReceived = received.makeAsyncIterator()
        _ = await firstReceived.next()
        consumer.cancel()
        #expect(await consumer.value == 1)
        await client.stop()
    }

    @Test("fresh values refresh first when the snapshot is not fresh, and not when it is")
    func freshValues() async throws {
        let clock = ManualClock()
        let (client, fetcher) = try await client(#"{"max_retries": 4}"#, clock: clock)
        fetcher.serve(json: #"{"max_retries": 5}"#)
        #expect(await client.fetch().entry(forName: "max_retries")?.value == .int(4), "fresh: no fetch")
        #expect(fetcher.fetchCount == 1)
        clock.advance(by: 7200)
        #expect(await client.fetch().entry(forName: "max_retries")?.value == .int(5), "stale: refreshed")
        #expect(fetcher.fetchCount == 2)
        await client.stop()
    }

    @Test("a failed refresh for fresh values keeps the last good values")
    func freshValuesAfterAFailure() async throws {
        let clock = ManualClock()
        let (client, fetcher) = try await client(#"{"max_retries": 4}"#, clock: clock)
        clock.advance(by: 7200)
        fetcher.failNext(FetchError(.transport, retry: .backoff, message: "connection refused"))
        #expect(await client.fetch().entry(forName: "max_retries")?.value == .int(4))
        #expect(fetcher.fetchCount == 2)
        #expect(client.status.lastError != nil)
        await client.stop()
    }
}
