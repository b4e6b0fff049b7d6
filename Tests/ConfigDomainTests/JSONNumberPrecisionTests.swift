import ConfigDomain
import Foundation
import Testing

@Suite("JSONParser reads doubles exactly as Swift's own Double(_:) does")
struct JSONNumberPrecisionTests {
    /// A small deterministic generator, so every run checks the same numbers.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(next() % 10)) })
        }
    }

    /// Numbers of up to 23 digits, with and without fraction and exponent (-30...30), half of them negative.
    static func numbers(seed: UInt64, count: Int) -> [String] {
        var generator = Generator(state: seed)
        var result: [String] = []
        for _ in 0..<count {
            let integerDigits = Int(generator.next() % 12) + 1
            var integer = generator.digits(integerDigits)
            while integer.count > 1, integer.first == "0" { integer.removeFirst() }
            let fraction = generator.digits(Int(generator.next() % 12))
            var text = (generator.next() % 2 == 0 ? "-" : "") + integer
            if !fraction.isEmpty || generator.next() % 3 == 0 { text += "." + (fraction.isEmpty ? "0" : fraction) }
            if generator.next() % 2 == 0 { text += "e" + String(Int(generator.next() % 61) - 30) }
            result.append(text)
        }
        return result
    }

    @Test("5,000 generated numbers parse to the same double as Double(_:)")
    func generatedNumbersMatchDoubleInit() throws {
        for text in Self.numbers(seed: 2024, count: 5_000) {
            let parsed = try JSONParser().parse(text)
            if text.contains(".") || text.contains("e") {
                let expected = try #require(Double(text))
                #expect(parsed == .double(expected), "\(text)")
            } else {
                #expect(parsed == .int(try #require(Int64(text))), "\(text)")
            }
        }
    }

    @Test(
        "hard cases: halfway points, 2^53 neighbours, powers of ten around 1e22, the subnormal edge",
        arguments: [
            "9007199254740993.0", "9007199254740992.0", "9007199254740991.0", "1e22", "1e23", "1e-22", "1e-23",
            "123456789012345678e-5", "0.1", "0.2", "0.3", "2.2250738585072014e-308", "2.2250738585072011e-308",
            "4.9406564584124654e-324", "1.7976931348623157e308", "9007199254740993e0", "8.98846567431158e307",
            "3.14159265358979323846264338327950288", "100000000000000000000000.0", "7.0e-10",
        ])
    func hardCases(_ text: String) throws {
        #expect(try JSONParser().parse(text) == .double(try #require(Double(text))))
    }
}
