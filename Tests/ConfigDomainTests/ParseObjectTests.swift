import ConfigDomain
import Foundation
import Testing

@Suite("JSONParser.parseObject: a payload's top-level JSON object, or a PayloadError under the format's name")
struct ParseObjectTests {
    @Test("an object's members are returned")
    func object() throws {
        let members = try JSONParser().parseObject(Data(#"{"a":1,"b":[true]}"#.utf8), format: "demo")
        #expect(members == ["a": .int(1), "b": .array([.bool(true)])])
    }

    @Test("another top-level value is refused with the requirement, what was found, and offset 0")
    func notAnObject() {
        #expect(
            throws: PayloadError(format: "demo", reason: "the top level must be a JSON object, found a JSON array", offset: 0)
        ) {
            try JSONParser().parseObject(Data("[1]".utf8), format: "demo")
        }
        #expect(
            throws: PayloadError(format: "demo", reason: "a demo document is a JSON object, found a JSON string", offset: 0)
        ) {
            try JSONParser().parseObject(Data(#""x""#.utf8), format: "demo", requirement: "a demo document is a JSON object")
        }
    }

    @Test("bytes that are not JSON are refused with the parser's reason and byte offset")
    func notJSON() {
        #expect(throws: PayloadError(format: "demo", parse: JSONParseError(offset: 5, reason: .unexpectedEnd))) {
            try JSONParser().parseObject(Data(#"{"a":"#.utf8), format: "demo")
        }
    }
}
