import ConfigDomain
import ConfigPorts
import DefaultsAdapter
import Foundation
import RemoteConfig
import Testing

enum Theme: String, Sendable { case light, dark, system }

/// Settings the user may change: a theme (any build) and a server URL (debug builds only).
enum UserSettings {
    static let theme = ConfigKey("theme", default: Theme.system)
    static let serverURL = ConfigKey("server_url", default: URL(string: "https://example.com")!)
    static let pageSize = ConfigKey("page_size", default: 20, rules: [.range(10...100)])
    static let tags = ConfigKey("tags", default: [String]())
}

@Suite("UserDefaults settings store")
struct UserDefaultsSettingsStoreTests {
    func builder(suite: String, _ kind: BuildKind) throws -> RemoteConfigBuilder {
        RemoteConfigClient.builder(fetcher: OfflineFetcher())
            .register {
                UserSettings.theme.writable(inRelease: true)
                UserSettings.serverURL.writable()
                UserSettings.pageSize.writable(inRelease: true)
                UserSettings.tags.writable(inRelease: true)
            }
            .settingsStore(try UserDefaultsSettingsStore(suiteName: suite, keyPrefix: "settings."))
            .buildKind(kind)
    }

    @Test("written values round-trip through a suite as property-list objects, and a relaunch reads them")
    func roundTrip() async throws {
        try await withScratchSuite { name, defaults in
            let client = try builder(suite: name, .debug).build()
            try client.set(UserSettings.theme, .dark)
            try client.set(UserSettings.serverURL, URL(string: "https://staging.example.com")!)
            try client.set(UserSettings.pageSize, 50)
            try client.set(UserSettings.tags, ["beta", "eu"])
            #expect(defaults.string(forKey: "settings.theme") == "dark")
            #expect(defaults.object(forKey: "settings.page_size") as? Int == 50)
            #expect(defaults.stringArray(forKey: "settings.tags") == ["beta", "eu"])

            let relaunched = try builder(suite: name, .debug).build()
            #expect(relaunched[UserSettings.theme] == .dark)
            #expect(relaunched[UserSettings.serverURL] == URL(string: "https://staging.example.com"))
            #expect(relaunched[UserSettings.pageSize] == 50)
            #expect(relaunched[UserSettings.tags] == ["beta", "eu"])
            #expect(relaunched.explain(UserSettings.pageSize).layer == .writableSetting(store: "UserDefaults(\(name))"))

            try relaunched.reset(UserSettings.theme)
            #expect(defaults.object(forKey: "settings.theme") == nil)
            #expect(try builder(suite: name, .debug).build()[UserSettings.theme] == .system)
        }
    }

    @Test("in a release build a release-locked key's stored value is ignored and writes to it throw")
    func releaseLock() async throws {
        try await withScratchSuite { name, defaults in
            let debug = try builder(suite: name, .debug).build()
            try debug.set(UserSettings.serverURL, URL(string: "https://staging.example.com")!)
            try debug.set(UserSettings.theme, .dark)

            let release = try builder(suite: name, .release).build()
            #expect(release[UserSettings.serverURL] == URL(string: "https://example.com"))
            #expect(release[UserSettings.theme] == .dark)
            #expect {
                try release.set(UserSettings.serverURL, URL(string: "https://evil.example.com")!)
            } throws: { error in
                if case .configuration(let problem) = error as? ConfigError { problem.kind == .notWritable } else { false }
            }
            #expect(defaults.string(forKey: "settings.server_url") == "https://staging.example.com")
        }
    }

    @Test("a stored value the key's rules reject falls through to the default and is reported")
    func storedValueRejected() async throws {
        try await withScratchSuite { name, defaults in
            defaults.set(500, forKey: "settings.page_size")
            let client = try builder(suite: name, .debug).build()
            #expect(client[UserSettings.pageSize] == 20)
            #expect(client.explain(UserSettings.pageSize).rejected.first?.origin == "UserDefaults(\(name)):settings.page_size")
        }
    }

    @Test("a value UserDefaults cannot keep (null) is refused, and nothing changes")
    func unstorableValue() async throws {
        try await withScratchSuite { name, defaults in
            let slots = ConfigKey(decoding: "slots", default: ["a"] as [String?])
            let client = try RemoteConfigClient.builder(fetcher: OfflineFetcher())
                .register { slots.writable() }
                .settingsStore(try UserDefaultsSettingsStore(suiteName: name))
                .buildKind(.debug)
                .build()
            #expect {
                try client.set(slots, ["a", nil])
            } throws: { error in
                guard case .rejected(let rejection) = error as? ConfigError else { return false }
                return rejection.rule == "storable" && rejection.reason.contains("cannot hold null")
            }
            #expect(client[slots] == ["a"])
            #expect(defaults.object(forKey: "slots") == nil)
        }
    }

    @Test("a suite name UserDefaults refuses is a setup mistake")
    func refusedSuite() {
        #expect(throws: ConfigurationError.self) { _ = try UserDefaultsSettingsStore(suiteName: "NSGlobalDomain") }
    }
}
