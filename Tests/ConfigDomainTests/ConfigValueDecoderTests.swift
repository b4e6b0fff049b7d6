import ConfigDomain
import Foundation
import Testing

private struct Order: Codable, Equatable {
    struct Customer: Codable, Equatable {
        var name: String
        var vip: Bool
    }
    struct Item: Codable, Equatable {
        var sku: String
        var price: Double
        var quantity: Int
    }
    var id: Int
    var customer: Customer
    var items: [Item]
    var note: String?
}

private let orderValue: ConfigValue = [
    "id": 7,
    "customer": ["name": "Ada", "vip": true],
    "items": [
        ["sku": "a", "price": 1.5, "quantity": 1],
        ["sku": "b", "price": 2, "quantity": 3],
        ["sku": "c", "price": 10.25, "quantity": 2.0],
    ],
]

private let order = Order(
    id: 7, customer: .init(name: "Ada", vip: true),
    items: [
        .init(sku: "a", price: 1.5, quantity: 1), .init(sku: "b", price: 2, quantity: 3),
        .init(sku: "c", price: 10.25, quantity: 2),
    ],
    note: nil)

/// The reason for a number its Swift type cannot hold (JSONDecoder does not name the type).
private let unfitting = "which does not fit the number type there (a fraction for an integer, or beyond the type's range)"

/// Counts how often ``CountedBytes`` is decoded; one test uses it.
private final class DecodeCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private let countedBytesDecodes = DecodeCount()

/// A `[UInt8]` that counts its decodes.
private struct CountedBytes: Decodable {
    init(from decoder: any Decoder) throws {
        countedBytesDecodes.increment()
        _ = try [UInt8](from: decoder)
    }
}

/// Replaces the member at `path` (object keys and array indices) inside `value`.
private func replacing(_ value: ConfigValue, at path: [Any], with replacement: ConfigValue?) -> ConfigValue {
    guard let first = path.first else { return replacement ?? .null }
    let rest = Array(path.dropFirst())
    switch (value, first) {
    case (.object(var members), let key as String):
        if rest.isEmpty, replacement == nil {
            members[key] = nil
        } else {
            members[key] = replacing(members[key] ?? .null, at: rest, with: replacement)
        }
        return .object(members)
    case (.array(var items), let index as Int):
        items[index] = replacing(items[index], at: rest, with: replacement)
        return .array(items)
    default:
        return value
    }
}

@Suite("ConfigValueDecoder: Foundation's JSONDecoder, with exact paths and strict leaves")
struct ConfigValueDecoderTests {
    @Test("nested structs and arrays decode, with the Int and Double rules applied to each leaf")
    func nestedStructs() throws {
        #expect(try ConfigValueDecoder().decode(Order.self, from: orderValue) == order)
    }

