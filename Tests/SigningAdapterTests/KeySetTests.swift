import ConfigDomain
import ConfigPorts
import Foundation
import SigningAdapter
import Testing

/// k-of-n key sets: payloads need a threshold of distinct trusted keys, and a key set rotates only
/// when a threshold of the trusted set's keys and a threshold of its own signed it, at a higher version.
@Suite("Key sets: k-of-n payload signatures and key rotation")
struct KeySetTests {
    static let payload = utf8(#"{"new_checkout":true}"#)

    /// Fixed keys ops-a … ops-e (seeds 21 … 25).
    static func ops(_ letter: Character) throws -> Ed25519Signer {
        let seed = UInt8(21 + Int(letter.asciiValue ?? 0) - Int(Character("a").asciiValue ?? 0))
        return try TestKeys.signer("ops-\(letter)", seedByte: seed)
    }

    /// The key set of `letters`, at `version`, needing `threshold`.
    static func keySet(_ letters: String, threshold: Int = 2, version: UInt64) throws -> KeySet {
        try KeySet(version: version, threshold: threshold, keys: letters.map { try ops($0).publicKey })
    }

    /// The root the app ships: ops-a, ops-b, ops-c, 2 of 3, version 1.
    static func root() throws -> KeySet { try keySet("abc", version: 1) }

    /// `keySet` signed by the keys of `letters`.
    static func signed(_ keySet: KeySet, by letters: String) throws -> SignedKeySet {
        var signed = SignedKeySet(keySet: keySet)
        for letter in letters { signed = try signed.signed(by: ops(letter)) }
        return signed
    }

    /// The payload's signatures by the keys of `letters`, for "default" at `version`.
    static func signatures(by letters: String, version: UInt64 = 1) throws -> [PayloadSignature] {
        try letters.map { try ops($0).sign(payload, configurationName: "default", version: version) }
    }

    /// The refusal `body` throws, or nil (recording an issue) when it throws none.
    static func refusal<E: Error>(
        _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) -> E? {
        do {
            try body()
            Issue.record("expected a refusal", sourceLocation: sourceLocation)
        } catch let error as E {
            return error
        } catch {
            Issue.record("expected \(E.self), got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    // MARK: Payloads

    @Test("a payload signed by 2 of the 3 trusted keys is accepted, and its text carries both signatures")
    func thresholdMet() throws {
        let verifier = Ed25519Verifier(keyRing: KeyRing(root: try Self.root()))
        try verifier.check(Self.payload, signatures: Self.signatures(by: "ab"), configurationName: "default")
        try verifier.check(Self.payload, signatures: Self.signatures(by: "cab"), configurationName: "default")
        let text = PayloadSignature.text(of: try Self.signatures(by: "bc"))
        #expect(text.contains("; keyid=ops-c, "))
        let metadata = SnapshotMetadata(
            fetchedAt: Date(), contentHash: ContentHash(of: Self.payload), source: "t", signature: text)
        #expect(
            try verifier.verify(Self.payload, metadata: metadata, replacing: nil, configurationName: "default")
                == PayloadVerification())
    }

    @Test(
        "too few signatures are refused, saying which did not count: one key, one key twice, a stranger, an impostor",
        arguments: [
            ("a", 1, "signed by 1 of the trusted keys (ops-a, ops-b, ops-c), and this client requires 2;"),
            ("aa", 1, "(not counted: ops-a again (a key counts once))"),
            ("a+stranger", 1, "(not counted: stranger (not trusted))"),
            ("a+impostor", 1, "(not counted: ops-b (does not match))"),
            ("stranger", 0, "signed by 0 of the trusted keys"),
        ] as [(String, Int, String)])
    func tooFewSignatures(_ who: String, valid: Int, detail: String) throws {
        let verifier = Ed25519Verifier(keyRing: KeyRing(root: try Self.root()))
        var signatures = try Self.signatures(by: String(who.prefix { $0 != "+" && $0 != "s" }))
        if who.hasSuffix("stranger") {
            signatures.append(try TestKeys.stranger().sign(Self.payload, configurationName: "default", version: 1))
        }
        if who.hasSuffix("impostor") {
            signatures.append(
                try TestKeys.signer("ops-b", seedByte: 99).sign(Self.payload, configurationName: "default", version: 1))
        }
        let error = try #require(
            Self.refusal(SignatureError.self) {
                try verifier.check(Self.payload, signatures: signatures, configurationName: "default")
            })
        #expect(error.kind == .tooFewSignatures(valid: valid, threshold: 2))
        #expect(error.message.contains(detail), "\(error.message)")
        #expect(error.message.contains("remote-config sign <file> --key <one> --key <another>"))
    }

    @Test("signatures of one payload that disagree on version, configuration or expiry are malformed")
    func disagreeingSignatures() throws {
        let verifier = Ed25519Verifier(keyRing: KeyRing(root: try Self.root()))
        let mixed = try Self.signatures(by: "a", version: 1) + Self.signatures(by: "b", version: 2)
        let error = try #require(
            Self.refusal(SignatureError.self) {
                try verifier.check(Self.payload, signatures: mixed, configurationName: "default")
            })
        #expect(error.kind == .malformed)
        #expect(error.message.contains("its signatures disagree: config=default, version=1 and config=default, version=2"))
        #expect(
            Self.refusal(SignatureError.self) { try verifier.check(Self.payload, signatures: [], configurationName: "default") }?
                .kind == .missing)
    }

