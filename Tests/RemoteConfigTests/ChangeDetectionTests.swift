import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// One activation resolves every key and, in the same pass, finds what changed and which
/// rejections are new: these pin down that pass.
@Suite("Change detection and rejection events")
struct ChangeDetectionTests {
    /// Decodes but does not encode: its values cannot be rendered back to a `ConfigValue`.
    struct Layout: Decodable, Sendable, Equatable {
        var columns: Int
    }

    static let layout = ConfigKey(decoding: "layout", default: Layout(columns: 1))

    @Test("a key whose type cannot render back is still reported changed, and only when its value changes")
    func unrenderableType() async throws {
        let fetcher = InMemoryFetcher(json: #"{"layout": {"columns": 2}, "a": 1}"#)
        let client = try RemoteConfigBuilder.testing(
            fetcher: fetcher, clock: ManualClock(), keys: [Self.layout, Keys.a]
        ).build()
        #expect(try await client.refresh(force: true) == .updated(changedKeys: ["layout", "a"]))
        #expect(client[Self.layout] == Layout(columns: 2))

        fetcher.serve(json: #"{"layout": {"columns": 2}, "a": 2}"#)
        #expect(try await client.refresh(force: true) == .updated(changedKeys: ["a"]))

        fetcher.serve(json: #"{"layout": {"columns": 3}, "a": 2}"#)
        #expect(try await client.refresh(force: true) == .updated(changedKeys: ["layout"]))
        #expect(client.details(Self.layout).value == Layout(columns: 3))
    }

    @Test("the same rejected value is reported once; a different rejected value is reported again")
    func rejectionEventsAreNotRepeated() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: payload(retries: 99))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        _ = try await client.refresh(force: true)
        fetcher.serve(json: payload(flag: false, retries: 99))
        _ = try await client.refresh(force: true)
        fetcher.serve(json: payload(flag: false, retries: 42))
        _ = try await client.refresh(force: true)

        let rejected = observer.events.compactMap { event -> String? in
            if case .valueRejected(let rejection) = event { rejection.value } else { nil }
        }
        #expect(rejected == ["99", "42"])
        #expect(client[Keys.retries] == 3)
    }

    @Test("a rejected candidate's message is built in full although accepted values never render")
    func rejectionMessage() async throws {
        let secretLimit = ConfigKey("limit", default: 5, rules: [.range(1...10)], secret: true)
        let fetcher = InMemoryFetcher(json: #"{"limit": 77, "a": "seven"}"#)
        let client = try RemoteConfigBuilder.testing(
            fetcher: fetcher, clock: ManualClock(), keys: [secretLimit, Keys.a]
        ).build()
        await client.refreshRejectingEveryValue(force: true)

        let limit = try #require(client.details(secretLimit).rejected.first)
        #expect(limit.value == Rejection.redacted)
        #expect(limit.rule == "range(1...10)")
        #expect(!limit.reason.contains("77"))
        let a = try #require(client.details(Keys.a).rejected.first)
        #expect(a.value == #""seven""#)
        #expect(a.rule == "type(Int)")
        #expect(client.details(secretLimit).summary.hasPrefix("limit = \(Rejection.redacted) "))
    }

    @Test("a misspelt payload key is reported even when every registered key is also present")
    func misspeltKeyBesideEveryRegisteredKey() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: #"{"a": 1, "b": 2, "B": 3}"#)
        let client = try RemoteConfigBuilder.testing(
            fetcher: fetcher, clock: ManualClock(), keys: [Keys.a, Keys.b]
        ).observer(observer).build()
        _ = try await client.refresh(force: true)
        #expect(observer.events.contains(.mistypedKey(requested: "B", registered: "b")))

        // Reported once: a payload that keeps the misspelt key does not repeat the event on every refresh.
        fetcher.serve(json: #"{"a": 10, "b": 2, "B": 3}"#)
        _ = try await client.refresh(force: true)
        #expect(client[Keys.a] == 10)
        #expect(observer.events.filter { $0 == .mistypedKey(requested: "B", registered: "b") }.count == 1)

        let quiet = RecordingObserver()
        let exact = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: #"{"a": 1, "b": 2}"#), clock: ManualClock(), keys: [Keys.a, Keys.b]
        ).observer(quiet).build()
        _ = try await exact.refresh(force: true)
        #expect(!quiet.events.contains { if case .mistypedKey = $0 { true } else { false } })
    }

    /// Makes a key inside generic code, where its initialiser runs unspecialised.
    static func genericKey<Value: ConfigValueConvertible & Sendable>(
        _ name: String, default value: Value, rules: [ValidationRule<Value>]
    ) -> ConfigKey<Value> {
        ConfigKey(name, default: value, rules: rules)
    }

    @Test("a key made in generic code resolves, rejects and renders like one made for its concrete type")
    func keyMadeInGenericCode() async throws {
        let generic = Self.genericKey("limit", default: 5, rules: [.range(1...10)])
        let concrete = ConfigKey("limit2", default: 5, rules: [.range(1...10)])
        let fetcher = InMemoryFetcher(json: #"{"limit": 7, "limit2": 7}"#)
        let client = try RemoteConfigBuilder.testing(
            fetcher: fetcher, clock: ManualClock(), keys: [generic, concrete]
        ).build()
        _ = try await client.refresh(force: true)
        #expect(client[generic] == 7)
        #expect(client[concrete] == 7)

        fetcher.serve(json: #"{"limit": 70, "limit2": 70}"#)
        await client.refreshRejectingEveryValue(force: true)
        #expect(client[generic] == 7)
        let a = try #require(client.details(generic).rejected.first)
        let b = try #require(client.details(concrete).rejected.first)
        #expect(a.reason == b.reason)
        #expect(a.reason == "70 is outside 1...10")
        #expect(client.details(generic).value == 7)
    }
}
