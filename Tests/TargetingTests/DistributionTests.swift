import ConfigDomain
import Foundation
import Targeting
import TargetingFormat
import Testing

@Suite("Rollout distribution and stability")
struct DistributionTests {
    static let payload = #"""
        {
          "values": { "max_retries": 4 },
          "targeting": {
            "button_color": {
              "default": "grey",
              "rollouts": [ { "id": "button-test", "seed": "button-test",
                              "variants": [ { "name": "blue", "value": "blue", "weight": 0.3 },
                                            { "name": "green", "value": "green", "weight": 0.7 } ] } ]
            }
          }
        }
        """#

    /// The same payload after unrelated edits: another value, another targeted key, a new rule before the rollout that nobody matches.
    static let editedPayload = #"""
        {
          "values": { "max_retries": 7, "banner": "spring" },
          "targeting": {
            "new_checkout": { "default": false, "rollouts": [ { "id": "other", "coverage": 0.5, "variants": [ { "value": true } ] } ] },
            "button_color": {
              "default": "grey",
              "rules": [ { "id": "nobody", "when": { "plan": "enterprise-2031" }, "value": "red" } ],
              "rollouts": [ { "id": "button-test", "seed": "button-test",
                              "variants": [ { "name": "blue", "value": "blue", "weight": 0.3 },
                                            { "name": "green", "value": "green", "weight": 0.7 } ] } ]
            }
          }
        }
        """#

    static func assignments(_ json: String, count: Int) throws -> [ConfigValue?] {
        let rules = try rules(of: "button_color", in: json)
        return (0..<count).map { rules.evaluate(in: EvaluationContext(targetingKey: userID($0)), explaining: true).value }
    }

    @Test(
        "100,000 ids in a 30/70 rollout land within ±1% of 30/70, identically across runs and after an unrelated payload change")
    func thirtySeventy() throws {
        let count = 100_000
        #expect(userID(0).count == 36 && userID(99_999).count == 36)
        let first = try Self.assignments(Self.payload, count: count)
        let blue = first.filter { $0 == "blue" }.count
        let green = first.filter { $0 == "green" }.count
        #expect(blue + green == count)
        #expect(abs(Double(blue) / Double(count) - 0.3) <= 0.01, "blue: \(blue)")
        #expect(abs(Double(green) / Double(count) - 0.7) <= 0.01, "green: \(green)")
        #expect(try Self.assignments(Self.payload, count: count) == first)
        #expect(try Self.assignments(Self.editedPayload, count: count) == first)
    }

    @Test("a bucket is pinned to the documented hash: the same numbers on every platform")
    func pinnedBuckets() throws {
        // GrowthBook hash version 2 of seed "button-test": these values are platform independent.
        #expect(FNV1a.hash("a") == 0xE40C_292C)
        let rules = try rules(of: "button_color", in: Self.payload)
        let expected: [(id: String, bucket: Double, value: ConfigValue)] = [
            ("u1", 0.47, "green"), ("u2", 0.7918, "green"), ("u3", 0.1993, "blue"),
        ]
        for (id, bucket, value) in expected {
            let decision = rules.evaluate(in: EvaluationContext(targetingKey: id), explaining: true)
            #expect(decision.match?.bucket?.value == bucket, "\(id)")
            #expect(decision.value == value, "\(id)")
        }
    }

    @Test("widening a rollout from 10% to 50% keeps every user who was in, with the same variant")
    func widening() throws {
        func payload(_ coverage: Double) -> String {
            #"{"targeting": {"new_checkout": {"default": false, "rollouts": [{"id": "gradual", "coverage": \#(coverage), "variants": [{"value": true}]}]}}}"#
        }
        let narrow = try rules(of: "new_checkout", in: payload(0.1))
        let wide = try rules(of: "new_checkout", in: payload(0.5))
        var inNarrow = 0
        var inWide = 0
        for index in 0..<20_000 {
            let context = EvaluationContext(targetingKey: userID(index))
            let before = narrow.evaluate(in: context, explaining: true).value
            let after = wide.evaluate(in: context, explaining: true).value
            if before == true {
                inNarrow += 1
                #expect(after == true, "user \(index) left the rollout")
            }
            if after == true { inWide += 1 }
        }
        #expect(abs(Double(inNarrow) / 20_000 - 0.1) < 0.015)
        #expect(abs(Double(inWide) / 20_000 - 0.5) < 0.015)
    }
}
