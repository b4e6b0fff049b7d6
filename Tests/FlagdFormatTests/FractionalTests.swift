import ConfigDomain
import Foundation
import Targeting
import Testing

@testable import FlagdFormat

@Suite("flagd format: fractional, and the CBOR it hashes")
struct FractionalTests {
    /// Deterministic CBOR and its MurmurHash3, as flagd-core 2.0.0 (cbor2, mmh3) computes them for the same values.
    static let vectors: [(ConfigValue, String, UInt32)] = [
        (["headerColor", "user@faas.com"], "826b686561646572436f6c6f726d7573657240666161732e636f6d", 1_401_938_885),
        ("abc", "63616263", 1_695_624_708),
        (42, "182a", 1_424_811_390),
        (-7, "26", 619_178_129),
        (2.5, "f94100", 1_801_461_939),
        (true, "f5", 836_216_331),
        (["b": 1, "a": [1, "x"]], "a2616182016178616201", 2_456_260_892),
        (1e21, "fb444b1ae4d6e2ef50", 2_585_824_034),
        (0.1, "fb3fb999999999999a", 109_103_420),
    ]

    @Test("canonical CBOR bytes and their hash", arguments: vectors)
    func cbor(_ value: ConfigValue, _ hex: String, _ hash: UInt32) {
        let bytes = CanonicalCBOR.encode(value)
        #expect(bytes.map { String(format: "%02x", $0) }.joined() == hex)
        #expect(Murmur3.hash32(bytes: bytes) == hash)
    }

    static let encodings: [(ConfigValue, String)] = [
        (.double(2), "02"), (.double(-0.0), "00"), (.int(0), "00"), (.int(23), "17"), (.int(24), "1818"),
        (.int(255), "18ff"), (.int(256), "190100"), (.int(65_536), "1a00010000"), (.int(4_294_967_296), "1b0000000100000000"),
        (.int(-1), "20"), (.int(-25), "3818"), (.int(.min), "3b7fffffffffffffff"),
        (.double(18_446_744_073_709_549_568), "1bfffffffffffff800"), (.double(18_446_744_073_709_551_616), "fa5f800000"),
        (.double(-9_223_372_036_854_775_808), "3b7fffffffffffffff"), (.double(1.5), "f93e00"),
        (.double(5.960464477539063e-08), "f90001"), (.double(0.00006103515625), "f90400"), (.double(100_000.5), "fa47c35040"),
        (.double(1e300), "fb7e37e43c8800759c"), (.double(1.401298464324817e-45), "fa00000001"),
        (.null, "f6"), (.bool(false), "f4"), (.string("é"), "62c3a9"), (.array([]), "80"), (.object([:]), "a0"),
    ]

    @Test("numbers: whole ones as integers in the shortest head, others as the shortest exact float", arguments: encodings)
    func numbers(_ value: ConfigValue, _ hex: String) {
        #expect(CanonicalCBOR.encode(value).map { String(format: "%02x", $0) }.joined() == hex)
    }

    @Test("object members are sorted by their encoded names: shorter names first")
    func memberOrder() {
        let bytes = CanonicalCBOR.encode(["bb": 1, "a": 2, "c": 3, "aa": 4])
        #expect(bytes.map { String(format: "%02x", $0) }.joined() == "a46161026163036261610462626201")
    }

    /// The variant flagd-core 2.0.0 picks for each targeting key (flag `checkout`), with three equal
    /// weights and with 10/90; and the one the text hash of `checkout` + key picks (flagd's daemon).
    @Test(
        "the shorthand buckets as flagd-core does",
        arguments: [
            ("u1", "b", "b", "b"), ("u2", "c", "b", "b"), ("u3", "b", "b", "a"), ("u5", "c", "b", "c"),
            ("user-42", "b", "b", "c"), ("🙂", "b", "b", "c"), ("東京", "a", "a", "a"), ("é", "a", "b", "b"),
        ])
    func shorthand(_ key: String, _ equal: String, _ weighted: String, _ text: String) throws {
        let data: ConfigValue = ["targetingKey": .string(key), "$flagd": ["flagKey": "checkout"]]
        let equalRule = #"{"fractional": [["a"], ["b"], ["c"]]}"#
        #expect(try logic(equalRule, data, flag: "checkout") == .string(equal))
        #expect(try logic(#"{"fractional": [["a", 10], ["b", 90]]}"#, data, flag: "checkout") == .string(weighted))
        #expect(try logic(equalRule, data, flag: "checkout", hashing: .concatenatedString) == .string(text))
    }

    static let bucketingValues: [(ConfigValue, String)] = [
        (.int(12345), "b"), (.string("12345"), "b"), (.double(2), "b"), (.double(2.5), "b"), (.bool(true), "a"),
        (.object(["id": "u1"]), "b"),
    ]

    @Test("a bucketing value of any type but null and arrays is hashed as itself", arguments: bucketingValues)
    func bucketingValue(_ value: ConfigValue, _ expected: String) throws {
        let rule = #"{"fractional": [{"var": "v"}, ["a", 1], ["b", 1], ["c", 1], ["d", 1]]}"#
        #expect(try logic(rule, ["v": value]) == .string(expected))
    }

