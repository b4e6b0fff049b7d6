import ConfigDomain
import ConfigPorts
import Foundation
import SigningAdapter
import Testing

/// Every tampered payload, signature or version is refused: none verifies.
@Suite("Tampering: every altered payload, signature or version is refused")
struct TamperTests {
    private let small = utf8(#"{"new_checkout":false,"max_retries":3,"theme":"light"}"#)

    /// Whether `payload` with `signature` is refused as a mismatch (anything else, including acceptance, is a failure).
    private func isRefused(_ payload: Data, _ signature: PayloadSignature, by verifier: Ed25519Verifier) -> Bool {
        do throws(SignatureError) {
            try verifier.check(payload, signature: signature)
            return false
        } catch {
            return error.kind == .mismatch(keyID: signature.keyID)
        }
    }

    @Test("flipping any one bit of a small payload: all of them are refused (exhaustive)")
    func everyBitOfASmallPayload() throws {
        let verifier = try TestKeys.verifier()
        let signature = try TestKeys.current().sign(small, version: 9)
        #expect(!isRefused(small, signature, by: verifier), "the untouched payload verifies")
        var accepted: [Int] = []
        for bit in 0..<(small.count * 8) {
            var tampered = small
            tampered[bit / 8] ^= 1 << UInt8(bit % 8)
            if !isRefused(tampered, signature, by: verifier) { accepted.append(bit) }
        }
        #expect(accepted.isEmpty, "accepted bit flips: \(accepted)")
        #expect(small.count * 8 == 432)
    }

    @Test("flipping any one bit of the signature, or of the signed version: all refused (exhaustive)")
    func everyBitOfTheSignatureAndVersion() throws {
        let verifier = try TestKeys.verifier()
        let signature = try TestKeys.current().sign(small, version: 0x0123_4567_89AB_CDEF)
        var accepted: [String] = []
        for bit in 0..<(signature.signature.count * 8) {
            var tampered = signature
            tampered.signature[bit / 8] ^= 1 << UInt8(bit % 8)
            if !isRefused(small, tampered, by: verifier) { accepted.append("signature bit \(bit)") }
        }
        for bit in 0..<64 {
            var tampered = signature
            tampered.version ^= 1 << UInt64(bit)
            if !isRefused(small, tampered, by: verifier) { accepted.append("version bit \(bit)") }
        }
        #expect(accepted.isEmpty, "accepted: \(accepted)")
    }

    @Test("flipping random bits of a 256 KiB payload, one to eight at a time: all 2,000 refused")
    func randomBitsOfALargePayload() throws {
        var generator = SeededGenerator(seed: 2026)
        let large = Data((0..<(256 * 1024)).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) })
        let verifier = try TestKeys.verifier()
        let signature = try TestKeys.current().sign(large, version: 1)
        #expect(!isRefused(large, signature, by: verifier))
        var accepted = 0
        for _ in 0..<2_000 {
            var tampered = large
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let bit = Int.random(in: 0..<(large.count * 8), using: &generator)
                tampered[bit / 8] ^= 1 << UInt8(bit % 8)
            }
            if tampered != large && !isRefused(tampered, signature, by: verifier) { accepted += 1 }
        }
        #expect(accepted == 0)
    }

    @Test("truncating a small payload at every length, or extending it by a byte: all refused (exhaustive)")
    func everyTruncation() throws {
        let verifier = try TestKeys.verifier()
        let signature = try TestKeys.current().sign(small, version: 9)
        var accepted: [Int] = []
        for length in 0..<small.count where !isRefused(small.prefix(length), signature, by: verifier) {
            accepted.append(length)
        }
        for length in 1..<small.count where !isRefused(small.suffix(length), signature, by: verifier) {
            accepted.append(-length)
        }
        #expect(accepted.isEmpty, "accepted prefixes (and negated suffix lengths): \(accepted)")
        #expect(isRefused(small + Data([0x20]), signature, by: verifier), "one extra byte (a space) is refused too")
        #expect(isRefused(small + Data([0x0A]), signature, by: verifier), "a trailing newline is refused too")
    }

    @Test("a payload re-signed by another key under a trusted id is refused; under an unknown id too")
    func anotherKey() throws {
        let verifier = try TestKeys.verifier()
        var tampered = small
        tampered[tampered.count - 3] = UInt8(ascii: "k")
        #expect(isRefused(tampered, try TestKeys.impostor().sign(tampered, version: 9), by: verifier))
        let stranger = try TestKeys.stranger().sign(tampered, version: 9)
        do throws(SignatureError) {
            try verifier.check(tampered, signature: stranger)
            Issue.record("a stranger's signature must be refused")
        } catch {
            #expect(error.kind == .unknownKey("stranger"))
        }
    }

    @Test("a signature moved to another payload, another key id or another configuration name, is refused")
    func swappedParts() throws {
        let verifier = try TestKeys.verifier()
        let other = utf8(#"{"new_checkout":true,"max_retries":3,"theme":"light"}"#)
        #expect(isRefused(other, try TestKeys.current().sign(small, version: 9), by: verifier))
        var relabelled = try TestKeys.previous().sign(small, version: 9)
        relabelled.keyID = "prod-2026"
        #expect(isRefused(small, relabelled, by: verifier), "the previous key's signature named as the current key's")
        var renamed = try TestKeys.current().sign(small, version: 9, for: "checkout")
        renamed.configurationName = "default"
        #expect(isRefused(small, renamed, by: verifier), "another configuration's signature relabelled as this one's")
    }
}
