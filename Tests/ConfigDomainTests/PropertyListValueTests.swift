import ConfigDomain
import Foundation
import Testing

@Suite("Property lists as values")
struct PropertyListValueTests {
    /// Parses an XML property list's top-level dictionary.
    func parsed(_ body: String) throws -> [String: Any] {
        let text = #"<?xml version="1.0"?><plist version="1.0"><dict>"# + body + "</dict></plist>"
        return try #require(try PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil) as? [String: Any])
    }

    @Test("true, 1 and 1.0 from a parsed property list stay a Boolean, an integer and a double")
    func parsedNumbers() throws {
        let members = try parsed(
            "<key>b</key><true/><key>i</key><integer>1</integer><key>d</key><real>1.0</real><key>s</key><string>x</string>")
        #expect(try ConfigValue(propertyList: members["b"] as Any) == .bool(true))
        #expect(try ConfigValue(propertyList: members["i"] as Any) == .int(1))
        #expect(try ConfigValue(propertyList: members["d"] as Any) == .double(1.0))
        #expect(try ConfigValue(propertyList: members["s"] as Any) == .string("x"))
    }

    @Test("Swift and Foundation objects, as UserDefaults returns them, keep their kinds too")
    func foundationObjects() throws {
        #expect(try ConfigValue(propertyList: true) == .bool(true))
        #expect(try ConfigValue(propertyList: 1) == .int(1))
        #expect(try ConfigValue(propertyList: 1.5) == .double(1.5))
        #expect(try ConfigValue(propertyList: NSNumber(value: false)) == .bool(false))
        #expect(try ConfigValue(propertyList: NSNumber(value: 7)) == .int(7))
        #expect(try ConfigValue(propertyList: NSNumber(value: 2.5)) == .double(2.5))
    }

    @Test("arrays and dictionaries convert element by element; a missing element is null")
    func collections() throws {
        let members = try parsed(
            "<key>a</key><array><false/><integer>0</integer></array><key>o</key><dict><key>k</key><string>v</string></dict>")
        #expect(try ConfigValue(propertyList: members["a"] as Any) == [false, 0])
        #expect(try ConfigValue(propertyList: members["o"] as Any) == ["k": "v"])
        #expect(try ConfigValue(propertyList: [1, nil] as [Any?]) == [1, nil])
        #expect(try ConfigValue(propertyList: ["x": NSNull()] as [String: Any]) == ["x": nil])
    }

    @Test("dates, data and other objects have no JSON form and are refused with where they are")
    func refused() {
        #expect(throws: ConversionError.self) { try ConfigValue(propertyList: Date()) }
        #expect {
            try ConfigValue(propertyList: ["list": [1, Data([1])]] as [String: Any])
        } throws: { error in
            (error as? ConversionError)?.reason
                == "at list: at [1]: a property list data has no JSON form; use a Boolean, number, string, array or dictionary"
        }
        #expect {
            try ConfigValue(propertyList: [1: "one"] as [Int: String])
        } throws: { error in
            (error as? ConversionError)?.reason.contains("has no JSON form") == true
        }
    }

    @Test("values turn back into property-list objects; null cannot, anywhere in the value")
    func backToPropertyList() throws {
        let value: ConfigValue = ["b": true, "i": 3, "d": 0.5, "s": "x", "a": [1, "two"]]
        let object = try value.propertyList()
        #expect(try ConfigValue(propertyList: object) == value)
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        #expect(try ConfigValue(propertyList: PropertyListSerialization.propertyList(from: data, format: nil)) == value)
        #expect(throws: ConversionError.self) { try ConfigValue.null.propertyList() }
        #expect {
            try ConfigValue.array([1, .null]).propertyList()
        } throws: { error in
            (error as? ConversionError)?.reason == "a property list cannot hold null; remove the value instead"
        }
    }
}
