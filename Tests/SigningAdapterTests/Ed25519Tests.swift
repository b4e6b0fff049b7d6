import ConfigDomain
import ConfigPorts
import Foundation
import SigningAdapter
import Testing

@Suite("Ed25519 signing and verification, keys and their encodings")
struct Ed25519Tests {
    private let payload = utf8(#"{"new_checkout":true,"max_retries":5}"#)

    @Test("a signature made by a key verifies under its public key, over exactly the signed bytes and version")
    func roundTrip() throws {
        let signature = try TestKeys.current().sign(payload, version: 42)
        #expect(signature.keyID == "prod-2026")
        #expect(signature.version == 42)
        #expect(signature.signature.count == 64)
        try TestKeys.verifier().check(payload, signature: signature)
        try TestKeys.verifier().check(payload, signature: PayloadSignature(parsing: signature.text))
    }

    @Test("several keys are trusted at once: each verifies its own signatures (rotation)")
    func rotation() throws {
        let verifier = try TestKeys.verifier()
        try verifier.check(payload, signature: TestKeys.current().sign(payload, version: 1))
        try verifier.check(payload, signature: TestKeys.previous().sign(payload, version: 1))
        #expect(verifier.trustedKeys.map(\.keyID) == ["prod-2025", "prod-2026"], "sorted by key id")
        let afterRotation = try Ed25519Verifier(trustedKeys: [TestKeys.current().publicKey])
        #expect(throws: SignatureError.self) {
            try afterRotation.check(payload, signature: TestKeys.previous().sign(payload, version: 1))
        }
    }

    @Test("an unknown key id is refused, naming the id and the trusted ones")
    func unknownKey() throws {
        let signature = try TestKeys.stranger().sign(payload, version: 1)
        let verifier = try TestKeys.verifier()
        do throws(SignatureError) {
            try verifier.check(payload, signature: signature)
            Issue.record("an unknown key id must be refused")
        } catch {
            #expect(error.kind == .unknownKey("stranger"))
            #expect(error.message.contains("\"stranger\", which this client does not trust (trusted: prod-2025, prod-2026)"))
            #expect(error.message.contains("add that public key to the verifier"))
        }
    }

    @Test("a signature by another key under a trusted key id is a mismatch")
    func impostor() throws {
        let signature = try TestKeys.impostor().sign(payload, version: 1)
        let verifier = try TestKeys.verifier()
        do throws(SignatureError) {
            try verifier.check(payload, signature: signature)
            Issue.record("another key's signature must be refused")
        } catch {
            #expect(error.kind == .mismatch(keyID: "prod-2026"))
            #expect(error.message.contains("does not match its bytes under the key \"prod-2026\""))
            #expect(error.message.contains("remote-config sign"))
        }
    }

    @Test("signatures of the wrong length are mismatches, never crashes", arguments: [0, 1, 63, 65, 128])
    func wrongLength(count: Int) throws {
        let signature = PayloadSignature(
            keyID: "prod-2026", configurationName: "default", version: 1, signature: Data(repeating: 9, count: count))
        let verifier = try TestKeys.verifier()
        do throws(SignatureError) {
            try verifier.check(payload, signature: signature)
            Issue.record("a \(count)-byte signature must be refused")
        } catch {
            #expect(error.kind == .mismatch(keyID: "prod-2026"))
        }
    }

    @Test("keys are 32 bytes of RFC 8032, in standard base64; a private key gives back its public key")
    func encodings() throws {
        // RFC 8032, section 7.1, TEST 1: the secret key and the public key derived from it.
        let secret = try #require(Data(hex: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        let public_ = try #require(Data(hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let signer = try Ed25519Signer(keyID: "rfc8032", privateKey: secret)
        #expect(signer.publicKey.rawRepresentation == public_)
        #expect(signer.publicKey.base64.count == 44)
        #expect(signer.base64PrivateKey == secret.base64EncodedString())

        let again = try Ed25519Signer(keyID: "rfc8032", base64PrivateKey: "  \(signer.base64PrivateKey)\n")
        #expect(again.publicKey == signer.publicKey, "whitespace around a key is ignored")
        let parsed = try Ed25519PublicKey(keyID: "rfc8032", base64: public_.base64EncodedString() + "\n")
        #expect(parsed == signer.publicKey)
        let verifier = try Ed25519Verifier(base64Keys: ["rfc8032": parsed.base64])
        try verifier.check(payload, signature: again.sign(payload, version: 3))
    }

