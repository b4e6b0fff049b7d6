import ConfigDomain
import Foundation
import SigningAdapter

/// A small deterministic random generator (SplitMix64), so random tampering is repeatable.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Fixed keys, so failures are repeatable (the seeds are test data, not secrets).
enum TestKeys {
    static func current() throws(ConfigurationError) -> Ed25519Signer { try signer("prod-2026", seedByte: 1) }
    static func previous() throws(ConfigurationError) -> Ed25519Signer { try signer("prod-2025", seedByte: 2) }
    /// Another key that claims the current key's id.
    static func impostor() throws(ConfigurationError) -> Ed25519Signer { try signer("prod-2026", seedByte: 3) }
    static func stranger() throws(ConfigurationError) -> Ed25519Signer { try signer("stranger", seedByte: 4) }

    static func signer(_ keyID: String, seedByte: UInt8) throws(ConfigurationError) -> Ed25519Signer {
        try Ed25519Signer(keyID: keyID, privateKey: Data(repeating: seedByte, count: 32))
    }

    /// A verifier trusting the current and the previous key.
    static func verifier() throws -> Ed25519Verifier {
        try Ed25519Verifier(trustedKeys: [current().publicKey, previous().publicKey])
    }
}

extension Ed25519Signer {
    /// The signature of `payload` at `version` for the configuration `name` (the client's default unless given).
    func sign(_ payload: Data, version: UInt64, for name: String = "default") throws(SigningError) -> PayloadSignature {
        try sign(payload, configurationName: name, version: version)
    }

    /// The signature text of `payload` at `version` for the configuration `name` (signing never fails with a valid key).
    func text(_ payload: Data, version: UInt64, for name: String = "default") throws -> String {
        try sign(payload, version: version, for: name).text
    }
}

extension Ed25519Verifier {
    /// Checks `signature` over `payload` for the configuration "default", without a replay floor.
    func check(_ payload: Data, signature: PayloadSignature) throws(SignatureError) {
        try check(payload, signature: signature, configurationName: "default")
    }
}

/// The bytes of `text`.
func utf8(_ text: String) -> Data { Data(text.utf8) }
