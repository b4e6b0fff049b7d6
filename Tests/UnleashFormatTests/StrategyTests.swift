import ConfigDomain
import Testing

@testable import UnleashFormat

/// Each built-in strategy, with examples from Unleash's activation-strategy documentation
/// (docs.getunleash.io, "Activation strategies" and "Stickiness").
@Suite("Strategies")
struct StrategyTests {
    @Test("default: on for everyone")
    func standard() throws {
        let payload = try decode(payload([feature("f", strategy: "{\"name\": \"default\"}")]))
        #expect(payload.isEnabled("f"))
        #expect(payload.isEnabled("f", context([:], key: "anyone")))
    }

    @Test("a feature whose switch is off is off, whatever its strategies")
    func disabledFeature() throws {
        let payload = try decode(payload(["{\"name\": \"f\", \"enabled\": false, \"strategies\": [{\"name\": \"default\"}]}"]))
        #expect(!payload.isEnabled("f", context([:], key: "u1")))
        #expect(payload.decision("f")?.unmatched.first?.reason == .other("the feature is disabled"))
    }

    @Test("userWithId: on for the user ids in the comma-separated list")
    func userWithId() throws {
        let strategy = "{\"name\": \"userWithId\", \"parameters\": {\"userIds\": \"user1@example.com, user2@example.com\"}}"
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        #expect(payload.isEnabled("f", context([:], key: "user2@example.com")))
        #expect(!payload.isEnabled("f", context([:], key: "user3@example.com")))
        #expect(!payload.isEnabled("f"))
    }

    @Test("gradualRolloutUserId: a percentage of user ids, hashed with the group id; none without a user id")
    func gradualRolloutUserId() throws {
        let strategy = "{\"name\": \"gradualRolloutUserId\", \"parameters\": {\"percentage\": \"50\", \"groupId\": \"AB12A\"}}"
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        #expect(payload.isEnabled("f", context([:], key: "122")))  // bucket 23
        #expect(!payload.isEnabled("f", context([:], key: "155")))  // bucket 100
        #expect(!payload.isEnabled("f"))
        #expect(payload.decision("f")?.unmatched.first?.reason == .attributeMissing("userId"))
    }

    @Test("gradualRolloutSessionId: a percentage of session ids")
    func gradualRolloutSessionId() throws {
        let strategy = "{\"name\": \"gradualRolloutSessionId\", \"parameters\": {\"percentage\": \"50\", \"groupId\": \"AB12A\"}}"
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        #expect(payload.isEnabled("f", context(["sessionId": "122"])))
        #expect(!payload.isEnabled("f", context(["sessionId": "155"])))
        #expect(!payload.isEnabled("f", context([:], key: "122")))
    }

    @Test("gradualRolloutRandom: 0% is never on, 100% always")
    func gradualRolloutRandom() throws {
        let none = "{\"name\": \"gradualRolloutRandom\", \"parameters\": {\"percentage\": \"0\"}}"
        let all = "{\"name\": \"gradualRolloutRandom\", \"parameters\": {\"percentage\": \"100\"}}"
        let payload = try decode(payload([feature("none", strategy: none), feature("all", strategy: all)]))
        for _ in 0..<200 {
            #expect(!payload.isEnabled("none"))
            #expect(payload.isEnabled("all"))
        }
    }

    @Test(
        "flexibleRollout stickiness: default is userId, then sessionId, then random; userId and sessionId need the field",
        arguments: [
            ("default", ["userId": "174"], true), ("default", ["sessionId": "174"], true), ("default", ["userId": "499"], false),
            ("userId", ["userId": "174"], true), ("userId", ["sessionId": "174"], false),
            ("sessionId", ["sessionId": "174"], true), ("sessionId", ["userId": "174"], false),
            ("customField", ["customField": "174"], true), ("customField", ["properties": ["customField": "174"]], true),
            ("customField", [:], false),
        ] as [(String, [String: ConfigValue], Bool)])
    func flexibleStickiness(stickiness: String, attributes: [String: ConfigValue], expected: Bool) throws {
        // Bucket of "174" in group "Feature.flexibleRollout.10" is 10, of "499" is 32.
        let strategy = """
            {"name": "flexibleRollout", "parameters": {"rollout": "10", "stickiness": "\(stickiness)", "groupId": "Feature.flexibleRollout.10"}}
            """
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        #expect(payload.isEnabled("f", context(attributes)) == expected)
    }

