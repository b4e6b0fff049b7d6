import ConfigDomain
import Testing

@testable import UnleashFormat

/// What `explain(key)` shows through the core's ``TargetingDecision``: the strategy or constraint
/// that decided, the stickiness bucket and its range, the attributes read, and what did not match.
@Suite("Provenance")
struct ProvenanceTests {
    static let json = payload([
        feature(
            "checkout",
            strategy: """
                {"id": "beta-de", "name": "default", "constraints": [{"contextName": "country", "operator": "IN", "values": ["DE"]}]},
                {"name": "flexibleRollout", "parameters": {"rollout": "30", "stickiness": "userId", "groupId": "checkout"},
                 "variants": [{"name": "green", "weight": 1}, {"name": "blue", "weight": 1}]}
                """,
            extra: #""variants": [{"name": "red", "weight": 1, "overrides": [{"contextName": "userId", "values": ["vip"]}]}]"#),
        #"{"name": "child", "enabled": true, "strategies": [], "dependencies": [{"feature": "checkout"}]}"#,
    ])

    @Test("a constraint that decided: the strategy's id, the attributes read")
    func constraintMatch() throws {
        let payload = try decode(Self.json)
        let decision = try #require(payload.decision("checkout", context(["country": "DE"], key: "u1")))
        #expect(decision.value == .bool(true))
        #expect(decision.match == TargetingMatch(ruleID: "beta-de", kind: .rule))
        #expect(decision.attributesRead == ["country"])
        #expect(decision.unmatched.isEmpty)
    }

    @Test("a rollout that decided: the bucket (1 … 100) and the range it fell in; the constraint that failed before it")
    func rolloutMatch() throws {
        let payload = try decode(Self.json)
        // Find a user inside the 30% rollout, then check what the decision says about them.
        let user = try #require(
            (0..<200).map { "user-\($0)" }.first { UnleashHash.strategyValue(id: $0, groupId: "checkout") <= 30 })
        let bucket = Double(UnleashHash.strategyValue(id: user, groupId: "checkout"))
        let decision = try #require(payload.decision("checkout", context(["country": "FR"], key: user)))
        #expect(decision.value == .bool(true))
        #expect(
            decision.match
                == TargetingMatch(
                    ruleID: "strategies[1]:flexibleRollout", kind: .rollout,
                    bucket: BucketPlacement(attribute: "userId", value: bucket, lower: 1, upper: 30)))
        #expect(decision.attributesRead == ["country", "targetingKey"])
        #expect(
            decision.unmatched == [UnmatchedRule(ruleID: "beta-de", reason: .other("constraint country IN [\"DE\"] is false"))])
        #expect(decision.description.contains("rollout \"strategies[1]:flexibleRollout\""))
    }

    @Test("outside the rollout: the bucket that missed")
    func outsideRollout() throws {
        let payload = try decode(Self.json)
        let user = try #require(
            (0..<200).map { "user-\($0)" }.first { UnleashHash.strategyValue(id: $0, groupId: "checkout") > 30 })
        let decision = try #require(payload.decision("checkout", context([:], key: user)))
        #expect(decision.value == .bool(false))
        #expect(decision.match == nil)
        guard case .outsideRollout(let placement)? = decision.unmatched.last?.reason else {
            Issue.record("expected outside rollout, got \(decision.unmatched)")
            return
        }
        #expect(placement.value > 30 && placement.upper == 30)
    }

    @Test("a strategy variant: its bucket within the total weight and its share")
    func variantMatch() throws {
        let payload = try decode(Self.json)
        let decision = try #require(payload.decision("checkout.variant", context(["country": "DE"], key: "u1")))
        let bucket = UnleashHash.variantValue(id: "u1", groupId: "checkout", totalWeight: 1)
        #expect(decision.value == .string("red"))
        #expect(
            decision.match
                == TargetingMatch(
                    ruleID: "variants", kind: .rollout,
                    bucket: BucketPlacement(attribute: "userId", value: Double(bucket), lower: 1, upper: 1), variant: "red"))

        let inRollout = try #require(
            (0..<200).map { "user-\($0)" }.first { UnleashHash.strategyValue(id: $0, groupId: "checkout") <= 30 })
        let strategyVariant = try #require(payload.decision("checkout.variant", context([:], key: inRollout)))
        #expect(strategyVariant.match?.ruleID == "strategies[1]:flexibleRollout variants")
        #expect(strategyVariant.match?.bucket?.upper == (strategyVariant.value == "green" ? 1 : 2))
    }

    @Test("an override decides as a rule")
    func override() throws {
        let payload = try decode(Self.json)
        let decision = try #require(payload.decision("checkout.variant", context(["country": "DE"], key: "vip")))
        #expect(decision.match == TargetingMatch(ruleID: "variants[0].overrides", kind: .rule, variant: "red"))
    }

    @Test("an unmet dependency names its parent")
    func dependency() throws {
        let payload = try decode(Self.json)
        let outside = try #require(
            (0..<200).map { "user-\($0)" }.first { UnleashHash.strategyValue(id: $0, groupId: "checkout") > 30 })
        let decision = try #require(payload.decision("child", context(["country": "FR"], key: outside)))
        #expect(decision.value == .bool(false))
        #expect(decision.unmatched.first == UnmatchedRule(ruleID: "dependencies[0]", reason: .prerequisiteFailed("checkout")))
        let met = try #require(payload.decision("child", context(["country": "DE"])))
        #expect(met.value == .bool(true))
        #expect(met.attributesRead == ["country"])
    }

    @Test("unmatched rules are capped at the core's limit")
    func unmatchedLimit() throws {
        let strategies = (0..<5).map { _ in #"{"name": "userWithId", "parameters": {"userIds": "x"}}"# }.joined(separator: ",")
        let payload = try decode(payload([feature("f", strategy: strategies)]))
        #expect(payload.decision("f", context([:], key: "u"))?.unmatched.count == TargetingDecision.unmatchedLimit)
    }
}
