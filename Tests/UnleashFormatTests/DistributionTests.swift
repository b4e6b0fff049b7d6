import ConfigDomain
import ConfigPorts
import Testing

@testable import UnleashFormat

/// Stable bucketing: the share of ids in a rollout, and that they stay put.
@Suite("Rollout distribution and stability")
struct DistributionTests {
    static func rollout(_ percentage: Int, extraFeature: String = "") throws -> DecodedPayload {
        let strategy =
            "{\"name\": \"flexibleRollout\", \"parameters\": {\"rollout\": \"\(percentage)\", \"stickiness\": \"userId\", \"groupId\": \"checkout\"}}"
        return try decode(payload([feature("checkout", strategy: strategy)] + (extraFeature.isEmpty ? [] : [extraFeature])))
    }

    static let ids = (0..<100_000).map { "user-\($0)" }

    @Test("100,000 ids in a 30% rollout: within ±1% of 30/70, the same on a second run and after an unrelated change")
    func thirtySeventy() throws {
        let payload = try Self.rollout(30)
        let first = Self.ids.map { payload.isEnabled("checkout", context([:], key: $0)) }
        let share = Double(first.filter { $0 }.count) / Double(Self.ids.count)
        #expect(abs(share - 0.30) <= 0.01, "share in: \(share)")

        let again = Self.ids.map { payload.isEnabled("checkout", context([:], key: $0)) }
        #expect(again == first)

        let changed = try Self.rollout(30, extraFeature: feature("unrelated", strategy: "{\"name\": \"default\"}"))
        let afterChange = Self.ids.map { changed.isEnabled("checkout", context([:], key: $0)) }
        #expect(afterChange == first)
    }

    @Test("widening a rollout from 10% to 50% keeps everyone who was in")
    func widening() throws {
        let narrow = try Self.rollout(10)
        let wide = try Self.rollout(50)
        let sample = Self.ids.prefix(10_000)
        let wereIn = sample.filter { narrow.isEnabled("checkout", context([:], key: $0)) }
        #expect(!wereIn.isEmpty)
        #expect(wereIn.allSatisfy { wide.isEnabled("checkout", context([:], key: $0)) })
    }
}
