import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("Bundled defaults layer")
struct BundledDefaultsLayerTests {
    let shipped = BundledDefaults(
        values: ["new_checkout": true, "max_retries": 7, "title": "Shipped"], source: "defaults.json")

    @Test("a first launch offline shows the bundled values, and explain names the file")
    func firstLaunchOffline() throws {
        let fetcher = InMemoryFetcher(json: payload())
        fetcher.failAll(with: FetchError(.transport, retry: .backoff, message: "offline"))
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).bundledDefaults(shipped).build()
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 7)
        #expect(client[Keys.ratio] == 0.5)  // not in the file: the key's own default
        #expect(client.details(Keys.retries).layer == .bundledDefaults(source: "defaults.json"))
        #expect(client.details(Keys.ratio).layer == .defaultValue)
        #expect(client.details(Keys.retries).summary == "max_retries = 7 (DEFAULT) from bundled defaults defaults.json")
    }

    @Test("the remote snapshot wins over bundled defaults; a key the snapshot lacks keeps its bundled value")
    func remoteWins() async throws {
        let fetcher = InMemoryFetcher(json: #"{"max_retries": 2}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).bundledDefaults(shipped).build()
        try await client.refresh()
        #expect(client[Keys.retries] == 2)
        #expect(client[Keys.title] == "Shipped")
        #expect(client.details(Keys.title).layer == .bundledDefaults(source: "defaults.json"))
    }

    @Test("a remote value a rule rejects, with no last good value, falls to the bundled value, not the default")
    func rejectedRemoteFallsToBundled() async throws {
        let fetcher = InMemoryFetcher(json: #"{"max_retries": 99}"#)
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: ManualClock()).bundledDefaults(shipped).build()
        await client.refreshRejectingEveryValue()
        #expect(client[Keys.retries] == 7)
        let explanation = client.details(Keys.retries)
        #expect(explanation.layer == .bundledDefaults(source: "defaults.json"))
        #expect(explanation.rejected.map(\.value) == ["99"])
    }

    @Test("a bundled value a rule rejects falls to the next bundled defaults, then the key's default, and is reported")
    func rejectedBundledValue() throws {
        let observer = RecordingObserver()
        let bad = BundledDefaults(values: ["max_retries": 50, "title": ""], source: "bad.plist")
        let fallback = BundledDefaults(values: ["max_retries": 4], source: "Settings.bundle")
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .bundledDefaults(bad).bundledDefaults(fallback).observer(observer).build()
        #expect(client[Keys.retries] == 4)
        #expect(client.details(Keys.retries).layer == .bundledDefaults(source: "Settings.bundle"))
        #expect(client.details(Keys.retries).rejected.first?.origin == "bundled defaults bad.plist")
        #expect(client[Keys.title] == "Welcome")
        let rejected = observer.events.compactMap { if case .valueRejected(let r) = $0 { r.key } else { nil } }
        #expect(Set(rejected) == ["max_retries", "title"])
    }

    @Test("an unregistered key read on its own also sees the bundled defaults")
    func unregisteredRead() throws {
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .bundledDefaults(BundledDefaults(values: ["page_size": 40], source: "defaults.json")).build()
        #expect(client[ConfigKey("page_size", default: 20)] == 40)
        #expect(client.details(ConfigKey("page_size", default: 20)).layer == .bundledDefaults(source: "defaults.json"))
    }
}
