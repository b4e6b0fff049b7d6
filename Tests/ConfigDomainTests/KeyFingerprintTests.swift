import Foundation
import Testing

@testable import ConfigDomain

/// A key's fingerprint: what a client's read compares instead of the name and definition.
@Suite("Key fingerprints")
struct KeyFingerprintTests {
    enum Mode: String, Sendable { case fast, slow }
    struct Banner: Codable, Hashable, Sendable { var title: String }
    struct Plain: Codable, Sendable { var title: String }
    struct Opaque: Decodable, Sendable { var title: String }

    @Test("keys with the same name and definition share a fingerprint, wherever and however the name was made")
    func sameNameAndDefinition() {
        let literal = ConfigKey("new_checkout", default: false)
        let built = ConfigKey(["new", "checkout"].joined(separator: "_"), default: false)
        let long = String(repeating: "setting.", count: 8) + "x"
        #expect(literal.fingerprint == built.fingerprint)
        #expect(ConfigKey(long, default: 1).fingerprint == ConfigKey(String(long.reversed().reversed()), default: 1).fingerprint)
        let first = ConfigKey("max_retries", default: 3, rules: [.range(0...10)], secret: true, summary: "Retries")
        let second = ConfigKey("max_retries", default: 3, rules: [.range(0...10)], secret: true, summary: "Retries")
        #expect(first.fingerprint == second.fingerprint)
    }

    @Test("enum and Decodable keys declared twice match, though each declaration makes its own converter")
    func ownConverters() {
        #expect(ConfigKey("mode", default: Mode.fast).fingerprint == ConfigKey("mode", default: Mode.fast).fingerprint)
        let banner = ConfigKey(decoding: "banner", default: Banner(title: "Sale"))
        #expect(banner.fingerprint == ConfigKey(decoding: "banner", default: Banner(title: "Sale")).fingerprint)
        #expect(banner.fingerprint != ConfigKey(decoding: "banner", default: Banner(title: "Other")).fingerprint)
    }

    @Test(
        "another default, rule set, secrecy or summary changes the confirming hash, never the table hash",
        arguments: [
            ConfigKey("max_retries", default: 7, rules: [.range(0...10)]),
            ConfigKey("max_retries", default: 3),
            ConfigKey("max_retries", default: 3, rules: [.range(0...5)]),
            ConfigKey("max_retries", default: 3, rules: [.range(0...10), .atLeast(1)]),
            ConfigKey("max_retries", default: 3, rules: [.range(0...10)], secret: true),
            ConfigKey("max_retries", default: 3, rules: [.range(0...10)], summary: "Retries"),
        ])
    func definitionCounts(_ other: ConfigKey<Int>) {
        let registered = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        #expect(registered.fingerprint.hash == other.fingerprint.hash)
        #expect(registered.fingerprint.hash == KeyFingerprint.hash(of: "max_retries"))
        #expect(registered.fingerprint.check != other.fingerprint.check)
    }

    @Test("a Decodable default is hashed as itself when its type is Hashable, else left out (rendering runs an encoder)")
    func decodableDefault() {
        let plain = ConfigKey(decoding: "plain", default: Plain(title: "a"))
        #expect(plain.fingerprint == ConfigKey(decoding: "plain", default: Plain(title: "b")).fingerprint)
        let opaque = ConfigKey(decoding: "opaque", default: Opaque(title: "a"))
        #expect(opaque.defaultConfigValue == nil)
        #expect(opaque.fingerprint == ConfigKey(decoding: "opaque", default: Opaque(title: "b")).fingerprint)
        #expect(plain.converter.rendersByEncoding)
        #expect(!ConfigKey("n", default: 1).converter.rendersByEncoding)
    }

    @Test("different names have different fingerprints: both hashes differ for 10,000 names")
    func differentNames() {
        let ids = (0..<10_000).map { ConfigKey("key_\($0)", default: 0).fingerprint }
        #expect(Set(ids).count == 10_000)
        #expect(Set(ids.map(\.hash)).count == 10_000)
        #expect(Set(ids.map(\.check)).count == 10_000)
        #expect(ids.allSatisfy { $0.hash != $0.check })
    }
}