    @Test("flexibleRollout: the group id defaults to the feature's name; 0% is off, 100% on even without an id")
    func flexibleDefaults() throws {
        let named = "{\"name\": \"flexibleRollout\", \"parameters\": {\"rollout\": \"10\", \"stickiness\": \"userId\"}}"
        let zero = "{\"name\": \"flexibleRollout\", \"parameters\": {\"rollout\": \"0\", \"stickiness\": \"random\"}}"
        let full = "{\"name\": \"flexibleRollout\", \"parameters\": {\"rollout\": 100, \"stickiness\": \"default\"}}"
        let payload = try decode(
            payload([
                feature("Feature.flexibleRollout.10", strategy: named), feature("zero", strategy: zero),
                feature("full", strategy: full),
            ]))
        #expect(payload.isEnabled("Feature.flexibleRollout.10", context([:], key: "174")))
        #expect(!payload.isEnabled("Feature.flexibleRollout.10", context([:], key: "499")))
        #expect(!payload.isEnabled("zero", context([:], key: "174")))
        #expect(payload.isEnabled("full"))
    }

    @Test(
        "remoteAddress: IPs and CIDR ranges, IPv4 and IPv6; invalid entries are ignored",
        arguments: [
            ("192.168.0.1", true), ("10.1.2.3", true), ("10.255.0.1", true), ("11.0.0.1", false),
            // An IPv4-mapped address is an IPv6 address, as in Unleash's engine: not in 10.0.0.0/8.
            ("2001:db8::1", true), ("2001:db8:0:ffff::42", true), ("2001:db9::1", false), ("::ffff:10.0.0.9", false),
            ("fe80::1", true), ("not-an-ip", false),
        ])
    func remoteAddress(address: String, expected: Bool) throws {
        let strategy = """
            {"name": "remoteAddress", "parameters": {"IPs": "192.168.0.1, 192.invalid, 10.0.0.0/8, 2001:db8::/32, fe80::1"}}
            """
        let payload = try decode(payload([feature("f", strategy: strategy)]))
        #expect(payload.isEnabled("f", context(["remoteAddress": .string(address)])) == expected)
        #expect(payload.rules["f"]?.lint().count == 1, "the invalid entry is reported")
    }

    @Test("applicationHostname: the host name, in any case, is in the list")
    func applicationHostname() throws {
        let strategy = "{\"name\": \"applicationHostname\", \"parameters\": {\"hostNames\": \"api-1, API-2\"}}"
        let json = payload([feature("f", strategy: strategy)])
        #expect(try decode(json, format: UnleashFormat(hostname: "Api-2")).isEnabled("f"))
        #expect(try decode(json, format: UnleashFormat(hostname: "api-1")).isEnabled("f"))
        #expect(try !decode(json, format: UnleashFormat(hostname: "worker-1")).isEnabled("f"))
    }

    @Test("an unknown (custom) strategy is off and reported; the feature's other strategies still apply")
    func unknownStrategy() throws {
        let strategies =
            "{\"name\": \"myCustomStrategy\", \"parameters\": {}}, {\"name\": \"userWithId\", \"parameters\": {\"userIds\": \"u1\"}}"
        let payload = try decode(payload([feature("f", strategy: strategies)]))
        #expect(!payload.isEnabled("f", context([:], key: "u2")))
        #expect(payload.isEnabled("f", context([:], key: "u1")))
        let warning = try #require(payload.rules["f"]?.lint().first)
        guard case .unparsable(let why) = warning.kind else { Issue.record("unexpected kind \(warning.kind)"); return }
        #expect(why.contains("unknown strategy \"myCustomStrategy\""))
        #expect(
            payload.decision("f", context([:], key: "u2"))?.unmatched.first?.reason
                == .other("unknown strategy \"myCustomStrategy\""))
    }

    @Test("no strategies means on; several strategies: any one enables")
    func strategyLists() throws {
        let payload = try decode(
            payload([
                "{\"name\": \"bare\", \"enabled\": true, \"strategies\": []}",
                feature(
                    "any",
                    strategy:
                        "{\"name\": \"gradualRolloutRandom\", \"parameters\": {\"percentage\": \"0\"}}, {\"name\": \"default\"}"),
            ]))
        #expect(payload.isEnabled("bare"))
        #expect(payload.isEnabled("any"))
        #expect(payload.decision("any")?.match?.ruleID == "strategies[1]:default")
    }
}
