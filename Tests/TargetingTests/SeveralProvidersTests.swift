import ConfigDomain
import Foundation
import RemoteConfig
import TargetingFormat
import TestDoubles
import Testing

@Suite("Targeting with several providers")
struct SeveralProvidersTests {
    /// The main provider's payload (precedence 0): plain values, and rules for `new_checkout`.
    static let main = #"""
        {
          "values": { "button_color": "green", "banner": "main" },
          "targeting": { "new_checkout": { "default": false, "rules": [ { "id": "pro", "when": { "plan": "pro" }, "value": true } ] } }
        }
        """#
    /// The experiments provider's payload (precedence 10): rules without a default for `button_color`.
    static let experiments = #"""
        { "targeting": { "button_color": { "rules": [ { "id": "germany", "when": { "country": "DE" }, "value": "black" } ] } } }
        """#

    func client(context: EvaluationContext) async throws -> RemoteConfigClient {
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: Self.main, source: "memory://main"))
            .clock(ManualClock())
            .payloadFormat(TargetingJSONFormat())
            .fetcher(
                InMemoryFetcher(json: Self.experiments, source: "memory://experiments"), name: "experiments", precedence: 10
            )
            .context(context)
            .register(TargetedKeys.all)
            .build()
        _ = try await client.refresh()
        return client
    }

    @Test("every provider's rules see the one context; a provider whose rules decide nothing leaves the key to the next")
    func oneContextForEveryProvider() async throws {
        let client = try await client(context: EvaluationContext(attributes: ["country": "FR", "plan": "pro"]))
        #expect(client[TargetedKeys.button] == "green")
        #expect(client.details(TargetedKeys.button).layer == .snapshot(source: "memory://main"))
        #expect(client[TargetedKeys.checkout] == true)
        #expect(client.details(TargetedKeys.checkout).decision?.match?.ruleID == "pro")

        let changed = client.updateContext { $0.attributes["country"] = "DE" }
        #expect(changed == ["button_color"])
        #expect(client[TargetedKeys.button] == "black")
        let explanation = client.details(TargetedKeys.button)
        #expect(explanation.provider == "experiments")
        #expect(explanation.layer == .snapshot(source: "memory://experiments"))
        #expect(explanation.decision?.match?.ruleID == "germany")
        #expect(client[TargetedKeys.checkout] == true)
        #expect(client[TargetedKeys.banner] == "main")

        #expect(Set(client.updateContext { $0 = EvaluationContext(attributes: ["country": "FR"]) }) == ["button_color", "new_checkout"])
        #expect(client[TargetedKeys.button] == "green")
        #expect(client[TargetedKeys.checkout] == false)
        #expect(client.details(TargetedKeys.button).provider == "default")
    }
}
