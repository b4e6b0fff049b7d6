import ConfigDomain
import ConfigPorts
import DefaultsAdapter
import Foundation
import RemoteConfig
import TestDoubles
import Testing

@Suite("UserDefaults override source")
struct UserDefaultsOverrideSourceTests {
    @Test("it reads the registered keys from a suite, with their defaults keys as origins")
    func readsValues() async throws {
        try await withScratchSuite { name, defaults in
            defaults.set(true, forKey: "rc.new_checkout")
            defaults.set(7, forKey: "rc.max_retries")
            defaults.set("12", forKey: "rc.ratio")  // typed in a Settings text field
            defaults.set("unrelated", forKey: "other")
            let source = try UserDefaultsOverrideSource(suiteName: name, keyPrefix: "rc.")
            #expect(source.name == "UserDefaults(\(name))")
            #expect(source.suiteName == name)
            let client = try offlineBuilder().override(source).build()
            #expect(client[AppKeys.newCheckout] == true)
            #expect(client[AppKeys.maxRetries] == 7)
            #expect(client[AppKeys.ratio] == 12.0)
            #expect(
                client.details(AppKeys.maxRetries).layer
                    == .override(source: "UserDefaults(\(name))", position: 0, origin: "UserDefaults(\(name)):rc.max_retries"))
            #expect(client.details(AppKeys.title).layer == .defaultValue)
        }
    }

    @Test("a stored value a rule or the type rejects falls through, and a date is reported as a problem")
    func badValues() async throws {
        try await withScratchSuite { name, defaults in
            defaults.set(1, forKey: "new_checkout")  // 1 is not a Bool
            defaults.set(99, forKey: "max_retries")
            defaults.set(Date(), forKey: "title")
            let observer = RecordingObserver()
            let source = try UserDefaultsOverrideSource(suiteName: name)
            let client = try offlineBuilder().override(source).observer(observer).build()
            #expect(client[AppKeys.newCheckout] == false)
            #expect(client.details(AppKeys.newCheckout).rejected.first?.rule == "type(Bool)")
            #expect(client[AppKeys.maxRetries] == 3)
            #expect(
                source.overrides(for: [AppKeys.title.descriptor]).problems == [
                    "title is ignored: a property list date has no JSON form; use a Boolean, number, string, array or dictionary"
                ])
            #expect(
                observer.events.contains {
                    if case .overrideProblem(let source, _) = $0 { source == "UserDefaults(\(name))" } else { false }
                })
        }
    }

    @Test("a change to the defaults reaches the client through the change notification")
    func changeNotification() async throws {
        try await withScratchSuite { name, defaults in
            let client = try offlineBuilder().override(try UserDefaultsOverrideSource(suiteName: name)).build()
            var updates = client.events().compactMap { if case .activated(let update) = $0 { update } else { nil } }.makeAsyncIterator()
            #expect(client[AppKeys.maxRetries] == 3)
            UserDefaults(suiteName: name)?.set(5, forKey: "max_retries")
            postChange(of: defaults)
            var update = await updates.next()
            while update?.changedKeys.contains("max_retries") != true { update = await updates.next() }
            #expect(update?.cause == .override(source: "UserDefaults(\(name))"))
            #expect(client[AppKeys.maxRetries] == 5)
            defaults.removeObject(forKey: "max_retries")
            postChange(of: defaults)
            update = await updates.next()
            while update?.changedKeys.contains("max_retries") != true { update = await updates.next() }
            #expect(client[AppKeys.maxRetries] == 3)
        }
    }

    @Test("a suite name UserDefaults refuses is a setup mistake that says what to pass instead")
    func refusedSuite() {
        #expect {
            _ = try UserDefaultsOverrideSource(suiteName: "NSGlobalDomain")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.kind == .invalidAdapterSetting && error.message.contains("pass nil for the app's own defaults")
        }
    }

    @Test("it passes the override-source contract")
    func contract() async {
        let report = await OverrideSourceContract<UserDefaultsOverrideSource>(
            subject: "UserDefaultsOverrideSource",
            makeSource: { values in
                let name = "remote-config-contract.\(UUID().uuidString)"
                for (key, text) in values { UserDefaults(suiteName: name)?.set(text, forKey: key) }
                return try UserDefaultsOverrideSource(suiteName: name)
            },
            update: { source, values in
                guard let name = source.suiteName, let defaults = UserDefaults(suiteName: name) else { return }
                for key in defaults.dictionaryRepresentation().keys where values[key] == nil && key.hasPrefix("contract_") {
                    defaults.removeObject(forKey: key)
                }
                for (key, text) in values { defaults.set(text, forKey: key) }
                postChange(of: defaults)
            },
            makeSourceWithMalformedEntry: { values in
                let name = "remote-config-contract.\(UUID().uuidString)"
                for (key, text) in values { UserDefaults(suiteName: name)?.set(text, forKey: key) }
                UserDefaults(suiteName: name)?.set(Data([1, 2]), forKey: "contract_label")
                return try UserDefaultsOverrideSource(suiteName: name)
            },
            discard: { source in source.suiteName.map(removeSuite) }
        ).run()
        report.recordIssues()
        #expect(report.passed)
    }
}
