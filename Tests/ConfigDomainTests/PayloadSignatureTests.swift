import ConfigDomain
import Foundation
import Testing

@Suite("Payload signatures: the signed message and the text form")
struct PayloadSignatureTests {
    private let bytes = Data((0..<64).map { UInt8($0) })
    private var base64: String { bytes.base64EncodedString() }

    @Test("the signed message is the fixed prefix, the version as 8 big-endian bytes, then the payload unchanged")
    func signedMessage() {
        let payload = Data(#"{"a":1}"#.utf8)
        let message = PayloadSignature.signedMessage(payload: payload, version: 0x0102_0304_0506_0708)
        #expect(message == Data("remote-config signature v1\u{0}".utf8) + Data([1, 2, 3, 4, 5, 6, 7, 8]) + payload)
        #expect(PayloadSignature.signedMessage(payload: Data(), version: 0).count == PayloadSignature.messagePrefix.count + 8)
        #expect(
            PayloadSignature.signedMessage(payload: payload, version: 1)
                != PayloadSignature.signedMessage(payload: payload, version: 2),
            "the version is signed")
    }

    @Test("the text form round-trips")
    func roundTrip() throws {
        let signature = PayloadSignature(keyID: "prod-2026.a_b", version: UInt64.max, signature: bytes)
        #expect(signature.text == "keyid=prod-2026.a_b, version=18446744073709551615, sig=\(base64)")
        #expect(try PayloadSignature(parsing: signature.text) == signature)
    }

    @Test(
        "parts come in any order, names in any case, with spaces or tabs around them",
        arguments: [
            "sig=B64, keyid=k1, version=7",
            "KeyId=k1,Version=7,SIG=B64",
            " \tkeyid=k1 ,  version=7\t, sig=B64  ",
        ])
    func lenientLayout(_ template: String) throws {
        let text = template.replacingOccurrences(of: "B64", with: base64)
        #expect(try PayloadSignature(parsing: text) == PayloadSignature(keyID: "k1", version: 7, signature: bytes))
    }

    @Test(
        "malformed text is refused saying which part is wrong",
        arguments: [
            ("", "an empty part"),
            ("keyid=k1, version=7", "sig is missing"),
            ("keyid=k1, sig=B64", "version is missing"),
            ("version=7, sig=B64", "keyid is missing"),
            ("keyid=k1, version=7, sig=B64,", "an empty part"),
            ("keyid=k1,, version=7, sig=B64", "an empty part"),
            ("keyid=k1, version=7, sig=B64, alg=ed25519", "unknown part \"alg\""),
            ("keyid=k1, keyid=k2, version=7, sig=B64", "keyid is given twice"),
            ("keyid=k1; version=7; sig=B64", "version is missing"),
            ("keyid k1, version=7, sig=B64", "\"keyid k1\" is not name=value"),
            ("keyid=, version=7, sig=B64", "keyid must be 1 to 64"),
            ("keyid=k 1, version=7, sig=B64", "keyid must be"),
            ("keyid=\"k1\", version=7, sig=B64", "keyid must be"),
            ("keyid=ключ, version=7, sig=B64", "keyid must be"),
            ("keyid=k1, version=-1, sig=B64", "version must be a whole number"),
            ("keyid=k1, version=+7, sig=B64", "version must be a whole number"),
            ("keyid=k1, version=18446744073709551616, sig=B64", "version must be a whole number"),
            ("keyid=k1, version=, sig=B64", "version must be a whole number"),
            ("keyid=k1, version=0x10, sig=B64", "version must be a whole number"),
            ("keyid=k1, version=7, sig=", "sig is not standard base64"),
            ("keyid=k1, version=7, sig=not*base64", "sig is not standard base64"),
            ("keyid=k1, version=7, sig=QUJD", ""),
        ] as [(String, String)])
    func malformed(_ template: String, detail: String) {
        let text = template.replacingOccurrences(of: "B64", with: base64)
        do throws(SignatureError) {
            let parsed = try PayloadSignature(parsing: text)
            // The last case is well formed: a 3-byte signature parses (the verifier refuses its length).
            #expect(detail.isEmpty && parsed.signature == Data("ABC".utf8), "\(text) should be refused")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.message.contains(detail), "\(error.message)")
            #expect(error.message.contains("expected one line such as keyid="), "the message shows the expected form")
        }
    }

    @Test("a key id longer than 64 characters, and a text longer than 1024, are refused")
    func lengths() {
        #expect(PayloadSignature.isValidKeyID(String(repeating: "k", count: 64)))
        #expect(!PayloadSignature.isValidKeyID(String(repeating: "k", count: 65)))
        #expect(throws: SignatureError.self) {
            try PayloadSignature(parsing: "keyid=\(String(repeating: "k", count: 65)), version=1, sig=\(base64)")
        }
        let long = "keyid=k1, version=1, sig=" + String(repeating: "A", count: 1_000)
        do throws(SignatureError) {
            _ = try PayloadSignature(parsing: long)
            Issue.record("a 1025-character text must be refused")
        } catch {
            #expect(error.message.contains("longer than 1024 characters"))
        }
    }

    @Test("a part that is not printable is shown with question marks")
    func unprintable() {
        do throws(SignatureError) {
            _ = try PayloadSignature(parsing: "keyid=k1, version=1, sig=\(base64), x\u{7}y=1")
            Issue.record("an unknown part must be refused")
        } catch {
            #expect(error.message.contains("unknown part \"x?y\""))
        }
    }

    @Test("signature errors and the config error around them say what happened and what to do")
    func descriptions() {
        let error = SignatureError(.replayed(version: 1, lastAccepted: 2), "signed with version 1; sign with a version above 2")
        #expect(error.description == "signature refused: signed with version 1; sign with a version above 2")
        #expect(ConfigError.signature(error).description == error.description)
        #expect(!ConfigError.signature(error).isRetryable, "fetching the same bytes again cannot help")
    }

    @Test("metadata carries the signature text through a Codable round trip, and a 304 renewal keeps it")
    func metadataKeepsSignature() throws {
        let metadata = SnapshotMetadata(
            fetchedAt: Date(timeIntervalSince1970: 1), contentHash: ContentHash(of: Data()), source: "s", signature: "keyid=k1")
        #expect(try JSONDecoder().decode(SnapshotMetadata.self, from: JSONEncoder().encode(metadata)) == metadata)
        #expect(metadata.renewed(at: Date(timeIntervalSince1970: 2), validators: .none).signature == "keyid=k1")
        let unsigned = Data(#"{"fetchedAt":0,"validators":{},"contentHash":{"value":1,"byteCount":0},"source":"s"}"#.utf8)
        #expect(try JSONDecoder().decode(SnapshotMetadata.self, from: unsigned).signature == nil, "older encodings decode")
    }
}
