import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@Suite("Mapped payload format")
struct MappedFormatTests {
    /// A vendor format: `{"flags": [{"key": "...", "value": ...}]}`.
    private let vendor = MappedFormat(name: "acme-flags") { document throws(PayloadError) in
        guard let flags = document["flags"]?.arrayValue else {
            throw PayloadError(format: "acme-flags", reason: "expected a \"flags\" array", path: "flags")
        }
        var values: [String: ConfigValue] = [:]
        for (index, flag) in flags.enumerated() {
            guard let key = flag["key"]?.stringValue, let value = flag["value"] else {
                throw PayloadError(format: "acme-flags", reason: "each flag needs a key and a value", path: "flags[\(index)]")
            }
            values[key] = value
        }
        return values
    }

    @Test("the closure maps the parsed document to values, keeping JSON types")
    func mapsDocument() throws {
        let bytes = Data(
            #"{"flags": [{"key": "a", "value": 1}, {"key": "b", "value": 1.0}, {"key": "c", "value": {"x": true}}]}"#.utf8)
        #expect(try vendor.decode(bytes).values == ["a": .int(1), "b": .double(1.0), "c": ["x": true]])
        #expect(vendor.name == "acme-flags")
    }

    @Test("bytes that are not JSON fail under the format's name with the parser's offset")
    func malformedJSON() {
        do throws(PayloadError) {
            _ = try vendor.decode(Data(#"{"flags": [}"#.utf8))
            Issue.record("expected a PayloadError")
        } catch {
            #expect(error.format == "acme-flags")
            #expect(error.offset == 11)
        }
    }

    @Test("an error thrown by the closure passes through unchanged")
    func closureErrorPassesThrough() {
        do throws(PayloadError) {
            _ = try vendor.decode(Data(#"{"flags": [{"key": "a"}]}"#.utf8))
            Issue.record("expected a PayloadError")
        } catch {
            #expect(error == PayloadError(format: "acme-flags", reason: "each flag needs a key and a value", path: "flags[0]"))
        }
    }

    @Test("the parser's depth limit applies")
    func depthLimit() {
        let shallow = MappedFormat(name: "shallow", parser: JSONParser(maxDepth: 2)) { _ throws(PayloadError) in [:] }
        do throws(PayloadError) {
            _ = try shallow.decode(Data("[[[1]]]".utf8))
            Issue.record("expected a PayloadError")
        } catch {
            #expect(error.reason.contains("limit of 2"))
        }
    }

    @Test("a mapped format works where any PayloadFormat is expected")
    func usableAsPayloadFormat() throws {
        let format: any PayloadFormat = MappedFormat(name: "identity") { value throws(PayloadError) in
            ["whole": value]
        }
        #expect(try format.decode(Data("[1]".utf8)).values == ["whole": [1]])
    }
}
