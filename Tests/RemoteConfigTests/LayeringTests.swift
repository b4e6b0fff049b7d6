import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Layering, fallback and provenance")
struct LayeringTests {
    @Test("a value a rule rejects falls back alone; the rest of the payload applies")
    func perKeyFallback() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: #"{"new_checkout": true, "max_retries": 99, "ratio": 1, "title": ""}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        _ = try await client.refresh()
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 3)
        #expect(client[Keys.ratio] == 1.0)
        #expect(client[Keys.title] == "Welcome")
        let explanation = client.details(Keys.retries)
        #expect(explanation.layer == .defaultValue)
        #expect(explanation.rejected.map(\.rule) == ["range(0...10)"])
        #expect(explanation.rejected.first?.value == "99")
        #expect(explanation.rejected.first?.reason == "99 is outside 0...10")
        #expect(client.details(Keys.title).rejected.map(\.rule) == ["nonEmpty"])
        let rejectedKeys = observer.events.compactMap { if case .valueRejected(let r) = $0 { r.key } else { nil } }
        #expect(Set(rejectedKeys) == ["max_retries", "title"])
    }

    @Test("a value of the wrong type is rejected: 1 is not a Bool, \"5\" is not an Int")
    func typeMismatch() async throws {
        let fetcher = InMemoryFetcher(json: #"{"new_checkout": 1, "max_retries": "5"}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        await client.refreshRejectingEveryValue()
        #expect(client[Keys.flag] == false)
        #expect(client[Keys.retries] == 3)
        #expect(client.details(Keys.flag).rejected.first?.rule == "type(Bool)")
        #expect(client.details(Keys.retries).rejected.first?.rule == "type(Int)")
    }

    @Test("a rejected value falls back to the key's last good snapshot value, not the default")
    func lastGood() async throws {
        let fetcher = InMemoryFetcher(json: payload(retries: 5))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).build()
        _ = try await client.refresh()
        fetcher.serve(json: payload(retries: 99))
        _ = try await client.refresh()  // the payload's other values are accepted
        #expect(client[Keys.retries] == 5)
        let explanation = client.details(Keys.retries)
        #expect(explanation.layer == .lastGoodSnapshot(source: "memory://config"))
        #expect(explanation.rejected.count == 1)
        fetcher.serve(json: #"{"new_checkout": true}"#)
        _ = try await client.refresh()
        #expect(client[Keys.retries] == 3)
        #expect(client.details(Keys.retries).layer == .defaultValue)
    }

    @Test("provenance names each layer: override, snapshot, default")
    func provenance() async throws {
        let clock = ManualClock()
        let first = InMemoryOverrideSource(name: "first", values: ["max_retries": .text("8")])
        let second = InMemoryOverrideSource(
            name: "second", values: ["max_retries": .value(.int(9)), "ratio": .value(.double(0.75))])
        let fetcher = InMemoryFetcher(json: payload(retries: 5, ratio: 0.1, title: "Remote"))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock)
            .override(first).override(second).build()
        _ = try await client.refresh()
        clock.advance(by: 30)

        #expect(client[Keys.retries] == 8)
        #expect(client.details(Keys.retries).layer == .override(source: "first", position: 0, origin: "first:max_retries"))
        #expect(client[Keys.ratio] == 0.75)
        #expect(client.details(Keys.ratio).layer == .override(source: "second", position: 1, origin: "second:ratio"))
        let title = client.details(Keys.title)
        #expect(client[Keys.title] == "Remote")
        #expect(title.layer == .snapshot(source: "memory://config"))
        #expect(title.snapshotAge == 30)
        #expect(title.freshness == .fresh)
        #expect(title.snapshot?.validators.etag != nil)
        let unset = ConfigKey("unset", default: "fallback")
        let client2 = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock, keys: [unset]).build()
        #expect(client2.details(unset).layer == .defaultValue)
        #expect(client2.details(unset).value == "fallback")
        #expect(client2.details(unset).snapshot == nil)
        #expect(client.details(Keys.retries).description.contains("override first"))
    }

    @Test("an override a rule rejects falls through to the next override, and the rejection is listed")
    func rejectedOverrideFallsThrough() async throws {
        let first = InMemoryOverrideSource(name: "first", values: ["max_retries": .text("lots")])
        let second = InMemoryOverrideSource(name: "second", values: ["max_retries": .text("4")])
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(first).override(second).build()
        #expect(client[Keys.retries] == 4)
        let explanation = client.details(Keys.retries)
        #expect(explanation.rejected.count == 1)
        #expect(explanation.rejected.first?.origin == "first:max_retries")
        #expect(explanation.rejected.first?.rule == "type(Int)")
    }

    @Test("an override that changes at run time re-resolves the state")
    func overrideChangeReResolves() async throws {
        let source = InMemoryOverrideSource(name: "qa")
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(source).build()
        var updates = client.activations().makeAsyncIterator()
        source.set("max_retries", value: .int(2))
        let update = await updates.next()
        #expect(update?.changedKeys == ["max_retries"])
        #expect(update?.cause == .override(source: "qa"))
        #expect(client[Keys.retries] == 2)
        source.remove("max_retries")
        _ = await updates.next()
        #expect(client[Keys.retries] == 3)
    }

    @Test("an unregistered key is read through the slow path, which says so once")
    func unregisteredKey() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: #"{"legacy_limit": 12}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        _ = try await client.refresh()
        let legacy = ConfigKey("legacy_limit", default: 1)
        #expect(client[legacy] == 12)
        #expect(client[legacy] == 12)
        #expect(client.view().entry(forName: "legacy_limit")?.value == .int(12))
        let reads = observer.events.filter { $0 == .unregisteredKeyRead(name: "legacy_limit") }
        #expect(reads.count == 1)
        #expect(client.details(legacy).isRegistered == false)
    }

    @Test("a name that differs from a registered key only by case or separators is reported as a likely typo")
    func mistypedKey() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: #"{"maxRetries": 4}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        _ = try await client.refresh()
        #expect(observer.events.contains(.mistypedKey(requested: "maxRetries", registered: "max_retries")))
        _ = client.view().details(forKey: "MAX-RETRIES")
        #expect(observer.events.contains(.mistypedKey(requested: "MAX-RETRIES", registered: "max_retries")))
    }

    struct Banner: Codable, Sendable, Equatable {
        var title: String
        var weight: Int
    }

    @Test("structured values decode at activation; a bad one falls back and names the path")
    func structured() async throws {
        let banner = ConfigKey(decoding: "banner", default: Banner(title: "none", weight: 0))
        let fetcher = InMemoryFetcher(json: #"{"banner": {"title": "Sale", "weight": 2}}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [banner]).build()
        _ = try await client.refresh()
        #expect(client[banner] == Banner(title: "Sale", weight: 2))
        #expect(await client.fetch(.immediate)[banner] == Banner(title: "Sale", weight: 2))

        fetcher.serve(json: #"{"banner": {"title": "Sale", "weight": "heavy"}}"#)
        await client.refreshRejectingEveryValue()
        #expect(client[banner] == Banner(title: "Sale", weight: 2))
        let rejection = try #require(client.details(banner).rejected.first)
        #expect(rejection.reason.contains("weight"))
    }

    @Test("a structured value that does not decode is rejected with the key and the path inside it")
    func structuredPath() async throws {
        struct Layout: Codable, Sendable, Equatable { var columns: [Int] }
        let layout = ConfigKey(decoding: "layout", default: Layout(columns: [1]))
        let fetcher = InMemoryFetcher(json: #"{"layout": {"columns": [1, 2, "three"]}}"#)
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: [layout])
            .observer(observer).build()
        await client.refreshRejectingEveryValue()
        #expect(client[layout] == Layout(columns: [1]))
        let rejection = try #require(client.details(layout).rejected.first)
        #expect(rejection.key == "layout")
        #expect(rejection.reason.contains("columns[2]"))
        #expect(observer.events.contains(.valueRejected(rejection)))
    }
}

@Suite("Override problems")
struct OverrideProblemTests {
    @Test("a source's problem is reported once, not again when its change stream starts")
    func problemReportedOnce() async throws {
        let source = InMemoryOverrideSource(name: "qa")
        source.report(problem: "line 3: missing '='")
        let observer = RecordingObserver()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .override(source).observer(observer).build()
        var updates = client.activations().makeAsyncIterator()
        source.set("max_retries", value: .int(1))
        _ = await updates.next()
        let problems = observer.events.filter { $0 == .overrideProblem(source: "qa", message: "line 3: missing '='") }
        #expect(problems.count == 1)
    }
}