    // MARK: Rotation

    @Test(
        "a key set signed by 2 of the trusted keys and 2 of its own, at a higher version, is accepted: new keys sign from then on"
    )
    func rotationAccepted() throws {
        let ring = KeyRing(root: try Self.root())
        let next = try Self.signed(Self.keySet("bcd", version: 2), by: "ab" + "cd")
        #expect(try ring.rotate(to: next))
        #expect(ring.current.version == 2)
        #expect(ring.current.keys.map(\.keyID) == ["ops-b", "ops-c", "ops-d"])
        #expect(try ring.rotate(to: next) == false, "offering the key set trusted now again changes nothing")
        let verifier = Ed25519Verifier(keyRing: ring)
        try verifier.check(Self.payload, signatures: Self.signatures(by: "cd"), configurationName: "default")
        let retired = Self.refusal(SignatureError.self) {
            try verifier.check(Self.payload, signatures: Self.signatures(by: "ab"), configurationName: "default")
        }
        #expect(retired?.kind == .tooFewSignatures(valid: 1, threshold: 2), "ops-a is no longer trusted")
    }

    @Test(
        "a key set is refused, and changes nothing, when the trusted set's threshold, its own threshold or a higher version is missing",
        arguments: [
            (
                "bd", 2 as UInt64, KeySetError.Kind.tooFewTrustedSignatures(valid: 1, threshold: 2),
                "is signed by 1 key (ops-b) of the key set trusted now (version 1: ops-a, ops-b, ops-c), which needs 2 "
                    + "(not counted: ops-d (not a key of that set))"
            ),
            (
                "ab", 2, .tooFewOwnSignatures(valid: 1, threshold: 2),
                "is signed by 1 key (ops-b) of its own (ops-b, ops-c, ops-d), and its threshold is 2 (not counted: ops-a (not a key of that set))"
            ),
            ("abcd", 1, .notNewer(version: 1, current: 1), "is the version trusted now, with other keys or threshold"),
        ] as [(String, UInt64, KeySetError.Kind, String)])
    func rotationRefused(_ signers: String, version: UInt64, expected: KeySetError.Kind, detail: String) throws {
        let ring = KeyRing(root: try Self.root())
        let next = try Self.signed(Self.keySet("bcd", version: version), by: signers)
        let error = try #require(Self.refusal(KeySetError.self) { try ring.rotate(to: next) })
        #expect(error.kind == expected)
        #expect(error.message.contains(detail), "\(error.message)")
        #expect(ring.current == (try Self.root()), "the trusted key set stays")
    }

