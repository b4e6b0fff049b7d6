import ConfigDomain
import Foundation
import SigningAdapter
import Testing

@Suite("Payload signatures: the signed message and the text form")
struct PayloadSignatureTests {
    private let bytes = Data((0..<64).map { UInt8($0) })
    private var base64: String { bytes.base64EncodedString() }

    @Test(
        "the signed message is the v2 prefix, the name's length and UTF-8 bytes, the version, each number 8 big-endian bytes, then the payload unchanged"
    )
    func signedMessage() {
        let payload = Data(#"{"a":1}"#.utf8)
        let message = PayloadSignature.signedMessage(payload: payload, configurationName: "né", version: 0x0102_0304_0506_0708)
        #expect(
            message
                == Data("remote-config signature v2\u{0}".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 3]) + Data([0x6E, 0xC3, 0xA9])
                + Data([1, 2, 3, 4, 5, 6, 7, 8]) + payload)
        #expect(
            PayloadSignature.signedMessage(payload: Data(), configurationName: "", version: 0).count
                == PayloadSignature.messagePrefix.count + 16)
        let signed = { (name: String, version: UInt64) in
            PayloadSignature.signedMessage(payload: payload, configurationName: name, version: version)
        }
        #expect(signed("default", 1) != signed("default", 2), "the version is signed")
        #expect(signed("checkout", 1) != signed("pricing", 1), "the configuration's name is signed")
    }

    @Test(
        "with an expiry, the message is the v3 prefix, the name, the version, the expiry in whole seconds since 1970, then the payload"
    )
    func expiringMessage() {
        let payload = Data(#"{"a":1}"#.utf8)
        let expiry = Date(timeIntervalSince1970: 0x0A0B_0C0D + 0.75)
        let message = PayloadSignature.signedMessage(payload: payload, configurationName: "c", version: 2, expiresAt: expiry)
        #expect(
            message
                == Data("remote-config signature v3\u{0}".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 1]) + Data("c".utf8)
                + Data([0, 0, 0, 0, 0, 0, 0, 2]) + Data([0, 0, 0, 0, 0x0A, 0x0B, 0x0C, 0x0D]) + payload)
        #expect(PayloadSignature.expiringMessagePrefix.count == PayloadSignature.messagePrefix.count)
        #expect(
            message != PayloadSignature.signedMessage(payload: payload, configurationName: "c", version: 2),
            "a message with an expiry never equals one without")
        let past = PayloadSignature.signedMessage(
            payload: Data(), configurationName: "", version: 0, expiresAt: Date(timeIntervalSince1970: -5))
        #expect(past.suffix(8) == Data(repeating: 0, count: 8), "a time before 1970 is signed as 0")
    }

    @Test("a signer rounds the expiry down to a whole second, and the text carries it in ISO 8601")
    func expiryText() throws {
        let signer = try TestKeys.current()
        let signature = try signer.sign(
            Data("x".utf8), configurationName: "default", version: 7, expiresAt: Date(timeIntervalSince1970: 1_767_225_600.9))
        #expect(signature.expiresAt == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(signature.text.hasPrefix("keyid=prod-2026, config=default, version=7, expires=2026-01-01T00:00:00Z, sig="))
        #expect(try PayloadSignature(parsing: signature.text) == signature)
        let offset = try PayloadSignature(
            parsing: "keyid=k1, config=c, version=1, expires=2026-01-01T01:00:00+01:00, sig=\(base64)")
        #expect(offset.expiresAt == Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test("several signatures travel in one line separated by ';', and each part's error names which signature it is")
    func lists() throws {
        let one = PayloadSignature(keyID: "k1", configurationName: "c", version: 1, signature: bytes)
        let two = PayloadSignature(keyID: "k2", configurationName: "c", version: 1, signature: bytes)
        let text = PayloadSignature.text(of: [one, two])
        #expect(text == one.text + "; " + two.text)
        #expect(try PayloadSignature.list(parsing: text) == [one, two])
        #expect(try PayloadSignature.list(parsing: one.text) == [one])
        for (bad, detail) in [
            (one.text + ";", "signature 2 of 2: the signature is malformed (it has an empty part)"),
            (one.text + "; keyid=k2, version=1, sig=\(base64)", "signature 2 of 2: the signature names no configuration"),
            (String(repeating: one.text + "; ", count: 8) + one.text, "longer than 1024 characters"),
        ] {
            do throws(SignatureError) {
                _ = try PayloadSignature.list(parsing: bad)
                Issue.record("\(bad) must be refused")
            } catch {
                #expect(error.kind == .malformed)
                #expect(error.message.contains(detail), "\(error.message)")
            }
        }
    }

    @Test("no name and payload split the same bytes two ways: the name's length is signed")
    func nameAndPayloadCannotTradeBytes() {
        let version: UInt64 = 1
        // Without the length, name "a" with payload "bc" and name "ab" with payload "c" could sign alike.
        #expect(
            PayloadSignature.signedMessage(payload: Data("bc".utf8), configurationName: "a", version: version)
                != PayloadSignature.signedMessage(payload: Data("c".utf8), configurationName: "ab", version: version))
    }

    @Test("the v1 layout, which named no configuration, can never equal a v2 message")
    func layoutsAreSeparated() {
        let v1 = Data("remote-config signature v1\u{0}".utf8)
        #expect(PayloadSignature.messagePrefix.count == v1.count)
        #expect(PayloadSignature.messagePrefix != v1, "every v2 message differs from every v1 message in its prefix")
    }

    @Test(
        "the text form round-trips, percent-encoding the name where it needs to",
        arguments: [
            ("default", "default"), ("prod-eu.v_2~x", "prod-eu.v_2~x"), ("EU checkout", "EU%20checkout"),
            ("a,b=c%", "a%2Cb%3Dc%25"), ("été", "%C3%A9t%C3%A9"), ("", ""),
        ])
    func roundTrip(name: String, encoded: String) throws {
        let signature = PayloadSignature(keyID: "prod-2026.a_b", configurationName: name, version: UInt64.max, signature: bytes)
        #expect(signature.text == "keyid=prod-2026.a_b, config=\(encoded), version=18446744073709551615, sig=\(base64)")
        #expect(try PayloadSignature(parsing: signature.text) == signature)
    }

    @Test(
        "parts come in any order, names in any case, with spaces or tabs around them",
        arguments: [
            "sig=B64, config=app, keyid=k1, version=7",
            "KeyId=k1,Config=app,Version=7,SIG=B64",
            " \tkeyid=k1 , config=app, version=7\t, sig=B64  ",
        ])
    func lenientLayout(_ template: String) throws {
        let text = template.replacingOccurrences(of: "B64", with: base64)
        #expect(
            try PayloadSignature(parsing: text)
                == PayloadSignature(keyID: "k1", configurationName: "app", version: 7, signature: bytes))
    }

    @Test(
        "malformed text is refused saying which part is wrong",
        arguments: [
            ("", "an empty part"),
            ("keyid=k1, config=c, version=7", "sig is missing"),
            ("keyid=k1, config=c, sig=B64", "version is missing"),
            ("config=c, version=7, sig=B64", "keyid is missing"),
            ("keyid=k1, config=c, version=7, sig=B64,", "an empty part"),
            ("keyid=k1,, config=c, version=7, sig=B64", "an empty part"),
            ("keyid=k1, config=c, version=7, sig=B64, alg=ed25519", "unknown part \"alg\""),
            ("keyid=k1, keyid=k2, config=c, version=7, sig=B64", "keyid is given twice"),
            ("keyid=k1, config=c, config=d, version=7, sig=B64", "config is given twice"),
            ("keyid=k1; config=c; version=7; sig=B64", "version is missing"),
            ("keyid k1, config=c, version=7, sig=B64", "\"keyid k1\" is not name=value"),
            ("keyid=, config=c, version=7, sig=B64", "keyid must be 1 to 64"),
            ("keyid=k 1, config=c, version=7, sig=B64", "keyid must be"),
            ("keyid=\"k1\", config=c, version=7, sig=B64", "keyid must be"),
            ("keyid=ключ, config=c, version=7, sig=B64", "keyid must be"),
            ("keyid=k1, config=c, version=-1, sig=B64", "version must be a whole number"),
            ("keyid=k1, config=c, version=+7, sig=B64", "version must be a whole number"),
            ("keyid=k1, config=c, version=18446744073709551616, sig=B64", "version must be a whole number"),
            ("keyid=k1, config=c, version=, sig=B64", "version must be a whole number"),
            ("keyid=k1, config=c, version=0x10, sig=B64", "version must be a whole number"),
            ("keyid=k1, config=c, version=7, sig=", "sig is not standard base64"),
            ("keyid=k1, config=c, version=7, sig=not*base64", "sig is not standard base64"),
            ("keyid=k1, config=%E9, version=7, sig=B64", "config is not percent-encoded text"),
            ("keyid=k1, config=%4, version=7, sig=B64", "config is not percent-encoded text"),
            ("keyid=k1, config=c, version=7, expires=tomorrow, sig=B64", "expires must be an ISO 8601 time"),
            ("keyid=k1, config=c, version=7, expires=2026-01-01, sig=B64", "expires must be an ISO 8601 time"),
            ("keyid=k1, config=c, version=7, expires=1, expires=2, sig=B64", "expires is given twice"),
            ("keyid=k1, config=c, version=7, sig=QUJD", ""),
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

    @Test("a signature in the v1 layout (no config=) is refused, saying to sign it again with a name")
    func v1TextIsRefused() {
        do throws(SignatureError) {
            _ = try PayloadSignature(parsing: "keyid=k1, version=7, sig=\(base64)")
            Issue.record("a signature that names no configuration must be refused")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.message.contains("names no configuration"))
            #expect(error.message.contains("remote-config sign --name"))
        }
    }

    @Test("a key id longer than 64 characters, and a text longer than 1024, are refused")
    func lengths() {
        #expect(PayloadSignature.isValidKeyID(String(repeating: "k", count: 64)))
        #expect(!PayloadSignature.isValidKeyID(String(repeating: "k", count: 65)))
        #expect(throws: SignatureError.self) {
            try PayloadSignature(parsing: "keyid=\(String(repeating: "k", count: 65)), config=c, version=1, sig=\(base64)")
        }
        let long = "keyid=k1, config=c, version=1, sig=" + String(repeating: "A", count: 990)
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
            _ = try PayloadSignature(parsing: "keyid=k1, config=c, version=1, sig=\(base64), x\u{7}y=1")
            Issue.record("an unknown part must be refused")
        } catch {
            #expect(error.message.contains("unknown part \"x?y\""))
        }
    }
}