    @Test("generated keys are new each time and work")
    func generate() throws {
        let one = try Ed25519Signer.generate(keyID: "k1")
        let two = try Ed25519Signer.generate(keyID: "k1")
        #expect(one.publicKey != two.publicKey)
        try Ed25519Verifier(trustedKeys: [one.publicKey]).check(payload, signature: one.sign(payload, version: 0))
    }

    @Test(
        "a key that is not 32 bytes, or not base64, is a configuration error saying what a key looks like",
        arguments: [
            ("", "not standard base64"), ("not base64!", "not standard base64"),
            (Data(repeating: 1, count: 31).base64EncodedString(), "has 31 bytes"),
            (Data(repeating: 1, count: 33).base64EncodedString(), "has 33 bytes"),
            (Data(repeating: 1, count: 64).base64EncodedString(), "has 64 bytes"),
        ] as [(String, String)])
    func badKeys(_ base64: String, detail: String) {
        expectRefused(base64, detail) { _ = try Ed25519PublicKey(keyID: "k", base64: base64) }
        expectRefused(base64, detail) { _ = try Ed25519Signer(keyID: "k", base64PrivateKey: base64) }
        expectRefused(base64, detail) { _ = try Ed25519Verifier(base64Keys: ["k": base64]) }
    }

    private func expectRefused(
        _ base64: String, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation, _ attempt: () throws -> Void
    ) {
        do {
            try attempt()
            Issue.record("\(base64) must be refused", sourceLocation: sourceLocation)
        } catch let error as ConfigurationError {
            #expect(error.kind == .invalidAdapterSetting, sourceLocation: sourceLocation)
            #expect(error.message.contains(detail), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains("remote-config keygen"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a ConfigurationError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "a key id that could not travel in a signature is refused",
        arguments: ["", "has space", "a,b", "x=y", String(repeating: "k", count: 65)])
    func badKeyID(_ keyID: String) {
        let raw = Data(repeating: 1, count: 32)
        #expect(throws: ConfigurationError.self) { try Ed25519Signer(keyID: keyID, privateKey: raw) }
        #expect(throws: ConfigurationError.self) {
            try Ed25519PublicKey(keyID: keyID, rawRepresentation: TestKeys.current().publicKey.rawRepresentation)
        }
        #expect(throws: ConfigurationError.self) { try Ed25519Signer.generate(keyID: keyID) }
    }

    @Test("a verifier needs at least one key, and one key per id")
    func verifierSetup() throws {
        do throws(ConfigurationError) {
            _ = try Ed25519Verifier(trustedKeys: [])
            Issue.record("an empty verifier must be refused")
        } catch {
            #expect(error.message.contains("at least one trusted public key"))
        }
        do throws(ConfigurationError) {
            _ = try Ed25519Verifier(trustedKeys: [TestKeys.current().publicKey, TestKeys.impostor().publicKey])
            Issue.record("two keys under one id must be refused")
        } catch {
            #expect(error.message.contains("two different public keys for the key id \"prod-2026\""))
        }
        let twice = try Ed25519Verifier(trustedKeys: [TestKeys.current().publicKey, TestKeys.current().publicKey])
        #expect(try twice.trustedKeys == [TestKeys.current().publicKey], "the same key twice is one key")
    }

    @Test("the signing error says what failed")
    func signingErrorText() {
        #expect(SigningError(message: "boom").description == "signing failed: boom")
    }
}

extension Data {
    /// The bytes of a hex string, or nil.
    init?(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
