import Foundation
import Testing

@testable import ConfigDomain

/// A key's name fingerprint: what a client's read compares instead of the name.
@Suite("Key name fingerprints")
struct KeyNameIDTests {
    @Test("keys with the same name share a fingerprint, wherever and however the name was made")
    func sameName() {
        let literal = ConfigKey("new_checkout", default: false)
        let built = ConfigKey(["new", "checkout"].joined(separator: "_"), default: true)
        let long = String(repeating: "setting.", count: 8) + "x"
        #expect(literal.nameID == built.nameID)
        #expect(ConfigKey(long, default: 1).nameID == ConfigKey(String(long.reversed().reversed()), default: 2).nameID)
    }

    @Test("different names have different fingerprints: both hashes differ for 10,000 names")
    func differentNames() {
        let ids = (0..<10_000).map { KeyNameID("key_\($0)") }
        #expect(Set(ids).count == 10_000)
        #expect(Set(ids.map(\.hash)).count == 10_000)
        #expect(Set(ids.map(\.check)).count == 10_000)
        #expect(ids.allSatisfy { $0.hash != $0.check })
    }
}
