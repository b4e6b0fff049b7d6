import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@Suite("PlainJSONFormat: a JSON object of keys to values")
struct PlainJSONFormatTests {
    @Test("top-level members become values by key")
    func topLevelMembers() throws {
        let values = try PlainJSONFormat().decode(Data(#"{"new_checkout":true,"max_retries":3,"ratio":1.0}"#.utf8)).values
        #expect(values == ["new_checkout": .bool(true), "max_retries": .int(3), "ratio": .double(1.0)])
    }

    @Test(
        "a top level that is not an object is refused, naming what it is",
        arguments: [("[1,2]", "array"), ("1", "int"), (#""x""#, "string"), ("null", "null"), ("true", "bool")])
    func nonObjectTopLevel(_ text: String, kind: String) {
        #expect(
            decodeFailure(text)
                == PayloadError(
                    format: "json", reason: "the top level must be a JSON object of keys to values, found a JSON \(kind)",
                    offset: 0))
    }

    @Test("a parse error keeps the parser's reason and offset")
    func parseErrorKeepsOffset() {
        let error = decodeFailure(#"{"a":1,"a":2}"#)
        #expect(error == PayloadError(format: "json", reason: #"duplicate key "a" in an object"#, offset: 7))
        #expect(error?.description == #"invalid json payload at byte 7: duplicate key "a" in an object"#)
    }

    @Test("the format's parser and its depth limit are used")
    func customParser() {
        let format = PlainJSONFormat(parser: JSONParser(maxDepth: 1))
        #expect(format.parser.maxDepth == 1)
        var failure: PayloadError?
        do throws(PayloadError) { _ = try format.decode(Data(#"{"a":[1]}"#.utf8)) } catch { failure = error }
        #expect(failure == PayloadError(format: "json", reason: "arrays and objects nest deeper than the limit of 1", offset: 5))
    }

    @Test("dotted flattening also exposes nested members as parent.child, keeping objects whole")
    func dottedFlattening() throws {
        let format = PlainJSONFormat(flattening: .dottedPaths)
        let values = try format.decode(Data(#"{"banner":{"title":"Hi","style":{"color":"red"}},"n":1}"#.utf8)).values
        #expect(values["banner.title"] == .string("Hi"))
        #expect(values["banner.style.color"] == .string("red"))
        #expect(values["banner.style"] == .object(["color": .string("red")]))
        #expect(values["banner"]?.objectValue?.count == 2)
        #expect(values["n"] == .int(1))
        #expect(values.count == 5)
    }

    @Test("a literal dotted top-level key wins over a flattened one")
    func literalDottedKeyWins() throws {
        let values = try PlainJSONFormat(flattening: .dottedPaths).decode(Data(#"{"a.b":"literal","a":{"b":"nested"}}"#.utf8)).values
        #expect(values["a.b"] == .string("literal"))
    }

    @Test("arrays are not flattened")
    func arraysNotFlattened() throws {
        let values = try PlainJSONFormat(flattening: .dottedPaths).decode(Data(#"{"a":[{"b":1}]}"#.utf8)).values
        #expect(values.keys.sorted() == ["a"])
    }

    @Test("names say which flattening is used")
    func names() {
        #expect(PlainJSONFormat().name == "json")
        #expect(PlainJSONFormat(flattening: .dottedPaths).name == "json-dotted")
    }

    private func decodeFailure(_ text: String) -> PayloadError? {
        do throws(PayloadError) {
            _ = try PlainJSONFormat().decode(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }
}
