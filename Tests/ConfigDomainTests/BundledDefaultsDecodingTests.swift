import ConfigDomain
import Foundation
import Testing

@Suite("Bundled defaults decoding")
struct BundledDefaultsDecodingTests {
    @Test("a JSON object decodes with the strict parser, keeping 1, 1.0 and true apart")
    func json() throws {
        let defaults = try BundledDefaults(decoding: Data(#"{"a": 1, "b": 1.0, "c": true}"#.utf8), source: "d.json")
        #expect(defaults.values == ["a": .int(1), "b": .double(1.0), "c": .bool(true)])
        #expect(defaults.source == "d.json")
    }

    @Test("an XML or binary property list decodes as a dictionary of values")
    func propertyLists() throws {
        let xml = #"<?xml version="1.0"?><plist version="1.0"><dict><key>a</key><integer>2</integer></dict></plist>"#
        #expect(try BundledDefaults(decoding: Data(xml.utf8), source: "d.plist").values == ["a": .int(2)])
        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["on": true] as [String: Any], format: .binary, options: 0)
        #expect(BundledDefaults.isPropertyList(binary))
        #expect(try BundledDefaults(decoding: binary, source: "d.plist").values == ["on": .bool(true)])
    }

    @Test("a JSON top level that is not an object, or broken JSON, is a json payload error with its offset")
    func badJSON() {
        #expect(
            throws: PayloadError(
                format: "json", reason: "the top level must be an object of keys to values, found a JSON array", offset: 0)
        ) {
            try BundledDefaults(decoding: Data("[1]".utf8), source: "d.json")
        }
        #expect {
            try BundledDefaults(decoding: Data(#"{"a": }"#.utf8), source: "d.json")
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.format == "json" && error.offset == 6
        }
    }

    @Test("a broken property list, a non-dictionary one, or one holding a date is a plist payload error")
    func badPropertyLists() {
        #expect {
            try BundledDefaults(decoding: Data(#"<?xml version="1.0"?><plist><dict><key>a</key>"#.utf8), source: "p")
        } throws: { error in
            (error as? PayloadError)?.reason.hasPrefix("not a readable property list") == true
        }
        #expect {
            try BundledDefaults(
                decoding: Data(#"<?xml version="1.0"?><plist version="1.0"><string>x</string></plist>"#.utf8), source: "p")
        } throws: { error in
            (error as? PayloadError)?.reason.hasPrefix("the top level must be a dictionary") == true
        }
        let dated =
            #"<?xml version="1.0"?><plist version="1.0"><dict><key>since</key><date>2024-01-01T00:00:00Z</date></dict></plist>"#
        #expect {
            try BundledDefaults(decoding: Data(dated.utf8), source: "p")
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.format == "plist" && error.path == "since" && error.reason.contains("date has no JSON form")
        }
    }
}
