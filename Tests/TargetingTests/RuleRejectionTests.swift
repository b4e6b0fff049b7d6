import ConfigDomain
import Foundation
import RemoteConfig
import Targeting
import TargetingFormat
import TestDoubles
import Testing

@Suite("Bad rules are rejected alone")
struct RuleRejectionTests {
    /// Four keys: one rule that cannot be parsed, one unknown operator, one that compares an
    /// attribute of the wrong type, and a good one.
    static let payload = #"""
        {
          "values": { "max_retries": 4 },
          "targeting": {
            "new_checkout": { "default": true, "rules": [ { "id": "broken", "when": { "beta": true } } ] },
            "button_color": { "default": "blue", "rules": [ { "id": "typo", "when": { "name": { "$regx": "^a" } }, "value": "red" } ] },
            "banner": { "default": "plain", "rules": [ { "id": "adults", "when": { "age": { "$gte": 18 } }, "value": "adult" } ] }
          }
        }
        """#

    @Test(
        "an unparsable rule, an unknown operator and a mistyped attribute each give a typed, reported rejection; the rest activates"
    )
    func threeRejections() async throws {
        let observer = RecordingObserver()
        let (client, _) = try await targetingClient(
            Self.payload, context: EvaluationContext(targetingKey: "u1", attributes: ["age": "eighteen"]), observer: observer)

        #expect(client[TargetedKeys.retries] == 4)
        #expect(client[TargetedKeys.checkout] == false)
        #expect(client[TargetedKeys.button] == "grey")
        #expect(client[TargetedKeys.banner] == "plain")

        let rejected = observer.events.compactMap { event -> RuleProblem? in
            if case .valueRejected(let rejection) = event { return rejection.targeting }
            return nil
        }
        let unparsable = try #require(rejected.first { $0.key == "new_checkout" })
        #expect(unparsable.ruleID == "broken")
        #expect(unparsable.path == "targeting.new_checkout.rules[0]")
        guard case .unparsable = unparsable.kind else {
            Issue.record("expected unparsable, got \(unparsable.kind)")
            return
        }
        let unknown = try #require(rejected.first { $0.key == "button_color" })
        #expect(unknown.kind == .unknownOperator("$regx", known: ConditionOperator.names))
        #expect(unknown.path == "targeting.button_color.rules[0].when.name.$regx")
        #expect(unknown.description.contains("did you mean \"$regex\"?"))
        let mistyped = try #require(rejected.first { $0.key == "banner" })
        #expect(mistyped.kind == .attributeType(attribute: "age", expected: "number", found: .string))
        #expect(mistyped.description.contains("\"age\""))

        #expect(
            client.details(TargetedKeys.button).rejected.first?.targeting?.kind
                == .unknownOperator("$regx", known: ConditionOperator.names))
        #expect(client.details(TargetedKeys.banner).decision?.unmatched.first?.reason == .problem)
    }

    @Test("a key whose new rules are bad keeps its last good value; fixing the rule brings it back")
    func lastGoodValueIsKept() async throws {
        let good =
            #"{"targeting": {"button_color": {"default": "blue", "rules": [{"id": "de", "when": {"country": "DE"}, "value": "black"}]}}}"#
        let bad =
            #"{"targeting": {"button_color": {"default": "blue", "rules": [{"id": "de", "when": {"country": {"$inn": ["DE"]}}, "value": "black"}]}}}"#
        let (client, fetcher) = try await targetingClient(good, context: EvaluationContext(attributes: ["country": "DE"]))
        #expect(client[TargetedKeys.button] == "black")
        fetcher.serve(json: bad)
        await #expect(throws: ConfigError.self, "the payload's one key is rejected") { try await client.refresh() }
        #expect(client[TargetedKeys.button] == "black")
        #expect(client.details(TargetedKeys.button).layer == .lastGoodSnapshot(source: "memory://config"))
        fetcher.serve(json: good.replacingOccurrences(of: "black", with: "white"))
        _ = try await client.refresh(force: true)  // the failed refresh backs off, like any failure
        #expect(client[TargetedKeys.button] == "white")
    }

    @Test("a whole payload that is not the dialect is refused and the last good state kept")
    func wrongShape() async throws {
        let (client, fetcher) = try await targetingClient(#"{"values": {"max_retries": 5}}"#)
        fetcher.serve(json: #"{"max_retries": 6}"#)
        await #expect(throws: ConfigError.self) { try await client.refresh() }
        #expect(client[TargetedKeys.retries] == 5)
    }
}
