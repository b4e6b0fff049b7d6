import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// A key with a registered name and type but another default, rule set or secrecy is not the registered
/// key: it is read on its own, with its own default and rules, and reported once.
@Suite("Keys that differ from the registered key of their name")
struct KeyDefinitionMismatchTests {
    enum Mode: String, Sendable { case fast, slow }
    struct Banner: Codable, Hashable, Sendable { var title: String }

    /// A client of the test keys (`Keys.retries` is `max_retries`, default 3, rules `range(0...10)`) serving `json`.
    private func client(
        json: String, observer: RecordingObserver, keys: [any ConfigKeyRepresentable] = Keys.all
    ) async throws -> RemoteConfigClient {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: json), clock: ManualClock(), keys: keys)
            .observer(observer).build()
        _ = try await client.refresh()
        return client
    }

    /// The definition mismatches reported so far.
    private func mismatches(_ observer: RecordingObserver) -> [ConfigEvent] {
        observer.events.filter { if case .keyDefinitionMismatch = $0 { true } else { false } }
    }

    @Test("a read with another default gets its own default when no layer supplies a value, not the registered one's")
    func ownDefault() async throws {
        let observer = RecordingObserver()
        let client = try await client(json: #"{"new_checkout": true}"#, observer: observer)
        let other = ConfigKey("max_retries", default: 7)
        #expect(client[other] == 7)
        #expect(client[Keys.retries] == 3)
        #expect(client.view()[other] == 7)
        #expect(await client.fetch(.immediate)[other] == 7)
        #expect(await client.fetch(.cacheOnly)[other] == 7)
    }

    @Test("a payload value is converted and checked with the read key's rules, not the registered key's")
    func ownRules() async throws {
        let observer = RecordingObserver()
        let client = try await client(json: #"{"max_retries": 9}"#, observer: observer)
        #expect(client[Keys.retries] == 9, "range(0...10) accepts 9")
        let stricter = ConfigKey("max_retries", default: 3, rules: [.range(0...5)])
        #expect(client[stricter] == 3, "range(0...5) refuses 9: the read key's default")
        let explanation = client.details(stricter)
        #expect(!explanation.isRegistered)
        #expect(explanation.layer == .defaultValue)
        #expect(explanation.rejected.map(\.rule) == ["range(0...5)"])
        #expect(client.view()[stricter] == 3)
        let unchecked = ConfigKey("max_retries", default: 7)
        #expect(client[unchecked] == 9, "no rules: the payload's value, converted alone")
    }

    @Test("a read with a looser rule set takes a value the registered key refused, not the registered key's last good value")
    func looserRules() async throws {
        let observer = RecordingObserver()
        let fetcher = InMemoryFetcher(json: #"{"max_retries": 5}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).observer(observer).build()
        _ = try await client.refresh()
        fetcher.serve(json: #"{"max_retries": 15}"#)
        await client.refreshRejectingEveryValue()
        #expect(client[Keys.retries] == 5, "range(0...10) refuses 15: the last good value")
        let looser = ConfigKey("max_retries", default: 3, rules: [.range(0...20)])
        #expect(client[looser] == 15)
        #expect(client.details(looser).layer == .snapshot(source: "memory://config"))
        #expect(client.details(looser).rejected.isEmpty)
    }

    @Test("a read that differs only in secrecy is read on its own, and the report shows neither default")
    func secretDiffers() async throws {
        let observer = RecordingObserver()
        let client = try await client(json: #"{"max_retries": 4}"#, observer: observer)
        let secret = ConfigKey("max_retries", default: 3, rules: [.range(0...10)], secret: true)
        #expect(client[secret] == 4)
        #expect(!client.details(secret).isRegistered)
        #expect(client.details(secret).summary.hasPrefix("max_retries = \(Rejection.redacted) "))
        let event = try #require(mismatches(observer).first)
        #expect(
            event == .keyDefinitionMismatch(name: "max_retries", registered: Keys.retries.descriptor, read: secret.descriptor))
        #expect(
            event.description
                == #"the key "max_retries" read here (default <redacted>; rules range(0...10); secret) differs from the "#
                + "registered one (default <redacted>; rules range(0...10); not secret); it is read with its own default "
                + "and rules: declare it once and reuse that key")
    }

    @Test("the mismatch is reported once per name, with both definitions in its text")
    func reportedOnce() async throws {
        let observer = RecordingObserver()
        let client = try await client(json: "{}", observer: observer)
        let other = ConfigKey("max_retries", default: 7)
        _ = client[other]
        _ = client[other]
        _ = client.view()[other]
        _ = client[ConfigKey("max_retries", default: 8)]
        let events = mismatches(observer)
        #expect(
            events == [.keyDefinitionMismatch(name: "max_retries", registered: Keys.retries.descriptor, read: other.descriptor)])
        let text = try #require(events.first).description
        #expect(text.contains(#"the key "max_retries" read here (default 7; no rules) differs"#))
        #expect(text.contains("from the registered one (default 3; rules range(0...10))"))
        #expect(!observer.events.contains { if case .unregisteredKeyRead = $0 { true } else { false } })
        #expect(!observer.events.contains { if case .keyTypeMismatch = $0 { true } else { false } })
    }

    @Test("an identical declaration made elsewhere is the registered key: the fast path, its value, no report")
    func identicalDeclaration() async throws {
        let observer = RecordingObserver()
        let registeredMode = ConfigKey("mode", default: Mode.fast)
        let fetcher = InMemoryFetcher(json: #"{"max_retries": 5, "mode": "slow"}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock(), keys: Keys.all + [registeredMode])
            .observer(observer).build()
        _ = try await client.refresh()
        fetcher.serve(json: #"{"max_retries": 50, "mode": "slow"}"#)
        _ = try await client.refresh()
        let again = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        #expect(client.registry.slot(for: again.fingerprint, type: again.valueType) != nil, "found by the read path")
        #expect(client[again] == 5, "the registered slot's last good value; alone, 50 would be refused for the default 3")
        #expect(client.details(again).isRegistered)
        let modeAgain = ConfigKey("mode", default: Mode.fast)
        #expect(client.registry.slot(for: modeAgain.fingerprint, type: modeAgain.valueType) != nil, "its own converter")
        #expect(client[modeAgain] == .slow)
        #expect(mismatches(observer).isEmpty)
        #expect(!observer.events.contains { if case .unregisteredKeyRead = $0 { true } else { false } })
    }

    @Test("a Decodable key of a Hashable type with another default is read with its own default")
    func decodableDefault() async throws {
        let observer = RecordingObserver()
        let banner = ConfigKey(decoding: "banner", default: Banner(title: "Welcome"))
        let client = try await client(json: #"{"new_checkout": true}"#, observer: observer, keys: Keys.all + [banner])
        let other = ConfigKey(decoding: "banner", default: Banner(title: "Sale"))
        #expect(client[other] == Banner(title: "Sale"))
        #expect(client[banner] == Banner(title: "Welcome"))
        #expect(client[ConfigKey(decoding: "banner", default: Banner(title: "Welcome"))] == Banner(title: "Welcome"))
        #expect(
            mismatches(observer) == [
                .keyDefinitionMismatch(name: "banner", registered: banner.descriptor, read: other.descriptor)
            ])
    }

    @Test("a key of another type is still a type mismatch, not a definition mismatch")
    func otherType() async throws {
        let observer = RecordingObserver()
        let client = try await client(json: #"{"max_retries": 5}"#, observer: observer)
        #expect(client[ConfigKey("max_retries", default: "three")] == "three")
        #expect(observer.events.contains(.keyTypeMismatch(name: "max_retries", registeredType: "Int", readType: "String")))
        #expect(mismatches(observer).isEmpty)
    }

    @Test("a stream of a mismatching key starts with the key's own value")
    func stream() async throws {
        let observer = RecordingObserver()
        let client = try await client(json: #"{"max_retries": 9}"#, observer: observer)
        var values = client.watch(ConfigKey("max_retries", default: 1, rules: [.range(0...5)])).makeAsyncIterator()
        #expect(await values.next() == 1)
        #expect(mismatches(observer).count == 1)
    }

    @Test(
        "registering two keys of one name and type with other rules or secrecy is refused",
        arguments: [
            ConfigKey("max_retries", default: 3, rules: [.range(0...5)]),
            ConfigKey("max_retries", default: 3),
            ConfigKey("max_retries", default: 3, rules: [.range(0...10)], secret: true),
            ConfigKey("max_retries", default: 3, rules: [.range(0...10)], summary: "Retries"),
        ])
    func registrationRefused(_ other: ConfigKey<Int>) {
        #expect {
            _ = try RemoteConfigBuilder.testing(
                fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), keys: [Keys.retries, other]
            ).build()
        } throws: { error in
            guard case ConfigError.configuration(let e) = error else { return false }
            return e.kind == .conflictingKey && e.message.contains("registered twice")
        }
    }

    @Test("two identical declarations registered together merge into one slot")
    func registrationMerges() throws {
        let again = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(),
            keys: [
                Keys.retries, again, ConfigKey("mode", default: Mode.fast),
                ConfigKey("mode", default: Mode.fast),
            ]
        ).build()
        #expect(client.status.registeredKeys.map(\.name) == ["max_retries", "mode"])
    }
}
