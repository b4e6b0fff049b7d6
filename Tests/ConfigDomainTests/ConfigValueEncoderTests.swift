import ConfigDomain
import Foundation
import Testing

@Suite("ConfigValueEncoder: Foundation's JSONEncoder, read back into the value the decoder reads")
struct ConfigValueEncoderTests {
    @Test("leaves keep their kind, except a whole Double, which JSON writes as 1 and so reads back as .int")
    func leaves() throws {
        let encoder = ConfigValueEncoder()
        #expect(try encoder.encode(1) == .int(1))
        #expect(try encoder.encode(1.0) == .int(1))
        #expect(try encoder.encode(true) == .bool(true))
        #expect(try encoder.encode("s") == .string("s"))
        #expect(try encoder.encode([1.0, 2.5]) == [.int(1), .double(2.5)])
        #expect(try encoder.encode(Float(0.1)) == .double(0.1))
        #expect(try encoder.encode(1e300) == .double(1e300))
    }

    @Test("every integer width becomes .int")
    func integerWidths() throws {
        struct Widths: Encodable {
            var i8: Int8 = -8, i16: Int16 = 16, i32: Int32 = 32, i64: Int64 = .min
            var u: UInt = 1, u8: UInt8 = 8, u16: UInt16 = 16, u32: UInt32 = 32, u64: UInt64 = UInt64(Int64.max)
        }
        #expect(
            try ConfigValueEncoder().encode(Widths())
                == [
                    "i8": -8, "i16": 16, "i32": 32, "i64": .int(.min), "u": 1, "u8": 8, "u16": 16, "u32": 32, "u64": .int(.max),
                ])
        #expect(try ConfigValueEncoder().encode([UInt8(1), 2]) == [1, 2])
    }

    @Test("numbers JSON cannot hold are refused")
    func unrepresentable() {
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode(UInt64.max) }
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode([UInt.max]) }
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode(Double.nan) }
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode([Float.nan]) }
        // JSONEncoder writes a whole Decimal as an integer, and JSONParser refuses one beyond Int64.
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode(Decimal(string: "250000000000000000000")) }
    }

    @Test("nested structs, arrays, optionals and dictionaries")
    func nested() throws {
        struct Inner: Encodable { var tags: [String]; var ratio: Double }
        struct Outer: Encodable {
            var name: String
            var inner: Inner
            var missing: Int?
            var present: Int?
            var byID: [Int: String]
        }
        let value = try ConfigValueEncoder().encode(
            Outer(name: "n", inner: Inner(tags: ["a"], ratio: 2), missing: nil, present: 5, byID: [1: "one"]))
        #expect(value == ["name": "n", "inner": ["tags": ["a"], "ratio": 2], "present": 5, "byID": ["1": "one"]])
        #expect(value["missing"] == nil)
    }

    @Test("Foundation types use the decoder's forms: ISO-8601 dates, base64 data, URL strings")
    func foundationTypes() throws {
        let encoder = ConfigValueEncoder()
        #expect(try encoder.encode(Date(timeIntervalSince1970: 1_714_564_800)) == "2024-05-01T12:00:00Z")
        #expect(try encoder.encode(Date(timeIntervalSince1970: 1_714_564_800.25)) == "2024-05-01T12:00:00.250Z")
        #expect(try encoder.encode(Data("hello".utf8)) == "aGVsbG8=")
        #expect(try encoder.encode(try #require(URL(string: "https://example.com/a"))) == "https://example.com/a")
        #expect(try encoder.encode(Decimal(string: "1.5")) == .double(1.5))
    }

    @Test("what it encodes, the decoder reads back equal")
    func roundTrip() throws {
        struct Everything: Codable, Equatable {
            var flag: Bool
            var count: Int
            var ratio: Double
            var whole: Double
            var name: String
            var when: Date
            var blob: Data
            var link: URL
            var list: [Int8]
            var map: [String: [UInt16]]
            var maybe: String?
            var theme: Mode
            enum Mode: String, Codable { case a, b }
        }
        let original = Everything(
            flag: true, count: -3, ratio: 0.25, whole: 1.0, name: "é😀", when: Date(timeIntervalSince1970: 1_000_000),
            blob: Data([0, 255]), link: try #require(URL(string: "https://x.example/p?q=1")), list: [-1, 1],
            map: ["k": [1, 65535]], maybe: nil, theme: .b)
        let encoded = try ConfigValueEncoder().encode(original)
        #expect(encoded["whole"] == .int(1))
        #expect(encoded["theme"] == "b")
        #expect(try ConfigValueDecoder().decode(Everything.self, from: encoded) == original)
        #expect(try JSONParser().parse(encoded.jsonText()) == encoded)
    }

    @Test("a top-level value that encodes nothing is refused; a nested one is an empty object")
    func encodesNothing() throws {
        struct Nothing: Encodable {
            func encode(to encoder: any Encoder) throws {}
        }
        struct Holder: Encodable { var nothing = Nothing() }
        #expect(throws: EncodingError.self) { try ConfigValueEncoder().encode(Nothing()) }
        #expect(try ConfigValueEncoder().encode(Holder()) == ["nothing": [:]])
        #expect(try ConfigValueEncoder().encode([Nothing()]) == [[:]])
    }

    @Test("hand-written encoders: nested containers, explicit nil, super encoders")
    func handWritten() throws {
        struct Custom: Encodable {
            enum Keys: String, CodingKey { case point, list, empty, parent }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var point = container.nestedContainer(keyedBy: Keys.self, forKey: .point)
                try point.encode(1, forKey: .list)
                var again = container.nestedContainer(keyedBy: Keys.self, forKey: .point)
                try again.encode(2.5, forKey: .empty)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encodeNil()
                try list.encode(Int16(3))
                var inner = list.nestedContainer(keyedBy: Keys.self)
                try inner.encode(true, forKey: .empty)
                var innerList = list.nestedUnkeyedContainer()
                try innerList.encode("x")
                let superInList = list.superEncoder()
                var superValue = superInList.singleValueContainer()
                try superValue.encode("late")
                #expect(list.count == 4)  // JSONEncoder counts a super encoder's element once it is encoded.
                try container.encodeNil(forKey: .empty)
                let parent = container.superEncoder(forKey: .parent)
                var parentValue = parent.singleValueContainer()
                try parentValue.encode(9)
                let base = container.superEncoder()
                var baseContainer = base.unkeyedContainer()
                try baseContainer.encode(UInt64(7))
                #expect(encoder.userInfo.isEmpty)
            }
        }
        #expect(
            try ConfigValueEncoder().encode(Custom())
                == [
                    "point": ["list": 1, "empty": 2.5],
                    "list": [nil, 3, ["empty": true], ["x"], "late"],
                    "empty": nil,
                    "parent": 9,
                    "super": [7],
                ])
    }

    @Test("coding paths reach the containers")
    func codingPaths() throws {
        struct PathRecorder: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "/"))
            }
        }
        struct Holder: Encodable { var a: [PathRecorder] }
        #expect(try ConfigValueEncoder().encode(Holder(a: [PathRecorder()])) == ["a": ["a/Index 0"]])
    }
}