    @Test(
        "what fractional cannot use gives null",
        arguments: [
            #"{"fractional": []}"#,
            #"{"fractional": [["a", 50], ["b", 50]]}"#,  // no targeting key in the data
            #"{"fractional": [{"var": "missing"}, ["a", 50], ["b", 50]]}"#,  // a null bucketing value
            #"{"fractional": ["k", ["a", 50.0], ["b", 50]]}"#,  // a weight that is not an integer
            #"{"fractional": ["k", ["a", true]]}"#,
            #"{"fractional": ["k", ["a", "10"]]}"#,
            #"{"fractional": ["k", ["a", 0], ["b", -5]]}"#,  // the weights sum to 0
            #"{"fractional": ["k", ["a", 2147483647], ["b", 1]]}"#,  // beyond 2^31 - 1
            #"{"fractional": ["k", []]}"#,
            #"{"fractional": ["k", ["a", 1, 2]]}"#,
            #"{"fractional": ["k", "a"]}"#,
            #"{"fractional": ["k"]}"#,
        ])
    func unusable(_ rule: String) throws {
        #expect(try logic(rule, ["targetingKey": nil]) == .null)
    }

    @Test("weights: 1 by default, negative ones count as 0, computed ones as they come out, any variant value")
    func weights() throws {
        // 2147483647 alone is allowed: every context lands in it.
        #expect(try logic(#"{"fractional": ["k", ["a", 2147483647]]}"#) == "a")
        #expect(try logic(#"{"fractional": ["k", ["a", -5], ["b"]]}"#) == "b")
        #expect(try logic(#"{"fractional": ["k", ["a", {"-": [0, 3]}], [null, {"+": [1, 1]}]]}"#) == .null)
        #expect(try logic(#"{"fractional": ["k", [{"var": "plan"}, 1]]}"#, ["plan": "gold"]) == "gold")
        #expect(try logic(#"{"fractional": ["k", [7]]}"#) == 7)
    }

    @Test("the shorthand needs the context object: inside map over strings it fails, as flagd-core's does")
    func shorthandScope() throws {
        #expect(
            try failure(#"{"map": [["x"], {"fractional": [["a", 1]]}]}"#)
                == "\"fractional\" without a bucketing value needs the context object, found a string")
        #expect(
            try failure(#"{"map": [[{"targetingKey": "u1", "$flagd": 5}], {"fractional": [["a", 1]]}]}"#)?.contains("\"$flagd\"")
                == true)
        #expect(try logic(#"{"map": [[{"targetingKey": "u1", "plan": "x"}], {"fractional": [["a", 1]]}]}"#) == ["a"])
    }

    @Test("the text hash (flagd's daemon): a string bucketing value as it is, else the flag key and targeting key")
    func concatenated() throws {
        let hash = Murmur3.hash32("headerColoruser@faas.com")
        #expect(hash == 2_756_860_352)
        #expect((UInt64(hash) * 100) >> 32 == 64)
        let data: ConfigValue = ["targetingKey": "user@faas.com", "$flagd": ["flagKey": "headerColor"]]
        let rule = #"{"fractional": [["red", 50], ["blue", 20], ["green", 30]]}"#
        #expect(try logic(rule, data, flag: "headerColor", hashing: .concatenatedString) == "blue")
        // The same with a null first argument (a missing attribute): the targeting key is used.
        let withNull = #"{"fractional": [{"var": "email"}, ["red", 50], ["blue", 20], ["green", 30]]}"#
        #expect(try logic(withNull, data, flag: "headerColor", hashing: .concatenatedString) == "blue")
        // A string bucketing value: "abc" hashes to 3017643002, bucket 70 of 100.
        #expect(try logic(#"{"fractional": ["abc", ["a", 70], ["b", 30]]}"#, [:], hashing: .concatenatedString) == "b")
        // A weight of 50.0 is a whole number there; an object variant is not allowed.
        #expect(try logic(#"{"fractional": ["abc", ["a", 70.0], ["b", 30]]}"#, [:], hashing: .concatenatedString) == "b")
        for rule in [
            #"{"fractional": ["abc", [["x"], 1]]}"#, #"{"fractional": ["abc", ["a", 1.5]]}"#, #"{"fractional": [5, ["a", 1]]}"#,
            #"{"fractional": ["abc", "a"]}"#, #"{"fractional": ["abc", ["a", 0]]}"#, #"{"fractional": ["abc", ["a", "1"]]}"#,
            #"{"fractional": ["abc", ["a", 2147483648]]}"#,
        ] {
            #expect(try logic(rule, ["targetingKey": "u1"], hashing: .concatenatedString) == .null, "\(rule)")
        }
        // No usable targeting key, or no context object: null, never a failure.
        #expect(try logic(#"{"fractional": [["a", 1]]}"#, ["targetingKey": 5], hashing: .concatenatedString) == .null)
        #expect(try logic(#"{"fractional": [["a", 1]]}"#, ["targetingKey": ""], hashing: .concatenatedString) == .null)
        #expect(try logic(#"{"map": [["x"], {"fractional": [["a", 1]]}]}"#, [:], hashing: .concatenatedString) == [nil])
        #expect(try logic(#"{"fractional": [null, ["a", null]]}"#, ["targetingKey": "u1"], hashing: .concatenatedString) == "a")
    }

    @Test("a half-precision float is found exactly or not at all")
    func halfPrecision() {
        #expect(CanonicalCBOR.halfBits(65504) == 0x7BFF)
        #expect(CanonicalCBOR.halfBits(-2) == 0xC000)
        #expect(CanonicalCBOR.halfBits(.infinity) == 0x7C00)
        #expect(CanonicalCBOR.halfBits(65536) == nil)
        #expect(CanonicalCBOR.halfBits(0.1) == nil)
        #expect(CanonicalCBOR.halfBits(0x1p-25) == nil)
    }
}
