import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import RemoteConfigApp
import TestDoubles
import Testing

/// Key names as a string enum, the way apps named keys before `ConfigKey` had names of its own.
enum SettingName: String {
    case serverTimeout = "server.timeout"
    case serverRetries = "server.retries"
}

/// A theme the app lets the user pick; read by its raw value.
enum Theme: String, Sendable, CaseIterable { case light, dark, system }

enum EnumNamedKeys {
    static let timeout = ConfigKey(SettingName.serverTimeout, default: 30.0)
    static let retries = ConfigKey(SettingName.serverRetries, default: 5, rules: [.range(0...10)])
    static let theme = ConfigKey(SettingName.serverRetries.rawValue + ".theme", default: Theme.system)
}

@Suite("register { } blocks")
struct RegistrationBuilderTests {
    @Test("keys named by a string enum register in a block and read their values")
    func stringEnumNames() async throws {
        let fetcher = InMemoryFetcher(json: #"{"server.timeout": 12.5, "server.retries": 2}"#)
        let client = try RemoteConfigClient.builder(fetcher: fetcher)
            .register {
                EnumNamedKeys.timeout
                EnumNamedKeys.retries
            }
            .build()
        try await client.refresh()
        #expect(client[EnumNamedKeys.timeout] == 12.5)
        #expect(client[EnumNamedKeys.retries] == 2)
        #expect(client.status.registeredKeys.map(\.name) == ["server.timeout", "server.retries"])
    }

    @Test("a block takes lists, if, if/else and for, in order")
    func controlFlow() throws {
        let includeTheme = true
        let includeFlag = false
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
            .register {
                Keys.all
                if includeTheme { EnumNamedKeys.theme }
                if includeFlag { Keys.a } else { Keys.b }
                for key in [EnumNamedKeys.timeout] { key }
            }
            .build()
        #expect(
            client.status.registeredKeys.map(\.name) == [
                "new_checkout", "max_retries", "ratio", "title", "server.retries.theme", "b", "server.timeout",
            ])
    }

    @Test("a block and the variadic form register the same keys")
    func sameAsVariadic() throws {
        let fetcher = InMemoryFetcher(json: "{}")
        let block = try RemoteConfigClient.builder(fetcher: fetcher).register {
            Keys.flag; Keys.retries
        }.build()
        let variadic = try RemoteConfigClient.builder(fetcher: fetcher).register(Keys.flag, Keys.retries).build()
        #expect(block.status.registeredKeys == variadic.status.registeredKeys)
    }
}
