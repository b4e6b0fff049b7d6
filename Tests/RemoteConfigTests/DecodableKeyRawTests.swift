import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// Activating a `Decodable` key decodes the candidate and runs no encoder.
@Suite("Decodable keys: raw form and launch cost")
struct DecodableKeyRawTests {
    /// Counts how often values of ``Theme`` are encoded, per test (each test uses its own counter).
    final class EncodeCounter: Sendable {
        private let count = Locked(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.current }
    }

    struct Theme: Codable, Sendable, Equatable {
        var accent: String
        var counter: EncodeCounter?

        enum CodingKeys: String, CodingKey { case accent }

        init(accent: String, counter: EncodeCounter? = nil) {
            self.accent = accent
            self.counter = counter
        }

        init(from decoder: any Decoder) throws {
            accent = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .accent)
        }

        func encode(to encoder: any Encoder) throws {
            counter?.increment()
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(accent, forKey: .accent)
        }

        static func == (a: Theme, b: Theme) -> Bool { a.accent == b.accent }
    }

    @Test("launching from a cached snapshot activates a Decodable key without encoding its default or its value")
    func noEncoderAtLaunch() async throws {
        let counter = EncodeCounter()
        let theme = ConfigKey(decoding: "theme", default: Theme(accent: "blue", counter: counter))
        let cache = InMemoryCache()
        try await cache.store(
            cached(#"{"theme": {"accent": "green", "legacy": 1}}"#, fetchedAt: epoch), as: "default", slot: .active)
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .cache(cache).clock(ManualClock()).register(theme).build()
        #expect(client[theme].accent == "green")
        #expect(counter.value == 0)

        // The snapshot keeps the value as served, with the member the type ignores: a key of
        // another type under the same name reads it (resolved alone, and reported).
        struct Everything: Decodable, Sendable { var accent: String; var legacy: Int }
        let everything = ConfigKey(decoding: "theme", default: Everything(accent: "", legacy: 0))
        #expect(client[everything].legacy == 1)
    }

    @Test("a Decodable key that falls back to its default renders the default when asked, and changes are still seen")
    func defaultRenderedOnDemand() async throws {
        let theme = ConfigKey(decoding: "theme", default: Theme(accent: "blue"))
        let fetcher = InMemoryFetcher(json: #"{"theme": {"accent": "green"}}"#)
        let client = try RemoteConfigClient.builder(fetcher: fetcher).register(theme).build()
        #expect(client.status.registeredKeys.first?.defaultValue == .object(["accent": .string("blue")]))
        #expect(try await client.refresh(force: true) == .updated(changedKeys: ["theme"]))

        fetcher.serve(json: #"{"theme": {"accent": 7}}"#)
        await #expect(throws: ConfigError.self) { try await client.refresh(force: true) }
        #expect(client[theme].accent == "green")
        #expect(client.details(theme).layer == .lastGoodSnapshot(source: "memory://config"))

        fetcher.serve(json: #"{}"#)
        #expect(try await client.refresh(force: true) == .updated(changedKeys: ["theme"]))
        #expect(client[theme].accent == "blue")
        #expect(client.details(theme).layer == .defaultValue)
    }
}
