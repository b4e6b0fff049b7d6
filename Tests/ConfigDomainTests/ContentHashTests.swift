import ConfigDomain
import Foundation
import Testing

@Suite("ContentHash: stable FNV-1a over the payload bytes")
struct ContentHashTests {
    @Test(
        "known FNV-1a 64 values",
        arguments: [("", 0xcbf2_9ce4_8422_2325), ("a", 0xaf63_dc4c_8601_ec8c), ("foobar", 0x8594_4171_f739_67e8)]
            as [(String, UInt64)])
    func knownValues(_ text: String, expected: UInt64) {
        let hash = ContentHash(of: Data(text.utf8))
        #expect(hash.value == expected)
        #expect(hash.byteCount == text.utf8.count)
        #expect(ContentHash(of: Array(text.utf8)) == hash)
    }

    @Test("one changed byte changes the hash; same bytes give the same hash")
    func detectsChange() {
        let a = ContentHash(of: Data(#"{"flag":true}"#.utf8))
        #expect(a == ContentHash(of: Data(#"{"flag":true}"#.utf8)))
        #expect(a != ContentHash(of: Data(#"{"flag":false}"#.utf8)))
        #expect(a != ContentHash(of: Data(#"{"flag":trux}"#.utf8)))
    }

    @Test("description is fnv1a:<16 hex digits>/<byte count>")
    func description() {
        #expect(ContentHash(of: Data("a".utf8)).description == "fnv1a:af63dc4c8601ec8c/1")
        #expect(ContentHash(value: 0x1f, byteCount: 3).description == "fnv1a:000000000000001f/3")
    }

    @Test("Codable round trip keeps value and byte count")
    func codable() throws {
        let hash = ContentHash(of: Data("payload".utf8))
        let data = try JSONEncoder().encode(hash)
        #expect(try JSONDecoder().decode(ContentHash.self, from: data) == hash)
    }
}
