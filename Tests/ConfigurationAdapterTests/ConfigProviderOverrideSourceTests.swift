import ConfigDomain
import Configuration
import ConfigurationAdapter
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// ``ConfigProviderOverrideSource``: swift-configuration providers as override sources of a client.
@Suite("ConfigProviderOverrideSource")
struct ConfigProviderOverrideSourceTests {
    enum Keys {
        static let flag = ConfigDomain.ConfigKey("new_checkout", default: false)
        static let retries = ConfigDomain.ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        static let ratio = ConfigDomain.ConfigKey("ratio", default: 0.5)
        static let title = ConfigDomain.ConfigKey("title", default: "Welcome")
        static let ports = ConfigDomain.ConfigKey("ports", default: [80])
        static let tags = ConfigDomain.ConfigKey("tags", default: [String]())
        static let token = ConfigDomain.ConfigKey("api_token", default: "", secret: true)
        struct Banner: Codable, Sendable, Equatable { var title: String }
        static let banner = ConfigDomain.ConfigKey(decoding: "banner", default: Banner(title: "none"))
        static let all: [any ConfigKeyRepresentable] = [flag, retries, ratio, title, ports, tags, token, banner]
    }

    static let remote = #"{"new_checkout": false, "max_retries": 2, "ratio": 0.25, "title": "Remote"}"#

