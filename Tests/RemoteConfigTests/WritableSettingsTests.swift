import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// A theme the app lets the user pick; read by its raw value.
enum Theme: String, Sendable, CaseIterable { case light, dark, system }

enum WritableKeys {
    static let theme = ConfigKey("theme", default: Theme.system)
    static let pageSize = ConfigKey("page_size", default: 20, rules: [.range(10...100)])
}

@Suite("Writable settings")
struct WritableSettingsTests {
    /// A client where `theme` is writable in every build and `page_size` in debug builds only.
    func client(
        _ buildKind: BuildKind, remote: String = #"{"theme": "light", "page_size": 30}"#,
        overrides: [any OverrideSource] = []
    ) async throws -> RemoteConfigClient {
        var builder = RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: remote), clock: ManualClock(), keys: [])
            .register {
                WritableKeys.theme.writable(inRelease: true)
                WritableKeys.pageSize.writable()
                Keys.title
            }
            .buildKind(buildKind)
        for source in overrides { builder = builder.override(source) }
        let client = try builder.build()
        try await client.refresh()
        return client
    }

    @Test("a written value wins over the remote snapshot at once, names its layer, and is published as a write")
    func writeApplies() async throws {
        let client = try await client(.debug)
        var updates = client.updates().makeAsyncIterator()
        try client.set(WritableKeys.theme, .dark)
        #expect(client[WritableKeys.theme] == .dark)
        #expect(client.explain(WritableKeys.theme).layer == .writableSetting(store: "memory"))
        let update = await updates.next()
        #expect(update?.cause == .write(key: "theme"))
        #expect(update?.changedKeys == ["theme"])
    }

    @Test("a value a rule rejects is refused with the rule's reason, and the previous value stays")
    func ruleRejects() async throws {
        let client = try await client(.debug)
        try client.set(WritableKeys.pageSize, 50)
        #expect {
            try client.set(WritableKeys.pageSize, 500)
        } throws: { error in
            guard case .rejected(let rejection) = error as? ConfigError else { return false }
            return rejection.rule == "range(10...100)" && rejection.reason == "500 is outside 10...100"
                && rejection.origin == "memory"
        }
        #expect(client[WritableKeys.pageSize] == 50)
    }

    @Test("reset removes the written value: the remote value shows again")
    func reset() async throws {
        let client = try await client(.debug)
        try client.set(WritableKeys.theme, .dark)
        try client.reset(WritableKeys.theme)
        #expect(client[WritableKeys.theme] == .light)
        #expect(client.explain(WritableKeys.theme).layer == .snapshot(source: "memory://config"))
    }

    @Test("the release lock: in a release build only keys declared writable in release take writes")
    func releaseLock() async throws {
        let client = try await client(.release)
        #expect {
            try client.set(WritableKeys.pageSize, 50)
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .notWritable && problem.message.contains("locked in release builds")
                && problem.message.contains("writable(inRelease: true)")
        }
        #expect(client[WritableKeys.pageSize] == 30)
        #expect {
            try client.reset(WritableKeys.pageSize)
        } throws: { error in
            if case .configuration(let problem) = error as? ConfigError { problem.kind == .notWritable } else { false }
        }
        try client.set(WritableKeys.theme, .dark)
        #expect(client[WritableKeys.theme] == .dark)
    }

    @Test("a read-only key, or one not registered, cannot be written, and the message says how to allow it")
    func notWritable() async throws {
        let client = try await client(.debug)
        #expect {
            try client.set(Keys.title, "Hi")
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .notWritable && problem.message.contains("is read-only")
        }
        #expect {
            try client.set(Keys.flag, true)
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .notWritable && problem.message.contains("is not registered")
        }
    }

    @Test("an override still wins over a written value")
    func overridesWin() async throws {
        let source = InMemoryOverrideSource(name: "debug", values: ["theme": .text("light")])
        let client = try await client(.debug, overrides: [source])
        try client.set(WritableKeys.theme, .dark)
        #expect(client[WritableKeys.theme] == .light)
        #expect(client.explain(WritableKeys.theme).layer.isOverride)
    }

    @Test("a key registered writable twice with different release access is a setup mistake")
    func conflictingAccess() {
        #expect {
            _ = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: "{}"))
                .register {
                    WritableKeys.theme.writable(); WritableKeys.theme.writable(inRelease: true)
                }
                .build()
        } throws: { error in
            guard case .configuration(let problem) = error as? ConfigError else { return false }
            return problem.kind == .conflictingKey && problem.message.contains("registered writable twice")
        }
    }
}
