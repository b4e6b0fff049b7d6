import Foundation
import Testing

@testable import EtcdAdapter

@Suite("KeyRange")
struct KeyRangeTests {
    @Test("a document is exactly its key, base64")
    func document() {
        let range = KeyRange(.document(key: "/app/config"))
        #expect(range.key == Data("/app/config".utf8).base64EncodedString())
        #expect(range.rangeEnd == nil)
    }

    @Test("a prefix ends at the prefix with its last byte incremented")
    func prefix() {
        let range = KeyRange(.prefix("/app/flags/"))
        #expect(range.rangeEnd == Data("/app/flags0".utf8).base64EncodedString())
    }

    @Test("trailing 0xFF bytes are dropped before incrementing; all 0xFF means the end of the key space")
    func prefixEnd() {
        #expect(KeyRange.prefixEnd([0x61, 0xFF, 0xFF]) == Data([0x62]))
        #expect(KeyRange.prefixEnd([0xFF, 0xFF]) == Data([0]))
        #expect(KeyRange.prefixEnd([]) == Data([0]))
    }
}
