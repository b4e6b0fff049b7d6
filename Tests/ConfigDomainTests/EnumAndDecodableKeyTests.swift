import ConfigDomain
import Foundation
import Testing

enum Theme: String, CaseIterable, Sendable {
    case light, dark, system
}

enum Tier: Int, CaseIterable, Sendable {
    case free = 0
    case pro = 1
    case team = 2
}

enum Region: String, Sendable {
    case eu, us
}

struct Banner: Codable, Sendable, Equatable {
    var title: String
    var color: String
    var maxShows: Int
}

struct DecodeOnly: Decodable, Sendable, Equatable {
    var id: Int
}

@Suite("Keys of enums (by raw value) and of Decodable types")
struct EnumAndDecodableKeyTests {
    @Test("a String-backed enum reads its raw value")
    func stringEnumReads() throws {
        let key = ConfigKey("theme", default: Theme.system)
        #expect(try key.resolve(.string("dark")).get() == .dark)
        #expect(try key.resolve(text: "light").get() == .light)
        #expect(key.defaultConfigValue == .string("system"))
    }

    @Test("an unknown String raw value is refused with the allowed cases")
    func stringEnumUnknownCase() {
        let key = ConfigKey("theme", default: Theme.system)
        #expect(
            key.resolve(.string("purple")).failure
                == Rejection(
                    key: "theme", value: #""purple""#, rule: "type(Theme)",
                    reason: "no case of Theme has the raw value purple; expected one of light, dark, system"))
    }

    @Test("an Int-backed enum reads its raw value, and an unknown one lists the allowed cases")
    func intEnum() throws {
        let key = ConfigKey("tier", default: Tier.free)
        #expect(try key.resolve(.int(1)).get() == .pro)
        #expect(try key.resolve(.double(2.0)).get() == .team)
        #expect(try key.resolve(text: "2").get() == .team)
        #expect(
            key.resolve(.int(5)).failure?.reason == "no case of Tier has the raw value 5; expected one of 0, 1, 2")
        #expect(key.defaultConfigValue == .int(0))
    }

    @Test("an enum's raw value follows the raw type's rules: a string is not an Int")
    func intEnumRefusesString() {
        let key = ConfigKey("tier", default: Tier.free)
        #expect(key.resolve(.string("1")).failure?.reason == "expected Int, found a JSON string")
    }

    @Test("an enum that is not CaseIterable says which raw value is unknown")
    func nonCaseIterableEnum() {
        let key = ConfigKey("region", default: Region.eu)
        #expect(key.resolve(.string("apac")).failure?.reason == "no case of Region has the raw value apac")
    }

    @Test("a Decodable struct decodes from an object")
    func decodableStruct() throws {
        let key = ConfigKey(decoding: "banner", default: Banner(title: "", color: "blue", maxShows: 0))
        let value: ConfigValue = ["title": "Hi", "color": "red", "maxShows": 3]
        #expect(try key.resolve(value).get() == Banner(title: "Hi", color: "red", maxShows: 3))
    }

    @Test("a Decodable struct decodes from JSON override text")
    func decodableFromText() throws {
        let key = ConfigKey(decoding: "banner", default: Banner(title: "", color: "blue", maxShows: 0))
        let text = #"{"title":"T","color":"green","maxShows":1}"#
        #expect(try key.resolve(text: text).get() == Banner(title: "T", color: "green", maxShows: 1))
        #expect(
            key.resolve(text: "{oops").failure?.reason == "not valid JSON text: invalid JSON at byte 1: unexpected character 'o'")
    }

    @Test("a Decodable mismatch is refused with the path inside the value")
    func decodableMismatch() {
        let key = ConfigKey(decoding: "banner", default: Banner(title: "", color: "blue", maxShows: 0))
        let value: ConfigValue = ["title": "Hi", "color": "red", "maxShows": "3"]
        #expect(
            key.resolve(value).failure
                == Rejection(
                    key: "banner", value: value.jsonText(), rule: "type(Banner)",
                    reason: #"at maxShows: expected Int, found a JSON string "3""#))
    }

    @Test("a secret Decodable key's rejection shows none of its value, whatever JSONDecoder said")
    func secretDecodableRejection() throws {
        struct Credentials: Codable, Sendable { var user: String; var pin: Int }
        let key = ConfigKey(decoding: "credentials", default: Credentials(user: "", pin: 0), secret: true)
        for value: ConfigValue in [
            ["user": "root-7f3a", "pin": 12.5], ["user": "root-7f3a", "pin": "4521"], ["user": 4521, "pin": 1],
        ] {
            let rejection = try #require(key.resolve(value).failure)
            #expect(rejection.value == Rejection.redacted)
            for secret in ["root-7f3a", "12.5", "4521"] {
                #expect(!rejection.description.contains(secret), "\(rejection)")
            }
        }
    }

    @Test("a Decodable array type decodes from an array")
    func decodableArray() throws {
        let key = ConfigKey(decoding: "banners", default: [Banner]())
        let value: ConfigValue = [["title": "A", "color": "c", "maxShows": 1]]
        #expect(try key.resolve(value).get() == [Banner(title: "A", color: "c", maxShows: 1)])
        #expect(key.resolve([["title": "A"]]).failure?.reason == #"at [0].color: missing required key "color""#)
    }

    @Test("a Codable default renders as a value; a Decodable-only default cannot")
    func defaultsRender() {
        let banner = ConfigKey(decoding: "banner", default: Banner(title: "Hi", color: "red", maxShows: 2))
        #expect(banner.defaultConfigValue == ["title": "Hi", "color": "red", "maxShows": 2])
        let decodeOnly = ConfigKey(decoding: "thing", default: DecodeOnly(id: 1))
        #expect(decodeOnly.defaultConfigValue == nil)
        #expect(decodeOnly.descriptor.description == "thing: DecodeOnly = <not renderable>")
    }
}