    @Test("an older key set replayed after a newer one is refused")
    func olderKeySetRefused() throws {
        let ring = KeyRing(root: try Self.keySet("abc", version: 5))
        let old = try Self.signed(Self.keySet("bcd", version: 4), by: "abcd")
        let error = try #require(Self.refusal(KeySetError.self) { try ring.rotate(to: old) })
        #expect(error.kind == .notNewer(version: 4, current: 5))
        #expect(error.message.contains("older than version 5, which is trusted now"))
        #expect(error.message.contains("publish it with a version above 5"))
    }

    // MARK: Persistence

    /// A fresh folder for one test, removed by `body`'s end.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-keysets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test("accepted key sets are kept in the ring's file: a relaunch trusts the newest, checked again from the root")
    func survivesRelaunch() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("keysets.json")
            let ring = KeyRing(root: try Self.root(), storedAt: file)
            #expect(ring.storageProblem == nil, "a missing file is a first launch")
            try ring.rotate(to: Self.signed(Self.keySet("bcd", version: 2), by: "abcd"))
            try ring.rotate(to: Self.signed(Self.keySet("cde", version: 3), by: "bcde"))

            let relaunched = KeyRing(root: try Self.root(), storedAt: file)
            #expect(relaunched.current == (try Self.keySet("cde", version: 3)))
            #expect(relaunched.storageProblem == nil)
            let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]]
            #expect(stored?.map { $0["version"] as? Int } == [2, 3], "a JSON array of the accepted key set documents")

            // An app update that ships version 2 as its root skips what it already has.
            let updated = KeyRing(root: try Self.keySet("bcd", version: 2), storedAt: file)
            #expect(updated.current.version == 3)
            #expect(updated.storageProblem == nil)
        }
    }

    @Test("a rewritten file hands trust to no other key: the ring falls back to the last key set it can check, and says why")
    func tamperedFile() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("keysets.json")
            let ring = KeyRing(root: try Self.root(), storedAt: file)
            try ring.rotate(to: Self.signed(Self.keySet("bcd", version: 2), by: "abcd"))
            // Someone swaps ops-d's key for their own in the stored key set.
            let attacker = try TestKeys.signer("ops-d", seedByte: 77).publicKey.base64
            let honest = try Self.ops("d").publicKey.base64
            let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: honest, with: attacker)
            try text.write(to: file, atomically: true, encoding: .utf8)

            let relaunched = KeyRing(root: try Self.root(), storedAt: file)
            #expect(relaunched.current == (try Self.root()))
            let problem = try #require(relaunched.storageProblem)
            #expect(problem.kind == .storage)
            #expect(problem.message.contains("was not trusted again: key set version 2 is signed by"))

            try Data("not json".utf8).write(to: file)
            let garbled = KeyRing(root: try Self.root(), storedAt: file)
            #expect(garbled.current == (try Self.root()))
            #expect(garbled.storageProblem?.message.contains("is not a list of key sets: it is not JSON") == true)
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
            let unreadable = KeyRing(root: try Self.root(), storedAt: file)
            #expect(unreadable.current == (try Self.root()))
            #expect(unreadable.storageProblem?.message.contains("cannot be used (it cannot be read: ") == true)
            try FileManager.default.removeItem(at: file)
            try Data("not json".utf8).write(to: file)
            // The next accepted key set rewrites the file.
            try garbled.rotate(to: Self.signed(Self.keySet("bcd", version: 2), by: "abcd"))
            #expect(KeyRing(root: try Self.root(), storedAt: file).current.version == 2)
        }
    }

    @Test("when the file cannot be written, the key set is refused as a storage error and the trusted one stays")
    func unwritableFile() throws {
        try Self.withFolder { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let blocker = folder.appendingPathComponent("not-a-folder")
            try Data("x".utf8).write(to: blocker)
            let ring = KeyRing(root: try Self.root(), storedAt: blocker.appendingPathComponent("keysets.json"))
            let error = try #require(
                Self.refusal(KeySetError.self) { try ring.rotate(to: Self.signed(Self.keySet("bcd", version: 2), by: "abcd")) })
            #expect(error.kind == .storage)
            #expect(error.message.contains("so it was not trusted and key set version 1 stays"))
            #expect(ring.current.version == 1)
        }
    }

    // MARK: Documents and rules

    @Test("a key set document round-trips, and its signatures sign the values, not the JSON layout")
    func documentRoundTrip() throws {
        let signed = try Self.signed(Self.keySet("bcd", version: 2), by: "ab")
        let parsed = try SignedKeySet(parsing: signed.document)
        #expect(parsed == signed)
        let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: signed.document))
        #expect(try SignedKeySet(parsing: compact).signers(validIn: Self.root()) == ["ops-a", "ops-b"])
        #expect(try signed.signed(by: Self.ops("a")).signatures.count == 2, "signing again with a key replaces its signature")
    }

    @Test("the key set message has its own prefix, so no key set signature passes for a payload's")
    func messageLayout() throws {
        let keySet = try Self.keySet("a", threshold: 1, version: 0x0102)
        let key = try Self.ops("a").publicKey.rawRepresentation
        let expected =
            Data("remote-config key set v1\u{0}".utf8) + Data([0, 0, 0, 0, 0, 0, 1, 2]) + Data([0, 0, 0, 0, 0, 0, 0, 1])
            + Data([0, 0, 0, 0, 0, 0, 0, 1]) + Data([0, 0, 0, 0, 0, 0, 0, 5]) + Data("ops-a".utf8) + key
        #expect(keySet.signedMessage == expected)
        #expect(!keySet.signedMessage.starts(with: PayloadSignature.messagePrefix))
        #expect(!keySet.signedMessage.starts(with: PayloadSignature.expiringMessagePrefix))
    }

    @Test(
        "a document that is not a key set is refused, saying what is wrong",
        arguments: [
            ("not json", KeySetError.Kind.malformed, "it is not JSON"),
            (#"{"version":2,"keys":{}}"#, .malformed, "threshold is missing"),
            (#"{"version":2,"threshold":"two","keys":{}}"#, .malformed, "threshold has the wrong type"),
            (
                #"{"version":2,"threshold":1,"keys":{"k":"AAAA"}}"#, .malformed,
                "has an unusable key: the public key for \"k\" has 3 bytes"
            ),
            (#"{"version":2,"threshold":1,"keys":{}}"#, .invalid, "needs at least one trusted public key"),
            (
                #"{"version":2,"threshold":2,"keys":{"k":"KEY"}}"#, .invalid,
                "threshold is 2, but it must be from 1 to its number of keys (1)"
            ),
            (#"{"version":2,"threshold":0,"keys":{"k":"KEY"}}"#, .invalid, "every payload needs a signature"),
            (
                #"{"version":2,"threshold":1,"keys":{"k":"KEY","l":"KEY"}}"#, .invalid,
                "one public key under two key ids, \"k\" and \"l\""
            ),
            (
                #"{"version":2,"threshold":1,"keys":{"k":"KEY"},"signatures":[{"keyid":"k","sig":"*"}]}"#, .malformed,
                "not standard base64"
            ),
        ] as [(String, KeySetError.Kind, String)])
    func badDocuments(_ template: String, kind: KeySetError.Kind, detail: String) throws {
        let text = template.replacingOccurrences(of: "KEY", with: try Self.ops("a").publicKey.base64)
        let error = try #require(Self.refusal(KeySetError.self) { _ = try SignedKeySet(parsing: utf8(text)) })
        #expect(error.kind == kind)
        #expect(error.message.contains(detail), "\(error.message)")
        #expect(error.description.hasPrefix("key set: "))
    }

    @Test("a document larger than a key set needs is refused before it is parsed")
    func oversizedDocument() {
        let error = Self.refusal(KeySetError.self) {
            _ = try SignedKeySet(parsing: Data(repeating: 0x20, count: SignedKeySet.maxDocumentSize + 1))
        }
        #expect(error?.kind == .malformed)
        #expect(error?.message.contains("more than the 65536 a key set needs") == true)
    }
}
