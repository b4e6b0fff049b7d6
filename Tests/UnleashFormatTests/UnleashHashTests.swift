import Testing

@testable import UnleashFormat

/// Unleash's normalisation of Murmur3 (`Tests/TargetingLibraryTests/Murmur3Tests.swift`) against values its
/// client specification relies on.
@Suite("Unleash's normalisation")
struct UnleashHashTests {
    @Test("strategy value: murmur3(\"groupId:id\", 0) % 100 + 1, as the gradual-rollout cases need")
    func strategyValue() {
        // 03-gradual-rollout-user-id-strategy: user 122 is in a 50% rollout of group AB12A, user 155 is not.
        #expect(UnleashHash.strategyValue(id: "122", groupId: "AB12A") == 23)
        #expect(UnleashHash.strategyValue(id: "155", groupId: "AB12A") == 100)
        // 10-flexible-rollout-strategy: 174 is in a 10% rollout, 499 is not.
        #expect(UnleashHash.strategyValue(id: "174", groupId: "Feature.flexibleRollout.10") == 10)
        #expect(UnleashHash.strategyValue(id: "499", groupId: "Feature.flexibleRollout.10") == 32)
    }

    @Test("variant value: seed 86028157, normalised to the total weight")
    func variantValue() {
        #expect(UnleashHash.variantSeed == 86_028_157)
        // 16-strategy-variants: group "a", two variants of weight 1: user 5 gets the first, user 0 the second.
        #expect(UnleashHash.variantValue(id: "5", groupId: "a", totalWeight: 2) == 1)
        #expect(UnleashHash.variantValue(id: "0", groupId: "a", totalWeight: 2) == 2)
        #expect(UnleashHash.normalized(id: "x", groupId: "g", normalizer: 0, seed: 0) == 0)
    }

    @Test("values stay within 1 … normaliser")
    func range() {
        for index in 0..<2000 {
            let value = UnleashHash.strategyValue(id: "user-\(index)", groupId: "g")
            #expect((1...100).contains(value))
        }
    }
}
