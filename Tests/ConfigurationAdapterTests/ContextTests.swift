import ConfigDomain
import ConfigPorts
import Configuration
import ConfigurationAdapter
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// A swift-configuration key's context is the evaluation context the client's targeting rules read.
@Suite("RemoteConfigProvider: a key's context")
struct ContextTests {
    /// `new_checkout` is true in DE; `greeting` is "hej" for the targeting key `sven`.
    struct Rules: TargetingRules {
        let key: String
        func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
            switch key {
            case "new_checkout" where context.attributes["country"] == "DE":
                TargetingDecision(value: true, match: TargetingMatch(ruleID: "de", kind: .rule))
            case "greeting" where context.targetingKey == "sven" && context.attributes["beta"] == true:
                TargetingDecision(value: "hej", match: TargetingMatch(ruleID: "sven", kind: .rule))
            case "limit" where context.attributes["tier"] == 2 && context.attributes["ratio"] == 0.5:
                TargetingDecision(value: 50, match: TargetingMatch(ruleID: "tier2", kind: .rule))
            default:
                .noMatch()
            }
        }
    }

    struct Format: PayloadFormat {
        let name = "rules"
        func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
            let values = try PlainJSONFormat().decode(bytes).values
            return DecodedPayload(
                values: values,
                rules: Dictionary(uniqueKeysWithValues: values.keys.map { ($0, Rules(key: $0) as any TargetingRules) }))
        }
    }

    static let checkout = ConfigDomain.ConfigKey("new_checkout", default: false)

    func client() async throws -> RemoteConfigClient {
        let client = try RemoteConfigClient.builder(
            fetcher: InMemoryFetcher(json: #"{"new_checkout": false, "greeting": "hello", "limit": 10}"#)
        )
        .clock(ManualClock()).payloadFormat(Format()).register(Self.checkout)
        .context(EvaluationContext(attributes: ["country": "US"])).build()
        try await client.refresh()
        return client
    }

    @Test("a ConfigReader read with a context evaluates the targeting rules for it; one without reads the client's context")
    func readerContext() async throws {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let client = try await client()
        let reader = ConfigReader(provider: RemoteConfigProvider(client))
        #expect(reader.bool(forKey: "new_checkout", default: false) == false)
        #expect(reader.bool(forKey: Configuration.ConfigKey("new_checkout", context: ["country": "DE"]), default: false) == true)
        #expect(reader.bool(forKey: Configuration.ConfigKey("new_checkout", context: ["country": "FR"]), default: true) == false)
        // An unregistered name: the raw value the rules serve the context.
        #expect(
            reader.string(forKey: Configuration.ConfigKey("greeting", context: ["targetingKey": "sven", "beta": true])) == "hej")
        #expect(
            reader.string(forKey: Configuration.ConfigKey("greeting", context: ["targetingKey": "anna", "beta": true])) == "hello"
        )
        #expect(reader.int(forKey: Configuration.ConfigKey("limit", context: ["tier": 2, "ratio": 0.5])) == 50)
        let fetched = try await reader.fetchBool(forKey: Configuration.ConfigKey("new_checkout", context: ["country": "DE"]))
        #expect(fetched == true)
        #expect(client.context == EvaluationContext(attributes: ["country": "US"]))
        await client.stop()
    }

    @Test("the mapping: targetingKey is the targeting key, every other member an attribute of its type")
    func mapping() {
        guard #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) else { return }
        let context = EvaluationContextMapping.evaluationContext(of: [
            "targetingKey": "u1", "country": "DE", "age": 31, "ratio": 0.5, "beta": true,
        ])
        #expect(
            context
                == EvaluationContext(targetingKey: "u1", attributes: ["country": "DE", "age": 31, "ratio": 0.5, "beta": true]))
        // A targeting key that is not a string stays an attribute.
        #expect(EvaluationContextMapping.evaluationContext(of: ["targetingKey": 7]).attributes["targetingKey"] == 7)
    }
}