    @Test("a type mismatch deep inside names the path and what was found")
    func mismatchPath() {
        let bad = replacing(orderValue, at: ["items", 2, "price"], with: "abc")
        #expect(
            decodingFailure(Order.self, bad)
                == DecodingFailure(path: "items[2].price", reason: #"expected Double, found a JSON string "abc""#))
        #expect(
            decodingFailure(Order.self, bad)?.description == #"at items[2].price: expected Double, found a JSON string "abc""#)
    }

    @Test("a missing key names its path (JSONDecoder does not say which type it expected there)")
    func missingKey() {
        let bad = replacing(orderValue, at: ["customer", "name"], with: nil)
        #expect(
            decodingFailure(Order.self, bad) == DecodingFailure(path: "customer.name", reason: #"missing required key "name""#))
    }

    @Test("a missing nested object names its path")
    func missingNestedObject() {
        let bad = replacing(orderValue, at: ["customer"], with: nil)
        #expect(
            decodingFailure(Order.self, bad) == DecodingFailure(path: "customer", reason: #"missing required key "customer""#))
    }

    @Test("an optional reads a missing key and null as nil, and a value as itself")
    func optionals() throws {
        #expect(try ConfigValueDecoder().decode(Order.self, from: orderValue).note == nil)
        let withNull = replacing(orderValue, at: ["note"], with: .null)
        #expect(try ConfigValueDecoder().decode(Order.self, from: withNull).note == nil)
        let withNote = replacing(orderValue, at: ["note"], with: "leave at door")
        #expect(try ConfigValueDecoder().decode(Order.self, from: withNote).note == "leave at door")
    }

    @Test("an optional of the wrong type is still an error")
    func optionalWrongType() {
        let bad = replacing(orderValue, at: ["note"], with: 5)
        #expect(decodingFailure(Order.self, bad) == DecodingFailure(path: "note", reason: "expected String, found a JSON int 5"))
    }

    @Test("null for a required value says it found null")
    func nullForRequired() {
        let bad = replacing(orderValue, at: ["id"], with: .null)
        #expect(decodingFailure(Order.self, bad) == DecodingFailure(path: "id", reason: "expected Int, found null"))
    }

    @Test("a top-level value of the wrong kind is refused at the empty path")
    func topLevelKind() {
        #expect(
            decodingFailure(Order.self, [1, 2])
                == DecodingFailure(path: "", reason: "expected an object, found a JSON array [1,2]"))
        #expect(
            decodingFailure([Int].self, ["a": 1])
                == DecodingFailure(path: "", reason: #"expected an array, found a JSON object {"a":1}"#))
    }

    @Test("long values are shortened in messages")
    func longValuesShortened() throws {
        let long = ConfigValue.string(String(repeating: "x", count: 100))
        let reason = try #require(decodingFailure(Int.self, long)?.reason)
        #expect(reason == "expected Int, found a JSON string \"" + String(repeating: "x", count: 56) + "…")
    }

    // MARK: 1, true and 1.0

    @Test(
        "leaves follow the strict rules: 1 is not true, true is not 1, \"1\" is not a number",
        arguments: [
            (ConfigValue.int(1), "Bool", "expected Bool, found a JSON int 1"),
            (.double(1.0), "Bool", "expected Bool, found a JSON double 1.0"),
            (.string("true"), "Bool", #"expected Bool, found a JSON string "true""#),
            (.bool(true), "Int", "expected Int, found a JSON bool true"),
            (.string("1"), "Int", #"expected Int, found a JSON string "1""#),
            (.double(1.5), "Int", "found a JSON double 1.5, \(unfitting)"),
            (.double(1e19), "Int", "found a JSON double 1e+19, \(unfitting)"),
            (.string("1.0"), "Double", #"expected Double, found a JSON string "1.0""#),
            (.bool(false), "Double", "expected Double, found a JSON bool false"),
            (.int(1), "String", "expected String, found a JSON int 1"),
            (.null, "String", "expected String, found null"),
        ] as [(ConfigValue, String, String)])
    func strictLeaves(_ value: ConfigValue, type: String, reason: String) {
        let failure: DecodingFailure? =
            switch type {
            case "Bool": decodingFailure(Bool.self, value)
            case "Int": decodingFailure(Int.self, value)
            case "Double": decodingFailure(Double.self, value)
            default: decodingFailure(String.self, value)
            }
        #expect(failure == DecodingFailure(path: "", reason: reason))
    }

    @Test("the same rules hold in keyed, unkeyed and single-value positions")
    func strictEverywhere() {
        struct Flag: Decodable { var on: Bool }
        #expect(decodingFailure(Flag.self, ["on": 1]) == DecodingFailure(path: "on", reason: "expected Bool, found a JSON int 1"))
        #expect(
            decodingFailure([Bool].self, [true, 1]) == DecodingFailure(path: "[1]", reason: "expected Bool, found a JSON int 1"))
        #expect(
            decodingFailure([[Int]].self, [[1], ["x"]])
                == DecodingFailure(path: "[1][0]", reason: #"expected Int, found a JSON string "x""#))
    }

    @Test("1.0 reads as Int 1 and 1 reads as Double 1.0")
    func integralConversions() throws {
        #expect(try ConfigValueDecoder().decode(Int.self, from: .double(1.0)) == 1)
        #expect(try ConfigValueDecoder().decode(Double.self, from: .int(1)) == 1.0)
        #expect(try ConfigValueDecoder().decode([Int].self, from: [1, 2.0, -0.0]) == [1, 2, 0])
    }

    // MARK: Number widths

    @Test("every integer width checks its own range")
    func integerWidths() throws {
        struct Widths: Decodable, Equatable {
            var i8: Int8, i16: Int16, i32: Int32, i64: Int64
            var u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
        }
        let value: ConfigValue = [
            "i8": -128, "i16": 32767, "i32": -2_147_483_648, "i64": .int(.min),
            "u": 0, "u8": 255, "u16": 65535.0, "u32": 4_294_967_295, "u64": .double(18_000_000_000_000_000_000),
        ]
        let decoded = try ConfigValueDecoder().decode(Widths.self, from: value)
        #expect(decoded.i8 == -128 && decoded.u16 == 65535 && decoded.u64 == 18_000_000_000_000_000_000)
        #expect(
            decodingFailure(Widths.self, replacing(value, at: ["i8"], with: 300))
                == DecodingFailure(path: "i8", reason: "found a JSON int 300, \(unfitting)"))
        #expect(
            decodingFailure(Widths.self, replacing(value, at: ["u8"], with: -1))
                == DecodingFailure(path: "u8", reason: "found a JSON int -1, \(unfitting)"))
        #expect(
            decodingFailure(Widths.self, replacing(value, at: ["u32"], with: 1.5))
                == DecodingFailure(path: "u32", reason: "found a JSON double 1.5, \(unfitting)"))
    }

    @Test("integer widths also apply in arrays and single values")
    func integerWidthsUnkeyed() throws {
        #expect(try ConfigValueDecoder().decode([UInt8].self, from: [0, 255]) == [0, 255])
        #expect(try ConfigValueDecoder().decode([Int16].self, from: [-1]) == [-1])
        #expect(try ConfigValueDecoder().decode([UInt64].self, from: [.int(.max)]) == [UInt64(Int64.max)])
        #expect(decodingFailure([UInt16].self, [1, 70_000])?.path == "[1]")
        #expect(
            decodingFailure(Int32.self, .int(1 << 40))
                == DecodingFailure(path: "", reason: "found a JSON int 1099511627776, \(unfitting)"))
    }

    @Test("integers beyond 2^53 read exactly")
    func largeIntegers() throws {
        #expect(try ConfigValueDecoder().decode(Int64.self, from: .int(9_007_199_254_740_993)) == 9_007_199_254_740_993)
        #expect(try ConfigValueDecoder().decode([Int].self, from: [.int(.max), .int(.min)]) == [.max, .min])
        #expect(
            try ConfigValueDecoder().decode(UInt64.self, from: .double(18_000_000_000_000_000_000)) == 18_000_000_000_000_000_000)
    }

    @Test("a number that does not fit is found by its path, deep inside and with other numbers around it")
    func unfittingNumberPath() {
        let fraction = replacing(orderValue, at: ["items", 1, "quantity"], with: 2.5)
        #expect(
            decodingFailure(Order.self, fraction)
                == DecodingFailure(path: "items[1].quantity", reason: "found a JSON double 2.5, \(unfitting)"))
        let twoBad = replacing(fraction, at: ["id"], with: 1e30)
        #expect(decodingFailure(Order.self, twoBad)?.path == "id")  // The first, with members in order of name.
        struct Sizes: Decodable { var small: [UInt8] }
        #expect(decodingFailure(Sizes.self, ["small": [1, 2, 256, 1.5]])?.path == "small[2]")
    }

