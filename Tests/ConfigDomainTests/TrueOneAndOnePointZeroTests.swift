import ConfigDomain
import Foundation
import Testing

/// The headline guarantee: `true`, `1` and `1.0` are three different values, on every platform.
///
/// Foundation's `NSNumber` bridging on Linux turns `1` into `true`; the parser never uses it.
@Suite("true, 1 and 1.0 stay three different values")
struct TrueOneAndOnePointZeroTests {
    @Test("alone, they parse to .bool(true), .int(1) and .double(1.0)")
    func topLevel() throws {
        let parser = JSONParser()
        let values = [try parser.parse("true"), try parser.parse("1"), try parser.parse("1.0")]
        #expect(values == [.bool(true), .int(1), .double(1.0)])
        #expect(Set(values).count == 3)
        #expect(values.map(\.kind) == [.bool, .int, .double])
    }

    @Test("inside an array")
    func insideArray() throws {
        #expect(try JSONParser().parse("[true, 1, 1.0]") == .array([.bool(true), .int(1), .double(1.0)]))
    }

    @Test("inside an object")
    func insideObject() throws {
        let value = try JSONParser().parse(#"{"flag": true, "count": 1, "ratio": 1.0}"#)
        #expect(value["flag"] == .bool(true))
        #expect(value["count"] == .int(1))
        #expect(value["ratio"] == .double(1.0))
    }

    @Test("false and 0 are different too")
    func falseAndZero() throws {
        #expect(try JSONParser().parse("[false, 0, 0.0]") == .array([.bool(false), .int(0), .double(0.0)]))
    }

    @Test("jsonText writes them back as true, 1 and 1.0, and they parse back to the same values")
    func jsonTextRoundTrip() throws {
        let value: ConfigValue = .object(["flag": .bool(true), "count": .int(1), "ratio": .double(1.0)])
        let text = value.jsonText()
        #expect(text == #"{"count":1,"flag":true,"ratio":1.0}"#)
        #expect(try JSONParser().parse(text) == value)
        #expect(ConfigValue.array([.bool(true), .int(1), .double(1.0)]).jsonText() == "[true,1,1.0]")
    }

    @Test("typed reads keep them apart: Bool refuses 1, Int refuses true, Int accepts 1.0 exactly")
    func typedReadsKeepThemApart() throws {
        #expect(conversionFailure(Bool.self, .int(1)) != nil)
        #expect(conversionFailure(Bool.self, .double(1.0)) != nil)
        #expect(conversionFailure(Int.self, .bool(true)) != nil)
        #expect(conversionFailure(Double.self, .bool(true)) != nil)
        #expect(try Int(configValue: .double(1.0)) == 1)
        #expect(try Double(configValue: .int(1)) == 1.0)
    }

    @Test("the decoder keeps them apart inside structured values")
    func decoderKeepsThemApart() {
        struct Flags: Decodable { var on: Bool }
        struct Count: Decodable { var n: Int }
        #expect(decodingFailure(Flags.self, ["on": 1])?.reason == "expected Bool, found a JSON int 1")
        #expect(decodingFailure(Count.self, ["n": true])?.reason == "expected Int, found a JSON bool true")
        #expect(decodingFailure(Count.self, ["n": 1.0]) == nil)
    }
}
