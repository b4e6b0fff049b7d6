import ConfigDomain
import Foundation
import Targeting
import Testing

@Suite("Bucketing")
struct BucketingTests {
    @Test("FNV-1a and both hash versions give GrowthBook's numbers; other versions none")
    func hashes() {
        #expect(FNV1a.hash("") == FNV1a.offsetBasis)
        #expect(FNV1a.hash("a") == 0xE40C_292C)
        #expect(FNV1a.hash("bc", continuing: FNV1a.hash("a")) == FNV1a.hash("abc"))
        #expect(FNV1a.hash(decimalDigitsOf: 4_294_967_295, continuing: FNV1a.offsetBasis) == FNV1a.hash("4294967295"))
        #expect(FNV1a.hash(decimalDigitsOf: 0, continuing: FNV1a.offsetBasis) == FNV1a.hash("0"))
        #expect(Bucketing.hash(seed: "", value: "a", version: 1) == 0.22)
        #expect(Bucketing.hash(seed: "button-test", value: "u1", version: 2) == 0.47)
        #expect(Bucketing.hash(seed: "a", value: "b", version: 3) == nil)
    }

    @Test("non-ASCII text is hashed over its UTF-16 code units, each unit whole, as GrowthBook's SDKs hash it")
    func utf16CodeUnits() {
        // GrowthBook's JavaScript SDK (`charCodeAt`) and Python SDK (`gbhash`) give these for seed "séed-ü" and id "🙂".
        #expect(Bucketing.hash(seed: "séed-ü", value: "🙂", version: 1) == 0.37)
        #expect(Bucketing.hash(seed: "séed-ü", value: "🙂", version: 2) == 0.0584)
        // "é" is the one code unit 0xE9 (not the UTF-8 bytes C3 A9); "🙂" is the surrogate pair D83D DE42.
        #expect(FNV1a.hash("é") == (FNV1a.offsetBasis ^ 0xE9) &* FNV1a.prime)
        #expect(FNV1a.hash("🙂") == (((FNV1a.offsetBasis ^ 0xD83D) &* FNV1a.prime) ^ 0xDE42) &* FNV1a.prime)
        #expect(FNV1a.hash("ü-🙂", continuing: FNV1a.hash("a")) == FNV1a.hash("aü-🙂"))
        #expect(FNV1a.hash("abc") == 0x1A47_E90B)
    }

    @Test("numbers are hashed as JavaScript writes them")
    func javaScriptNumberText() {
        #expect(Bucketing.hashText(of: .double(2.5e-7)) == "2.5e-7")
        #expect(Bucketing.hashText(of: .double(0.000001)) == "0.000001")
        #expect(Bucketing.hashText(of: .double(1e21)) == "1e+21")
        #expect(Bucketing.hashText(of: .double(1e16)) == "10000000000000000")
        #expect(Bucketing.hashText(of: .double(-1.5)) == "-1.5")
        #expect(Bucketing.hashText(of: .double(123_456_789.125)) == "123456789.125")
        // JavaScript has doubles only: 2^53 + 1 is 2^53, and 2^60 prints its shortest digits.
        #expect(Bucketing.hashText(of: .int(9_007_199_254_740_993)) == "9007199254740992")
        #expect(Bucketing.hashText(of: .int(1 << 60)) == "1152921504606847000")
        #expect(Bucketing.hashText(of: .int(-42)) == "-42")
    }

    @Test("only values GrowthBook can bucket have hash text")
    func hashText() {
        #expect(Bucketing.hashText(of: "u1") == "u1")
        #expect(Bucketing.hashText(of: .int(123)) == "123")
        #expect(Bucketing.hashText(of: .double(1.5)) == "1.5")
        #expect(Bucketing.hashText(of: .double(2)) == "2")
        #expect(Bucketing.hashText(of: true) == "true")
        for falsy: ConfigValue? in [nil, .null, "", 0, false, .double(0)] { #expect(Bucketing.hashText(of: falsy) == nil) }
    }

    @Test("ranges follow the weights and the coverage; widening the coverage only extends each range")
    func ranges() {
        let narrow = Bucketing.ranges(count: 2, coverage: 0.1, weights: [0.3, 0.7])
        let wide = Bucketing.ranges(count: 2, coverage: 0.5, weights: [0.3, 0.7])
        #expect(zip(narrow, wide).allSatisfy { $0.lower == $1.lower && $0.upper <= $1.upper })
        #expect(Bucketing.ranges(count: 2, coverage: 1, weights: [0.5, 0.2]) == Bucketing.ranges(count: 2))
        #expect(Bucketing.ranges(count: 3, coverage: 1, weights: [0.5, 0.5]) == Bucketing.ranges(count: 3))
        #expect(Bucketing.ranges(count: 1, coverage: 7) == [BucketRange(lower: 0, upper: 1)])
        #expect(Bucketing.variation(for: 0.2, in: wide) == nil)
        #expect(Bucketing.variation(for: 0.4, in: wide) == 1)
        #expect(BucketRange(lower: 0.5, upper: 0.2).contains(0.3) == false)
        #expect(Bucketing.equalWeights(0).isEmpty)
    }
}
