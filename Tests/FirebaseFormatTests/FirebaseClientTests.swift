import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// A server template read through a client: what a read serves agrees with what `details` reports,
/// for the client's own context and for one given with the call.
@Suite("Firebase templates through a client")
struct FirebaseClientTests {
    static let template = #"""
        {"conditions": [
           {"name": "new_app", "condition": {"customSignal": {"customSignalOperator": "SEMANTIC_VERSION_GREATER_EQUAL",
             "customSignalKey": "app_version", "targetCustomSignalValues": ["2.4"]}}},
           {"name": "broken", "condition": {"customSignal": {"customSignalOperator": "STRING_BEGINS", "customSignalKey": "x",
             "targetCustomSignalValues": ["y"]}}},
           {"name": "tenth", "condition": {"percent": {"percentOperator": "LESS_OR_EQUAL", "seed": "beta", "microPercent": 38625758}}}],
         "parameters": {
           "max_items": {"defaultValue": {"value": "20"}, "valueType": "NUMBER",
                         "conditionalValues": {"new_app": {"value": "50"}, "tenth": {"useInAppDefault": true}}},
           "welcome": {"defaultValue": {"value": "Hi"}, "conditionalValues": {"broken": {"value": "never"}, "tenth": {"value": "Hi, tester"}}},
           "theme": {"defaultValue": {"value": "light"}}}}
        """#
    static let maxItems = ConfigKey("max_items", default: 5)
    static let welcome = ConfigKey("welcome", default: "Hello")
    static let theme = ConfigKey("theme", default: "dark")

    private func client(context: EvaluationContext = .empty) async throws -> RemoteConfigClient {
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: Self.template)).clock(ManualClock())
            .payloadFormat(FirebaseTemplateFormat()).register(Self.maxItems, Self.welcome, Self.theme).context(context).build()
        try await client.refresh()
        return client
    }

    @Test("a matched condition serves its value with TARGETING_MATCH and the condition's name; none serves the default")
    func matchAndDefault() async throws {
        let client = try await client()
        let newApp = EvaluationContext(targetingKey: "user-3", attributes: ["app_version": "2.10"])
        #expect(client[Self.maxItems, for: newApp] == 50)
        let details = client.details(Self.maxItems, for: newApp)
        #expect(details.reason == .targetingMatch)
        #expect(details.decision?.match?.ruleID == "new_app")
        #expect(details.decision?.attributesRead == ["app_version"])
        let oldApp = EvaluationContext(targetingKey: "user-3", attributes: ["app_version": "2.3.9"])
        #expect(client[Self.maxItems, for: oldApp] == 20)
        #expect(client.details(Self.maxItems, for: oldApp).reason == .defaultValue)
        #expect(client.details(Self.theme, for: oldApp).reason == .staticValue)
        #expect(client[Self.theme, for: oldApp] == "light")
    }

    @Test("useInAppDefault from a matched condition serves the key's own default, reason DEFAULT, naming the condition")
    func inAppDefaultFromACondition() async throws {
        let client = try await client()
        // With the seed "beta", user-1 is at micro-percentile 38625758 (inside "tenth"), user-3 at 46413692 (outside).
        let tester = EvaluationContext(targetingKey: "user-1", attributes: ["app_version": "1.0"])
        #expect(client[Self.maxItems, for: tester] == 5)
        let details = client.details(Self.maxItems, for: tester)
        #expect(details.reason == .defaultValue)
        #expect(details.layer == .defaultValue)
        #expect(details.decision?.match?.ruleID == "tenth")
        #expect(client[Self.welcome, for: tester] == "Hi, tester")
        // The randomization id can also be the attribute randomizationId.
        #expect(client[Self.welcome, for: EvaluationContext(attributes: ["randomizationId": "user-1"])] == "Hi, tester")
    }

    @Test("the client's own context decides reads, and a context change re-evaluates the conditions")
    func ownContext() async throws {
        let client = try await client(context: EvaluationContext(targetingKey: "user-3", attributes: ["app_version": "3"]))
        #expect(client[Self.maxItems] == 50)
        _ = client.updateContext { $0 = EvaluationContext(targetingKey: "user-3", attributes: ["app_version": "1"]) }
        #expect(client[Self.maxItems] == 20)
        #expect(client.details(Self.maxItems).reason == .defaultValue)
    }

    @Test("a condition that cannot be read is rejected alone: a rejection names it, the next condition still serves")
    func unreadableConditionIsRejectedAlone() async throws {
        let client = try await client()
        let tester = EvaluationContext(targetingKey: "user-1")
        #expect(client[Self.welcome, for: tester] == "Hi, tester")
        let details = client.details(Self.welcome, for: tester)
        #expect(details.reason == .targetingMatch)
        let rejection = try #require(details.rejected.first)
        #expect(rejection.targeting?.ruleID == "broken")
        #expect(rejection.targeting?.path == "conditions[1].condition.customSignal.customSignalOperator")
        #expect(rejection.description.contains("STRING_BEGINS"))
        #expect(client[Self.welcome, for: EvaluationContext(targetingKey: "user-3")] == "Hi")
    }
}
