import ConfigDomain
import Configuration
import ConfigurationAdapter
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// ``RemoteConfigProvider``: remote values read through swift-configuration's `ConfigReader`.
@Suite("RemoteConfigProvider")
struct RemoteConfigProviderTests {
    static let payload = """
        {"flag": true, "count": 42, "whole": 2.0, "ratio": 0.25, "name": "checkout", "blob": "bWFnaWM=",
         "names": ["a", "b"], "counts": [1, 2], "ratios": [0.5, 2], "flags": [true, false],
         "blobs": ["bWFnaWM=", "bWFnaWMy"], "nothing": null, "bad_blob": "%%%",
         "http": {"timeout": 30, "tls": {"enabled": true}}, "password": "hunter2-secret",
         "db": {"password": "db-secret-value"}}
        """
    static let token = ConfigDomain.ConfigKey("token", default: "", secret: true)
    static let limit = ConfigDomain.ConfigKey("limit", default: 10, rules: [.range(1...100)])

    @Test("a ConfigReader reads every value type")
    func everyType() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(Self.payload)
        let config = ConfigReader(provider: RemoteConfigProvider(client))
        #expect(config.bool(forKey: "flag") == true)
        #expect(config.int(forKey: "count") == 42)
        #expect(config.double(forKey: "ratio") == 0.25)
        #expect(config.string(forKey: "name") == "checkout")
        #expect(config.bytes(forKey: "blob") == Array("magic".utf8))
        #expect(config.stringArray(forKey: "names") == ["a", "b"])
        #expect(config.intArray(forKey: "counts") == [1, 2])
        #expect(config.doubleArray(forKey: "ratios") == [0.5, 2])
        #expect(config.boolArray(forKey: "flags") == [true, false])
        #expect(config.byteChunkArray(forKey: "blobs") == [Array("magic".utf8), Array("magic2".utf8)])
        await client.stop()
    }

    @Test("numbers follow the library's strict rules: an int reads as a double, an integral double as an int")
    func numberRules() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(Self.payload)
        let provider = RemoteConfigProvider(client)
        #expect(content(provider, "count", .double) == .success(.double(42)))
        #expect(content(provider, "whole", .int) == .success(.int(2)))
        #expect(content(provider, "counts", .doubleArray) == .success(.doubleArray([1, 2])))
        await client.stop()
    }

    @Test(
        "a value of another type is a typed error naming the key, the type asked for and what it holds",
        arguments: [
            ("ratio", ConfigType.int, "0.25"), ("flag", .int, "true"), ("count", .bool, "42"), ("name", .int, "checkout"),
            ("count", .string, "42"), ("flags", .stringArray, "true"), ("bad_blob", .bytes, "%%%"),
            ("names", .byteChunkArray, "a"), ("http", .string, "timeout"),
        ] as [(String, ConfigType, String)])
    func typeMismatch(name: String, type: ConfigType, shown: String) async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(Self.payload)
        let provider = RemoteConfigProvider(client)
        guard case .failure(let error) = content(provider, AbsoluteConfigKey(Configuration.ConfigKey(name)), type) else {
            Issue.record("\(name) read as \(type) did not fail")
            return
        }
        #expect(error.key == name)
        #expect(error.requestedType == type.rawValue)
        #expect(error.description.contains(shown))
        #expect(error.description.contains("read it as the type the configuration holds"))
        #expect(throws: ProviderValueError.self) {
            try provider.snapshot().value(forKey: AbsoluteConfigKey(Configuration.ConfigKey(name)), type: type)
        }
        await client.stop()
    }

    @Test("a reader falls back to its default when the value is of another type")
    func readerDefaultOnMismatch() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(Self.payload)
        let config = ConfigReader(provider: RemoteConfigProvider(client))
        #expect(config.int(forKey: "name", default: 7) == 7)
        #expect(throws: ProviderValueError.self) { try config.requiredInt(forKey: "name") }
        await client.stop()
    }

    @Test("missing keys, null values and registered keys at their default have no value; a later provider answers")
    func missingKeys() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(Self.payload, keys: [Self.limit])
        let provider = RemoteConfigProvider(client)
        #expect(content(provider, "absent", .string) == .success(nil))
        #expect(content(provider, "nothing", .string) == .success(nil))
        #expect(content(provider, "limit", .int) == .success(nil), "registered, at its default")
        #expect(content(provider, "http.missing", .int) == .success(nil))
        #expect(content(provider, "count.deeper", .int) == .success(nil), "a number has no members")
        let fallback = InMemoryProvider(values: ["limit": 55, "absent": "from memory"])
        let config = ConfigReader(providers: [provider, fallback])
        #expect(config.int(forKey: "limit") == 55)
        #expect(config.string(forKey: "absent") == "from memory")
        #expect(config.int(forKey: "count") == 42)
        #expect(config.int(forKey: "other", default: 3) == 3)
        await client.stop()
    }

    @Test("a dotted key reads a member of an object value; a scoped reader reads inside it")
    func nestedKeys() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(Self.payload)
        let config = ConfigReader(provider: RemoteConfigProvider(client))
        #expect(config.int(forKey: "http.timeout") == 30)
        #expect(config.bool(forKey: "http.tls.enabled") == true)
        #expect(config.scoped(to: "http").int(forKey: "timeout") == 30)
        #expect(config.scoped(to: "http.tls").bool(forKey: "enabled") == true)
        await client.stop()
    }

    @Test("a registered key reads the value the client's reads see: rules applied, overrides first")
    func registeredKeys() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let overrides = InMemoryOverrideSource(name: "qa", values: ["count": .text("7")])
        let count = ConfigDomain.ConfigKey("count", default: 0)
        let (client, _) = try await refreshedClient(
            #"{"limit": 500, "count": 42}"#, keys: [Self.limit, count], overrides: [overrides])
        let config = ConfigReader(provider: RemoteConfigProvider(client))
        #expect(config.int(forKey: "limit") == nil, "500 breaks the key's range rule; the key is at its default")
        #expect(config.int(forKey: "count") == 7)
        await client.stop()
    }

    @Test("a secret key's value is secret; a secrets specifier marks others; a secret's error never shows it")
    func secrets() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, _) = try await refreshedClient(
            #"{"token": "tok-123456789", "password": "hunter2-secret", "db": {"password": "db-secret-value"}, "name": "x"}"#,
            keys: [Self.token])
        let provider = RemoteConfigProvider(client, secretsSpecifier: .specific(["password"]))
        #expect(try provider.value(forKey: "token", type: .string).value?.isSecret == true)
        #expect(try provider.value(forKey: "password", type: .string).value?.isSecret == true)
        #expect(try provider.value(forKey: "name", type: .string).value?.isSecret == false)
        #expect(try provider.value(forKey: "token", type: .string).value?.description == "[string: <REDACTED>]")
        let byDynamicRule = RemoteConfigProvider(client, secretsSpecifier: .dynamic { name, _ in name.hasPrefix("db.") })
        #expect(try byDynamicRule.value(forKey: "db.password", type: .string).value?.isSecret == true)
        for (name, secret) in [("token", "tok-123456789"), ("password", "hunter2-secret")] {
            guard case .failure(let error) = content(provider, AbsoluteConfigKey(Configuration.ConfigKey(name)), .int) else {
                Issue.record("\(name) read as an int did not fail")
                continue
            }
            #expect(!error.description.contains(secret))
            #expect(error.description.contains("the secret value is a string"))
        }
        await client.stop()
    }

    @Test("a member of a secret value is secret")
    func secretMembers() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        struct Credentials: Codable, Sendable { var user: String }
        let credentials = ConfigDomain.ConfigKey(decoding: "credentials", default: Credentials(user: ""), secret: true)
        let (client, _) = try await refreshedClient(#"{"credentials": {"user": "root"}}"#, keys: [credentials])
        let user = try RemoteConfigProvider(client).value(forKey: "credentials.user", type: .string).value
        #expect(user == Configuration.ConfigValue(.string("root"), isSecret: true))
        await client.stop()
    }

    @Test("a watch yields the current value, then the value after each activation that changed it")
    func watchValue() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, fetcher) = try await refreshedClient(#"{"count": 1, "other": 1}"#)
        let config = ConfigReader(provider: RemoteConfigProvider(client))
        let seen = try await config.watchInt(forKey: "count", default: 0) { updates in
            var seen: [Int] = []
            for await count in updates {
                seen.append(count)
                if count == 1 {
                    fetcher.serve(json: #"{"count": 2, "other": 1}"#)
                    _ = try await client.refresh()
                }
                if count == 2 { break }
            }
            return seen
        }
        #expect(seen == [1, 2])
        await client.stop()
    }

    @Test("a watch reports a value of another type as an error, and ends when the client stops")
    func watchErrorsAndEnd() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, fetcher) = try await refreshedClient(#"{"count": 1}"#)
        let provider = RemoteConfigProvider(client)
        let results = try await provider.watchValue(forKey: "count", type: .int) { updates in
            var results: [Result<LookupResult, any Error>] = []
            for await result in updates {
                results.append(result)
                if results.count == 1 {
                    fetcher.serve(json: #"{"count": "many"}"#)
                    _ = try await client.refresh()
                }
                if results.count == 2 { await client.stop() }
            }
            return results
        }
        #expect(results.count == 2)
        #expect((try? results.first?.get())?.value?.content == .int(1))
        #expect(throws: ProviderValueError.self) { try results.last?.get() }
    }

    @Test("a snapshot keeps one state; a snapshot watch yields a snapshot per activation")
    func snapshots() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let (client, fetcher) = try await refreshedClient(#"{"count": 1}"#)
        let provider = RemoteConfigProvider(client, name: "remote")
        let before = provider.snapshot()
        #expect(before.providerName == "remote")
        let counts = try await provider.watchSnapshot { snapshots in
            var counts: [ConfigContent?] = []
            for await snapshot in snapshots {
                counts.append(try snapshot.value(forKey: "count", type: .int).value?.content)
                if counts.count == 1 {
                    fetcher.serve(json: #"{"count": 2}"#)
                    _ = try await client.refresh()
                } else {
                    break
                }
            }
            return counts
        }
        #expect(counts == [.int(1), .int(2)])
        #expect(try before.value(forKey: "count", type: .int).value?.content == .int(1))
        await client.stop()
    }

    @Test("a fetch refreshes a stale snapshot first; a failed refresh keeps the last good value")
    func fetchValue() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let clock = ManualClock()
        let (client, fetcher) = try await refreshedClient(#"{"count": 1}"#, clock: clock)
        let config = ConfigReader(provider: RemoteConfigProvider(client))
        fetcher.serve(json: #"{"count": 2}"#)
        #expect(try await config.fetchInt(forKey: "count") == 1, "fresh: served as it is")
        clock.advance(by: 7200)
        #expect(try await config.fetchInt(forKey: "count") == 2, "stale: refreshed first")
        clock.advance(by: 7200)
        fetcher.failNext(FetchError(.transport, retry: .backoff, message: "connection refused"))
        #expect(try await config.fetchInt(forKey: "count") == 2, "the refresh failed: the last good value")
        #expect(fetcher.fetchCount == 3)
        await client.stop()
    }
}