    @Test("finding a number that does not fit among 5,000 takes a few decodes, not one per number")
    func unfittingNumberSearchIsShort() {
        let value = ConfigValue.array([1, 300] + Array(repeating: 1, count: 4_998))
        #expect(
            decodingFailure(CountedBytes.self, value)
                == DecodingFailure(path: "[1]", reason: "found a JSON int 300, \(unfitting)"))
        #expect(countedBytesDecodes.value <= 20)
    }

    @Test("Float reads numbers within its range")
    func float() throws {
        #expect(try ConfigValueDecoder().decode(Float.self, from: .double(0.5)) == 0.5)
        #expect(try ConfigValueDecoder().decode([Float].self, from: [3, 0.25]) == [3, 0.25])
        #expect(
            decodingFailure(Float.self, .double(1e39))
                == DecodingFailure(path: "", reason: "found a JSON double 1e+39, \(unfitting)"))
        #expect(
            decodingFailure(Float.self, .string("1"))
                == DecodingFailure(path: "", reason: #"expected Float, found a JSON string "1""#))
    }

    // MARK: Foundation types

    @Test("URL reads any string URL(string:) accepts, relative ones too, as JSONDecoder does")
    func url() throws {
        struct Endpoint: Decodable { var url: URL }
        #expect(try ConfigValueDecoder().decode(Endpoint.self, from: ["url": "https://example.com/a"]).url.host == "example.com")
        #expect(try ConfigValueDecoder().decode(Endpoint.self, from: ["url": "banners/spring"]).url.scheme == nil)
        #expect(decodingFailure(Endpoint.self, ["url": ""]) == DecodingFailure(path: "url", reason: "Invalid URL string."))
        #expect(
            decodingFailure(Endpoint.self, ["url": 1])
                == DecodingFailure(path: "url", reason: "expected String, found a JSON int 1")
        )
    }

    @Test(
        "Date reads ISO-8601 date-times with a time zone, with or without fractional seconds",
        arguments: [
            ("2024-05-01T12:00:00Z", 1_714_564_800), ("2024-05-01T14:00:00+02:00", 1_714_564_800),
            ("2024-05-01T12:00:00.250Z", 1_714_564_800.25),
        ] as [(String, TimeInterval)])
    func dates(_ text: String, seconds: TimeInterval) throws {
        let date = try ConfigValueDecoder().decode(Date.self, from: .string(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.0005)
    }

    @Test("Date refuses other text and numbers, saying which form it wants")
    func badDates() {
        #expect(
            decodingFailure(Date.self, "yesterday")
                == DecodingFailure(
                    path: "",
                    reason:
                        #"expected Date, found a JSON string "yesterday", which is not an ISO-8601 date-time with a time zone such as "2024-05-01T12:00:00Z""#
                ))
        #expect(decodingFailure(Date.self, "2024-05-01")?.reason.contains("not an ISO-8601 date-time") == true)
        #expect(
            decodingFailure(Date.self, 1_714_564_800)
                == DecodingFailure(path: "", reason: "expected Date, found a JSON int 1714564800"))
        struct Event: Decodable { var at: Date }
        #expect(decodingFailure(Event.self, ["at": "soon"])?.path == "at")
        #expect(decodingFailure(Event.self, ["at": .null]) == DecodingFailure(path: "at", reason: "expected Date, found null"))
    }

    @Test("Data reads base64 and refuses anything else, in JSONDecoder's words")
    func data() throws {
        #expect(try ConfigValueDecoder().decode(Data.self, from: "aGVsbG8=") == Data("hello".utf8))
        #expect(decodingFailure(Data.self, "***") == DecodingFailure(path: "", reason: "Encountered Data is not valid Base64."))
        #expect(decodingFailure(Data.self, [1]) == DecodingFailure(path: "", reason: "expected String, found a JSON array [1]"))
    }

    @Test("Decimal reads integers and doubles by their shortest text, exactly")
    func decimal() throws {
        #expect(try ConfigValueDecoder().decode(Decimal.self, from: .double(0.1)) == Decimal(string: "0.1"))
        #expect(try ConfigValueDecoder().decode(Decimal.self, from: .int(5)) == Decimal(5))
        #expect(try ConfigValueDecoder().decode(Decimal.self, from: .double(1e-5)) == Decimal(string: "0.00001"))
        #expect(try ConfigValueDecoder().decode(Decimal.self, from: .double(2.5e20)) == Decimal(string: "250000000000000000000"))
        #expect(
            decodingFailure(Decimal.self, "0.1")
                == DecodingFailure(path: "", reason: #"expected Decimal, found a JSON string "0.1""#))
    }

    // MARK: Collections, enums, optionals

    @Test("dictionaries decode from objects, with String or Int keys")
    func dictionaries() throws {
        #expect(try ConfigValueDecoder().decode([String: Int].self, from: ["a": 1, "b": 2]) == ["a": 1, "b": 2])
        #expect(try ConfigValueDecoder().decode([Int: String].self, from: ["1": "one"]) == [1: "one"])
        #expect(
            decodingFailure([String: Int].self, ["a": 1, "b": "2"])
                == DecodingFailure(path: "b", reason: #"expected Int, found a JSON string "2""#))
    }

    @Test("keys that are not plain names render in brackets")
    func unusualKeyNames() {
        #expect(
            decodingFailure([String: Int].self, ["a.b": true])
                == DecodingFailure(path: #"["a.b"]"#, reason: "expected Int, found a JSON bool true"))
        #expect(decodingFailure([[String: Int]].self, [["x y": "1"]])?.path == #"[0]["x y"]"#)
    }

    @Test("arrays of optionals read null elements as nil; sets read arrays")
    func optionalElementsAndSets() throws {
        #expect(try ConfigValueDecoder().decode([Int?].self, from: [1, nil, 3]) == [1, nil, 3])
        #expect(try ConfigValueDecoder().decode(Set<String>.self, from: ["a", "b", "a"]) == ["a", "b"])
        #expect(try ConfigValueDecoder().decode(Int?.self, from: .null) == nil)
        #expect(try ConfigValueDecoder().decode(Int?.self, from: 4) == 4)
    }

    @Test("a raw-value enum's own error names the path and the unknown value")
    func enumErrors() throws {
        enum Mode: String, Decodable { case fast, safe }
        struct Settings: Decodable { var mode: Mode }
        #expect(try ConfigValueDecoder().decode(Settings.self, from: ["mode": "safe"]).mode == .safe)
        let failure = try #require(decodingFailure(Settings.self, ["mode": "turbo"]))
        #expect(failure.path == "mode")
        #expect(failure.reason.contains("turbo"))
        #expect(
            decodingFailure(Settings.self, ["mode": 1])
                == DecodingFailure(path: "mode", reason: "expected String, found a JSON int 1"))
    }

    // MARK: Hand-written Decodable

    @Test("nested keyed and unkeyed containers, and userInfo is empty")
    func nestedContainers() throws {
        struct Shape: Decodable {
            var x: Int
            var tags: [String]
            var userInfoEmpty: Bool
            enum Keys: String, CodingKey { case point, tags }
            enum PointKeys: String, CodingKey { case x }
            init(from decoder: any Decoder) throws {
                userInfoEmpty = decoder.userInfo.isEmpty
                let container = try decoder.container(keyedBy: Keys.self)
                x = try container.nestedContainer(keyedBy: PointKeys.self, forKey: .point).decode(Int.self, forKey: .x)
                var list = try container.nestedUnkeyedContainer(forKey: .tags)
                var tags: [String] = []
                while !list.isAtEnd { tags.append(try list.decode(String.self)) }
                self.tags = tags
                #expect(list.count == tags.count)
                #expect(container.allKeys.count == 2)
                #expect(container.contains(.tags))
            }
        }
        let shape = try ConfigValueDecoder().decode(Shape.self, from: ["point": ["x": 3], "tags": ["a", "b"]])
        #expect(shape.x == 3 && shape.tags == ["a", "b"] && shape.userInfoEmpty)
        #expect(
            decodingFailure(Shape.self, ["point": [1], "tags": []])
                == DecodingFailure(path: "point", reason: "expected an object, found a JSON array [1]"))
        #expect(
            decodingFailure(Shape.self, ["point": ["x": 1], "tags": "a"])
                == DecodingFailure(path: "tags", reason: #"expected an array, found a JSON string "a""#))
        #expect(
            decodingFailure(Shape.self, ["tags": []]) == DecodingFailure(path: "point", reason: #"missing required key "point""#))
    }

    @Test("reading past the end of an array says how long it is")
    func pastTheEnd() {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        #expect(
            decodingFailure(Pair.self, [1])
                == DecodingFailure(path: "[1]", reason: "expected Int, but the array ends after 1 element"))
        #expect(
            decodingFailure(Pair.self, [])
                == DecodingFailure(path: "[0]", reason: "expected Int, but the array ends after 0 elements"))
    }

    @Test("unkeyed containers decode nil, nested containers and every leaf type in place")
    func unkeyedPositions() throws {
        struct Row: Decodable {
            var values: [String] = []
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                if try c.decodeNil() { values.append("nil") }
                #expect(try c.decodeNil() == false)
                values.append(String(try c.decode(Bool.self)))
                values.append(try c.decode(String.self))
                values.append(String(try c.decode(Double.self)))
                values.append(String(try c.decode(Float.self)))
                values.append(String(try c.decode(Int64.self)))
                let nested = try c.nestedContainer(keyedBy: NameKey.self)
                values.append(String(try nested.decode(Int.self, forKey: NameKey("k"))))
                var inner = try c.nestedUnkeyedContainer()
                values.append(String(try inner.decode(UInt32.self)))
                let sup = try c.superDecoder()
                values.append(try sup.singleValueContainer().decode(String.self))
                #expect(c.isAtEnd)
                #expect(c.currentIndex == 9)
            }
        }
        let row = try ConfigValueDecoder().decode(Row.self, from: [nil, true, "s", 1.5, 2, 3, ["k": 4], [5], "sup"])
        #expect(row.values == ["nil", "true", "s", "1.5", "2.0", "3", "4", "5", "sup"])
    }

    @Test("a failed element leaves the unkeyed container where it was")
    func failedElementDoesNotAdvance() throws {
        struct Lenient: Decodable {
            var value: String
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                if let n = try? c.decode(Int.self) {
                    value = String(n)
                } else {
                    value = try c.decode(String.self)
                }
            }
        }
        #expect(try ConfigValueDecoder().decode(Lenient.self, from: ["x"]).value == "x")
    }

    @Test("superDecoder reads the member named super, or the given key, for class inheritance")
    func superDecoders() throws {
        class Base: Decodable {
            var id: Int
            enum Keys: String, CodingKey { case id }
            required init(from decoder: any Decoder) throws {
                id = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .id)
            }
        }
        final class Derived: Base {
            var name: String
            var parentID: Int
            enum Keys: String, CodingKey { case name, parent }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                name = try container.decode(String.self, forKey: .name)
                parentID = try Base(from: container.superDecoder(forKey: .parent)).id
                try super.init(from: container.superDecoder())
            }
        }
        let derived = try ConfigValueDecoder().decode(Derived.self, from: ["name": "n", "super": ["id": 1], "parent": ["id": 2]])
        #expect(derived.id == 1 && derived.parentID == 2 && derived.name == "n")
        #expect(
            decodingFailure(Derived.self, ["name": "n", "parent": ["id": 2]])
                == DecodingFailure(path: "super", reason: "expected an object, found null"))
    }

    @Test(
        "an error thrown by a type's own init(from:) is its own description: JSONDecoder gives it no path; a DecodingError keeps its path"
    )
    func customErrors() {
        struct Positive: Decodable {
            struct NotPositive: Error, CustomStringConvertible {
                var description: String { "must be positive" }
            }
            init(from decoder: any Decoder) throws {
                let n = try decoder.singleValueContainer().decode(Int.self)
                if n <= 0 { throw NotPositive() }
            }
        }
        struct Checked: Decodable {
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath, debugDescription: "always refused"))
            }
        }
        struct Wrapper: Decodable {
            var values: [Positive]
            var checked: Checked?
        }
        #expect(
            decodingFailure(Wrapper.self, ["values": [1, -2]]) == DecodingFailure(path: "", reason: "must be positive"))
        #expect(
            decodingFailure(Wrapper.self, ["values": [], "checked": 1])
                == DecodingFailure(path: "checked", reason: "always refused"))
    }

    @Test("DecodingError cases thrown by hand are translated with their paths")
    func decodingErrorTranslation() {
        struct Thrower: Decodable {
            init(from decoder: any Decoder) throws {
                let path = decoder.codingPath + [NameKey("inner")]
                let context = DecodingError.Context(codingPath: path, debugDescription: "detail")
                switch try decoder.singleValueContainer().decode(Int.self) {
                case 0: throw DecodingError.typeMismatch(Int.self, context)
                case 1: throw DecodingError.valueNotFound(Int.self, context)
                default: throw DecodingError.keyNotFound(NameKey("gone"), context)
                }
            }
        }
        #expect(decodingFailure(Thrower.self, 0) == DecodingFailure(path: "inner", reason: "expected Int: detail"))
        #expect(
            decodingFailure(Thrower.self, 1)
                == DecodingFailure(path: "inner", reason: "expected Int, found null or nothing: detail"))
        #expect(decodingFailure(Thrower.self, 2) == DecodingFailure(path: "inner.gone", reason: #"missing required key "gone""#))
    }
}

/// A coding key built from any name, for hand-written containers in tests.
struct NameKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}