    @Test("an in-memory provider's values win over remote ones, with the provider's key as their origin")
    func inMemoryProvider() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let provider = InMemoryProvider(
            name: "ops",
            values: [
                "new_checkout": true, "max_retries": 8, "ratio": 0.75, "title": "Local",
                "ports": Configuration.ConfigValue(.intArray([8080, 8443]), isSecret: false),
            ])
        let (client, _) = try await refreshedClient(
            Self.remote, keys: Keys.all, overrides: [ConfigProviderOverrideSource(provider)])
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 8)
        #expect(client[Keys.ratio] == 0.75)
        #expect(client[Keys.title] == "Local")
        #expect(client[Keys.ports] == [8080, 8443])
        #expect(
            client.details(Keys.retries).layer == .override(source: "InMemoryProvider[ops]", position: 0, origin: "max_retries"))
        await client.stop()
    }

    @Test("an environment provider overrides by the key's name in capitals, text read as each key's type")
    func environmentProvider() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let environment = EnvironmentVariablesProvider(environmentVariables: [
            "NEW_CHECKOUT": "true", "MAX_RETRIES": "9", "PORTS": "81,82", "TAGS": "a,b",
            "BANNER": #"{"title": "From env"}"#, "UNRELATED": "x",
        ])
        let source = ConfigProviderOverrideSource(environment, name: "environment")
        let (client, _) = try await refreshedClient(Self.remote, keys: Keys.all, overrides: [source])
        #expect(client[Keys.flag] == true)
        #expect(client[Keys.retries] == 9)
        #expect(client[Keys.ports] == [81, 82])
        #expect(client[Keys.tags] == ["a", "b"], "a [String] key asks for a string array")
        #expect(client[Keys.banner] == Keys.Banner(title: "From env"), "a structured key reads JSON text")
        #expect(client[Keys.title] == "Remote", "no variable: the remote value")
        #expect(client.details(Keys.retries).layer == .override(source: "environment", position: 0, origin: "MAX_RETRIES"))
        await client.stop()
    }

    @Test("a value the provider cannot give as the key's type is a problem, reported; the remote value stays")
    func unreadableValue() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let observer = RecordingObserver()
        let environment = EnvironmentVariablesProvider(environmentVariables: ["MAX_RETRIES": "lots", "NEW_CHECKOUT": "true"])
        let (client, _) = try await refreshedClient(
            Self.remote, keys: Keys.all, overrides: [ConfigProviderOverrideSource(environment, name: "environment")],
            observer: observer)
        #expect(client[Keys.retries] == 2)
        #expect(client[Keys.flag] == true)
        let problems = observer.events.compactMap { event -> String? in
            if case .overrideProblem("environment", let message) = event { message } else { nil }
        }
        #expect(problems.count == 1)
        #expect(problems.first?.contains(#""max_retries" that does not read as int"#) == true)
        #expect(problems.first?.contains("it does not override") == true)
        await client.stop()
    }

    @Test("a value the rules reject is rejected as any override is, and the remote value stays")
    func rejectedValue() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let provider = InMemoryProvider(values: ["max_retries": 99])
        let (client, _) = try await refreshedClient(
            Self.remote, keys: Keys.all, overrides: [ConfigProviderOverrideSource(provider)])
        #expect(client[Keys.retries] == 2)
        #expect(client.details(Keys.retries).rejected.first?.origin == "max_retries")
        await client.stop()
    }

    @Test("a secret key's problem never shows the provider's message")
    func secretProblem() {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let provider = InMemoryProvider(values: ["api_token": Configuration.ConfigValue(.int(123_456_789), isSecret: true)])
        let snapshot = ConfigProviderOverrideSource(provider).overrides(for: [Keys.token.descriptor])
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems.count == 1)
        #expect(snapshot.problems.first?.contains("details are hidden because the key is secret") == true)
        #expect(snapshot.problems.first?.contains("123456789") == false)
    }

    @Test("changes in a mutable provider reach the client's values")
    func changePropagation() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let provider = MutableInMemoryProvider(initialValues: ["max_retries": 5])
        let (client, _) = try await refreshedClient(
            Self.remote, keys: Keys.all, overrides: [ConfigProviderOverrideSource(provider, name: "live")])
        var values = client.watch(Keys.retries).makeAsyncIterator()
        #expect(await values.next() == 5)
        provider.setValue(7, forKey: "max_retries")
        #expect(await values.next() == 7)
        provider.setValue(nil, forKey: "max_retries")
        #expect(await values.next() == 2, "the override removed: the remote value")
        await client.stop()
    }

    @Test("an immutable provider's changes yield its state once, and end when the consumer is cancelled")
    func immutableChanges() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let source = ConfigProviderOverrideSource(InMemoryProvider(values: ["title": "Local"]))
        let (received, signal) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var seen: [OverrideSnapshot] = []
            for await snapshot in source.changes(for: [Keys.title.descriptor]) {
                seen.append(snapshot)
                signal.yield()
            }
            return seen
        }
        var iterator = received.makeAsyncIterator()
        _ = await iterator.next()
        consumer.cancel()
        let seen = await consumer.value
        #expect(seen.map { $0.values["title"]?.content } == [.text("Local")])
    }

    @Test("a provider whose watch fails: the current overrides with the problem, then the changes end")
    func failingWatch() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let source = ConfigProviderOverrideSource(FailingWatchProvider(values: ["title": "Local"]))
        var seen: [OverrideSnapshot] = []
        for await snapshot in source.changes(for: [Keys.title.descriptor]) { seen.append(snapshot) }
        #expect(seen.count == 1)
        #expect(seen.first?.values["title"]?.content == .text("Local"))
        #expect(seen.first?.problems.first?.contains("watching FailingWatchProvider failed") == true)
        #expect(seen.first?.problems.first?.contains("no longer follow changes") == true)
    }

    @Test("the type asked for follows the key's type; a type the library does not know reads text")
    func requestedTypes() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        enum Mode: Int, Sendable { case slow = 1, fast = 2 }
        let provider = InMemoryProvider(values: [
            "flags": Configuration.ConfigValue(.boolArray([true]), isSecret: false),
            "ratios": Configuration.ConfigValue(.doubleArray([0.5]), isSecret: false),
            "names": Configuration.ConfigValue(.stringArray(["x"]), isSecret: false),
            "nested": "[[1]]", "mode": 2,
        ])
        let keys = [
            ConfigDomain.ConfigKey("flags", default: [false]).descriptor,
            ConfigDomain.ConfigKey("ratios", default: [0.0]).descriptor,
            ConfigDomain.ConfigKey("names", default: ["y"]).descriptor,
            ConfigDomain.ConfigKey("nested", default: [[0]]).descriptor,
            ConfigDomain.ConfigKey("mode", default: Mode.slow).descriptor,
        ]
        let snapshot = ConfigProviderOverrideSource(provider).overrides(for: keys)
        #expect(snapshot.problems.isEmpty, "\(snapshot.problems)")
        #expect(snapshot.values["flags"]?.content == .value([true]))
        #expect(snapshot.values["ratios"]?.content == .value([0.5]))
        #expect(snapshot.values["names"]?.content == .value(["x"]))
        #expect(snapshot.values["nested"]?.content == .text("[[1]]"), "an array of arrays asks for JSON text")
        #expect(snapshot.values["mode"]?.content == .value(2), "an enum asks for its raw value's type")
        let bytes = InMemoryProvider(values: ["blob": Configuration.ConfigValue(.bytes(Array("magic".utf8)), isSecret: false)])
        let blob = ConfigProviderOverrideSource(bytes).overrides(for: [ConfigDomain.ConfigKey("blob", default: "").descriptor])
        #expect(blob.values.isEmpty)
        #expect(blob.problems.count == 1, "a String key asks for a string; bytes are another type")
    }

    @Test("passes the override-source contract, over a mutable provider")
    func contract() async {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let report = await OverrideSourceContract<MutableProviderSource>(
            subject: "ConfigProviderOverrideSource(MutableInMemoryProvider)",
            makeSource: { values in MutableProviderSource(values) },
            update: { source, values in source.replace(with: values) },
            makeSourceWithMalformedEntry: { values in
                let source = MutableProviderSource(values)
                source.provider.setValue(5, forKey: "contract_label")  // an int for a String key: a problem
                return source
            }
        ).run()
        report.recordIssues()
        #expect(report.passed)
    }
}
