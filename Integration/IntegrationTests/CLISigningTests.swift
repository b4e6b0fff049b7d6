import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import RemoteConfig
import SigningAdapter
import TestDoubles
import Testing

/// `remote-config keygen`, `sign`, `verify` and `serve --sign-with`, as real child processes.
@Suite("remote-config keygen, sign, verify and serve --sign-with")
struct CLISigningTests {
    static let flag = ConfigKey("new_checkout", default: false)

    /// A scratch folder with a key pair made by `keygen` and the example config.
    struct Workspace {
        let scratch: CLIScratch
        var key: String { scratch.path("keys/dev-1.key") }
        var publicKey: String { scratch.path("keys/dev-1.pub") }
        var config: String { scratch.path("config.json") }

        static func make() async throws -> Workspace {
            let scratch = try CLIScratch()
            let text = try String(contentsOf: CLIProcess.examples.appendingPathComponent("config.json"), encoding: .utf8)
            try scratch.write("config.json", text)
            let keygen = try await CLIProcess.run(["keygen", "--key-id", "dev-1", "--out", scratch.path("keys")])
            #expect(keygen.status == 0, "\(keygen.standardError)")
            return Workspace(scratch: scratch)
        }

        /// The public key from the key file keygen wrote.
        func trustedKey() throws -> Ed25519PublicKey {
            let line = try String(contentsOfFile: publicKey, encoding: .utf8)
            let base64 = try #require(line.components(separatedBy: "ed25519-public-key=").last)
            return try Ed25519PublicKey(keyID: "dev-1", base64: base64)
        }
    }

    @Test("keygen writes a private key only its owner can read and a public key, and prints the line for the app")
    func keygen() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let outcome = try await CLIProcess.run(["keygen", "--key-id", "prod-2026", "--out", scratch.path("keys")])
        #expect(outcome.status == 0)
        let privateFile = scratch.path("keys/prod-2026.key")
        let attributes = try FileManager.default.attributesOfItem(atPath: privateFile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let privateLine = try String(contentsOfFile: privateFile, encoding: .utf8)
        let publicLine = try String(contentsOfFile: scratch.path("keys/prod-2026.pub"), encoding: .utf8)
        #expect(privateLine.hasPrefix("keyid=prod-2026, ed25519-private-key=") && privateLine.count == 82)
        #expect(publicLine.hasPrefix("keyid=prod-2026, ed25519-public-key=") && publicLine.count == 81)
        let base64 = String(publicLine.dropFirst("keyid=prod-2026, ed25519-public-key=".count).dropLast())
        #expect(outcome.standardOutput.contains("try Ed25519Verifier(base64Keys: [\"prod-2026\": \"\(base64)\"])"))

        let again = try await CLIProcess.run(["keygen", "--key-id", "prod-2026", "--out", scratch.path("keys")])
        #expect(again.status == 2)
        #expect(again.standardError.contains("already exists (keygen never replaces a key)"))
        #expect(try String(contentsOfFile: privateFile, encoding: .utf8) == privateLine, "the key is untouched")

        let badID = try await CLIProcess.run(["keygen", "--key-id", "has space"])
        #expect(badID.status == 64)
        #expect(badID.standardError.contains("--key-id must be 1 to 64"))
    }

    @Test("sign writes config.json.sig, which verify accepts and a client accepts; --output - prints only the line")
    func signAndVerify() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        let signed = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--version", "42"])
        #expect(signed.status == 0, "\(signed.standardError)")
        #expect(signed.standardOutput.contains("X-Config-Signature: keyid=dev-1, config=default, version=42, sig="))
        let line = try String(contentsOfFile: workspace.config + ".sig", encoding: .utf8)
        #expect(line.hasPrefix("keyid=dev-1, config=default, version=42, sig=") && line.hasSuffix("\n"))

        let verified = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.publicKey])
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(verified.standardOutput.contains("is signed for \"default\" by dev-1, version 42."))
        let byPrivate = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.key])
        #expect(byPrivate.status == 0, "a private key file verifies too")

        // The library accepts what the tool signed.
        let signature = try PayloadSignature(parsing: line.trimmingCharacters(in: .whitespacesAndNewlines))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: workspace.config))
        try Ed25519Verifier(trustedKeys: [workspace.trustedKey()]).check(
            bytes, signature: signature, configurationName: "default")

        let printed = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--output", "-"])
        #expect(printed.status == 0)
        let text = printed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let defaultVersion = try PayloadSignature(parsing: text).version
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        #expect(defaultVersion <= now && defaultVersion > now - 600_000, "the default version is the signing time in ms")
    }

    @Test(
        "sign --version --expires-in puts both under the signature: verify shows them, the library checks them, and moving either is refused"
    )
    func signWithVersionAndExpiry() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        let before = Date()
        let signed = try await CLIProcess.run([
            "sign", workspace.config, "--key", workspace.key, "--version", "42", "--expires-in", "7d",
        ])
        #expect(signed.status == 0, "\(signed.standardError)")
        #expect(signed.standardOutput.contains("with dev-1, version 42, expires 20"))
        let line = try String(contentsOfFile: workspace.config + ".sig", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let signature = try PayloadSignature(parsing: line)
        #expect(signature.version == 42)
        let expiry = try #require(signature.expiresAt)
        #expect(abs(expiry.timeIntervalSince(before) - 7 * 86_400) < 120, "seven days from signing: \(expiry)")

        let verified = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.publicKey])
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(verified.standardOutput.contains("by dev-1, version 42, expires \(expiry.formatted(Date.ISO8601FormatStyle()))."))

        let bytes = try Data(contentsOf: URL(fileURLWithPath: workspace.config))
        let verifier = try Ed25519Verifier(trustedKeys: [workspace.trustedKey()])
        #expect(try verifier.check(bytes, signature: signature, configurationName: "default").expiresAt == expiry)
        for tampered in [
            line.replacingOccurrences(of: "version=42", with: "version=43"),
            line.replacingOccurrences(of: #"expires=[^,]*"#, with: "expires=2099-01-01T00:00:00Z", options: .regularExpression),
        ] {
            try workspace.scratch.write("moved.sig", tampered + "\n")
            let moved = try await CLIProcess.run([
                "verify", workspace.config, "--key", workspace.publicKey, "--signature", workspace.scratch.path("moved.sig"),
            ])
            #expect(moved.status == 1, "\(tampered)")
            #expect(moved.standardError.contains("does not match its bytes under the key \"dev-1\""))
        }

        let at = try await CLIProcess.run([
            "sign", workspace.config, "--key", workspace.key, "--expires-at", "2099-12-31T00:00:00Z", "--output", "-",
        ])
        #expect(at.standardOutput.contains("expires=2099-12-31T00:00:00Z, sig="), "\(at.standardError)")

        let past = try await CLIProcess.run([
            "sign", workspace.config, "--key", workspace.key, "--expires-at", "2020-01-01T00:00:00Z",
        ])
        #expect(past.status == 2)
        #expect(past.standardError.contains("the expiry 2020-01-01T00:00:00Z is not in the future"))
        let badDuration = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--expires-in", "7 days"])
        #expect(badDuration.status == 64)
        #expect(badDuration.standardError.contains("--expires-in must be a whole number followed by s, m, h or d"))
        let both = try await CLIProcess.run([
            "sign", workspace.config, "--key", workspace.key, "--expires-in", "1d", "--expires-at", "2099-01-01T00:00:00Z",
        ])
        #expect(both.status == 64)
        #expect(both.standardError.contains("give --expires-in or --expires-at, not both"))
        let noKey = try await CLIProcess.run(["sign", workspace.config])
        #expect(noKey.status == 64)
        let twice = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--key", workspace.key])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("two --key files hold the key id \"dev-1\""))
    }

    @Test("the key rotation drill of \"Signed configurations\", command by command, then an app that rotates and verifies")
    func rotationDrill() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        try scratch.write("config.json", #"{"new_checkout": true}"#)
        /// Runs one step of the drill in the publishing folder and checks its exit status.
        @discardableResult
        func step(_ command: String, status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws
            -> ChildProcess.Outcome
        {
            let arguments = command.split(separator: " ").map(String.init).dropFirst()  // "remote-config"
            let outcome = try await CLIProcess.run(Array(arguments), in: scratch.url)
            #expect(outcome.status == status, "\(command)\n\(outcome.standardError)", sourceLocation: sourceLocation)
            return outcome
        }

        // Today: apps trust key set 1, any 2 of ops-a, ops-b, ops-c.
        for id in ["ops-a", "ops-b", "ops-c"] { try await step("remote-config keygen --key-id \(id) --out keys/") }
        try await step(
            "remote-config keyset create --version 1 --threshold 2 --key keys/ops-a.pub --key keys/ops-b.pub --key keys/ops-c.pub --out keyset-1.json"
        )
        try await step("remote-config sign config.json --key keys/ops-a.key --key keys/ops-b.key --version 1 --expires-in 7d")
        try await step("remote-config verify config.json --key-set keyset-1.json")

        // 1. A new key, and key set 2 without ops-a.
        try await step("remote-config keygen --key-id ops-d --out keys/")
        try await step(
            "remote-config keyset create --version 2 --threshold 2 --key keys/ops-b.pub --key keys/ops-c.pub --key keys/ops-d.pub --out keyset-2.json"
        )
        // 2. Two keys of key set 1 sign it, then two of its own.
        try await step("remote-config keyset sign keyset-2.json --key keys/ops-a.key --key keys/ops-b.key")
        let early = try await step("remote-config keyset verify keyset-2.json --trusting keyset-1.json", status: 1)
        #expect(
            early.standardError.contains("is signed by 1 key (ops-b) of its own (ops-b, ops-c, ops-d), and its threshold is 2"))
        try await step("remote-config keyset sign keyset-2.json --key keys/ops-c.key --key keys/ops-d.key")
        let accepted = try await step("remote-config keyset verify keyset-2.json --trusting keyset-1.json")
        #expect(accepted.standardOutput.contains("key set version 2 may replace version 1"))
        // 3. The payload, signed with keys both key sets trust.
        try await step("remote-config sign config.json --key keys/ops-b.key --key keys/ops-c.key --version 2 --expires-in 7d")
        try await step("remote-config verify config.json --key-set keyset-1.json")
        try await step("remote-config verify config.json --key-set keyset-2.json")
        // 5. After the rotation: the new key signs, and apps still on key set 1 would refuse it.
        try await step("remote-config sign config.json --key keys/ops-c.key --key keys/ops-d.key --version 3 --expires-in 7d")
        try await step("remote-config verify config.json --key-set keyset-2.json")
        let stale = try await step("remote-config verify config.json --key-set keyset-1.json", status: 1)
        #expect(stale.standardError.contains("signed by 1 of the trusted keys (ops-a, ops-b, ops-c), and this client requires 2"))

        // 4. The app: key set 1 is its root; it rotates to key set 2, keeps it, and reads the payload.
        func document(_ name: String) throws -> SignedKeySet {
            try SignedKeySet(parsing: Data(contentsOf: scratch.url.appendingPathComponent(name)))
        }
        let ringFile = scratch.url.appendingPathComponent("app/keysets.json")
        let ring = KeyRing(root: try document("keyset-1.json").keySet, storedAt: ringFile)
        #expect(try ring.rotate(to: document("keyset-2.json")))
        #expect(
            KeyRing(root: try document("keyset-1.json").keySet, storedAt: ringFile).current.version == 2, "after a relaunch too")
        let fetcher = ScriptedFetcher()
        let payload = try Data(contentsOf: scratch.url.appendingPathComponent("config.json"))
        let signature = try String(contentsOf: scratch.url.appendingPathComponent("config.json.sig"), encoding: .utf8)
        fetcher.enqueue(
            .modified(
                FetchedPayload(
                    bytes: payload, validators: .none, source: "drill",
                    signature: signature.trimmingCharacters(in: .whitespacesAndNewlines))))
        let client = try RemoteConfigClient.builder(fetcher: fetcher)
            .verifyPayloads(with: Ed25519Verifier(keyRing: ring)).register(Self.flag).build()
        _ = try await client.refresh()
        #expect(client[Self.flag] == true)
        #expect(client.status.snapshot?.signedExpiresAt != nil)
        await client.stop()
    }

    @Test(
        "keyset refuses unusable input and explains: a threshold above the keys, an existing file, a document that is not a key set"
    )
    func keysetInputErrors() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        let tooHigh = try await CLIProcess.run([
            "keyset", "create", "--version", "1", "--threshold", "2", "--key", workspace.publicKey, "--out",
            workspace.scratch.path("k.json"),
        ])
        #expect(tooHigh.status == 2)
        #expect(tooHigh.standardError.contains("threshold is 2, but it must be from 1 to its number of keys (1)"))
        let made = try await CLIProcess.run([
            "keyset", "create", "--version", "1", "--threshold", "1", "--key", workspace.publicKey, "--out",
            workspace.scratch.path("k.json"),
        ])
        #expect(made.status == 0, "\(made.standardError)")
        let again = try await CLIProcess.run([
            "keyset", "create", "--version", "1", "--threshold", "1", "--key", workspace.key, "--out",
            workspace.scratch.path("k.json"),
        ])
        #expect(again.status == 2)
        #expect(again.standardError.contains("it already exists"))
        let unsigned = try await CLIProcess.run(["keyset", "verify", workspace.scratch.path("k.json")])
        #expect(unsigned.status == 1)
        #expect(unsigned.standardError.contains("is signed by 0 of its own keys"))
        let notAKeySet = try await CLIProcess.run(["keyset", "verify", workspace.config])
        #expect(notAKeySet.status == 2)
        #expect(notAKeySet.standardError.contains("the document is not a key set (version is missing)"))
        let withPublic = try await CLIProcess.run([
            "keyset", "sign", workspace.scratch.path("k.json"), "--key", workspace.publicKey,
        ])
        #expect(withPublic.status == 2)
        #expect(withPublic.standardError.contains("holds a public key, which cannot sign"))
        let both = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--key-set", workspace.scratch.path("k.json"),
        ])
        #expect(both.status == 64)
        let noKeys = try await CLIProcess.run(["keyset", "create", "--version", "1", "--threshold", "1"])
        #expect(noKeys.status == 64)
        #expect(noKeys.standardError.contains("give the set's keys with --key"))
        let noSigner = try await CLIProcess.run(["keyset", "sign", workspace.scratch.path("k.json")])
        #expect(noSigner.status == 64)
        let missing = try await CLIProcess.run(["keyset", "verify", workspace.scratch.path("nope.json")])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read the key set"))
        let missingSet = try await CLIProcess.run(["verify", workspace.config, "--key-set", workspace.scratch.path("nope.json")])
        #expect(missingSet.status == 2)
        let unwritable = try await CLIProcess.run([
            "keyset", "create", "--version", "1", "--threshold", "1", "--key", workspace.publicKey, "--out",
            workspace.scratch.path("no/such/folder/k.json"),
        ])
        #expect(unwritable.status == 2)
        #expect(unwritable.standardError.contains("cannot write the key set"))
        let badTime = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--expires-at", "next week"])
        #expect(badTime.status == 64)
        #expect(badTime.standardError.contains("--expires-at must be an ISO 8601 time"))
    }

    @Test("verify refuses, with exit status 1 and the reason: tampered, unsigned, malformed, unknown key, replayed")
    func verifyRefusals() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        _ = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--version", "42"])
        let other = try await CLIProcess.run(["keygen", "--key-id", "other", "--out", workspace.scratch.path("keys")])
        #expect(other.status == 0)

        let unknown = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.scratch.path("keys/other.pub")])
        #expect(unknown.status == 1)
        #expect(
            unknown.standardError.contains("signed with the key id \"dev-1\", which this client does not trust (trusted: other)"))

        let replayed = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--after-version", "42",
        ])
        #expect(replayed.status == 1)
        #expect(replayed.standardError.contains("signed with version 42, the version already accepted"))

        try workspace.scratch.write("malformed.sig", "keyid=dev-1, sig=AAAA\n")
        let malformed = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--signature", workspace.scratch.path("malformed.sig"),
        ])
        #expect(malformed.status == 1)
        #expect(malformed.standardError.contains("the signature is malformed (version is missing)"))

        let unsigned = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--signature", workspace.scratch.path("none.sig"),
        ])
        #expect(unsigned.status == 1)
        #expect(unsigned.standardError.contains("there is no signature"))

        var bytes = try Data(contentsOf: URL(fileURLWithPath: workspace.config))
        bytes[10] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: workspace.config))
        let tampered = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.publicKey])
        #expect(tampered.status == 1)
        #expect(tampered.standardError.contains("does not match its bytes under the key \"dev-1\""))
    }

    @Test(
        "sign --name binds the configuration: verify --name accepts it, another name is refused naming both, and a signature without a name is refused"
    )
    func configurationName() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        let signed = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--name", "checkout"])
        #expect(signed.status == 0, "\(signed.standardError)")
        #expect(signed.standardOutput.contains("for the configuration \"checkout\""))

        let verified = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.publicKey, "--name", "checkout"])
        #expect(verified.status == 0, "\(verified.standardError)")
        #expect(verified.standardOutput.contains("is signed for \"checkout\" by dev-1"))

        let asDefault = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.publicKey])
        #expect(asDefault.status == 1)
        #expect(asDefault.standardError.contains("signed for the configuration \"checkout\", not \"default\""))
        #expect(asDefault.standardError.contains("remote-config sign --name default"))

        let line = try String(contentsOfFile: workspace.config + ".sig", encoding: .utf8)
        let unnamed = line.replacingOccurrences(of: "config=checkout, ", with: "")
        try workspace.scratch.write("unnamed.sig", unnamed)
        let old = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--name", "checkout", "--signature",
            workspace.scratch.path("unnamed.sig"),
        ])
        #expect(old.status == 1)
        #expect(old.standardError.contains("the signature names no configuration"))

        let stray = try await CLIProcess.run(["serve", workspace.config, "--port", "0", "--name", "checkout"])
        #expect(stray.status == 64)
        #expect(stray.standardError.contains("--name only matters with --sign-with"))
    }

    @Test(
        "serve --sign-with --name signs for that configuration: a client under that name accepts it, one under another refuses it"
    )
    func serveSignedForAName() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        try await CLIServer.with([workspace.config, "--port", "0", "--sign-with", workspace.key, "--name", "checkout"]) {
            server in
            let announced = await server.waitForLine { $0.contains("for the configuration \"checkout\"") }
            #expect(announced != nil, "\(server.output)")
            let url = try #require(URL(string: server.url()))
            func client(named name: String) throws -> RemoteConfigClient {
                try RemoteConfigClient.builder(fetcher: try HTTPFetcher(url: url, configuration: .init(timeout: 10)))
                    .cache(InMemoryCache(), name: name)
                    .verifyPayloads(with: try Ed25519Verifier(trustedKeys: [workspace.trustedKey()]))
                    .register(Self.flag)
                    .build()
            }
            let checkout = try client(named: "checkout")
            _ = try await checkout.refresh()
            #expect(checkout[Self.flag] == true)
            await checkout.stop()

            let other = try client(named: "default")
            do throws(ConfigError) {
                _ = try await other.refresh()
                Issue.record("a payload signed for checkout must be refused by the default configuration")
            } catch {
                guard case .signature(let refusal) = error else {
                    Issue.record("expected a signature refusal, got \(error)")
                    return
                }
                #expect(refusal.kind == .wrongConfiguration(signedFor: "checkout", expected: "default"))
            }
            await other.stop()
        }
    }

    @Test("unusable input is exit status 2 (unreadable file, a public key to sign with, a broken key file) or 64 (usage)")
    func inputErrors() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        let publicToSign = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.publicKey])
        #expect(publicToSign.status == 2)
        #expect(publicToSign.standardError.contains("holds a public key, which cannot sign"))

        try workspace.scratch.write("broken.key", "not a key\n")
        let broken = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.scratch.path("broken.key")])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("is not a remote-config key file"))

        try workspace.scratch.write("short.key", "keyid=dev-1, ed25519-private-key=AAAA\n")
        let short = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.scratch.path("short.key")])
        #expect(short.status == 2)
        #expect(short.standardError.contains("holds an unusable key: the private key for \"dev-1\" has 3 bytes"))

        let missingFile = try await CLIProcess.run(["sign", workspace.scratch.path("nope.json"), "--key", workspace.key])
        #expect(missingFile.status == 2)
        #expect(missingFile.standardError.contains("cannot read"))

        let missingKey = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.scratch.path("nope.pub")])
        #expect(missingKey.status == 2)

        let noKey = try await CLIProcess.run(["verify", workspace.config])
        #expect(noKey.status == 64)
        let sidecarOnFile = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.publicKey, "--sidecar"])
        #expect(sidecarOnFile.status == 64)
        #expect(sidecarOnFile.standardError.contains("--sidecar is for a URL"))

        let noSuchFolder = try await CLIProcess.run([
            "sign", workspace.config, "--key", workspace.key, "--output", workspace.scratch.path("no/such/folder/x.sig"),
        ])
        #expect(noSuchFolder.status == 2)
        #expect(noSuchFolder.standardError.contains("cannot write"))

        let outOntoFile = try await CLIProcess.run(["keygen", "--key-id", "k", "--out", workspace.config])
        #expect(outOntoFile.status == 2)
        #expect(outOntoFile.standardError.contains("cannot create the folder"))

        try workspace.scratch.write("nokeyid.key", "ed25519-private-key=AAAA\n")
        try workspace.scratch.write("nokey.pub", "keyid=dev-1, something=else\n")
        for (file, detail) in [("nokeyid.key", "(no keyid)"), ("nokey.pub", "(no ed25519-private-key or ed25519-public-key)")] {
            let outcome = try await CLIProcess.run(["verify", workspace.config, "--key", workspace.scratch.path(file)])
            #expect(outcome.status == 2)
            #expect(outcome.standardError.contains(detail), "\(outcome.standardError)")
        }

        let twin = try await CLIProcess.run(["keygen", "--key-id", "dev-1", "--out", workspace.scratch.path("twin")])
        #expect(twin.status == 0)
        let twoKeysOneID = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--key", workspace.scratch.path("twin/dev-1.pub"),
        ])
        #expect(twoKeysOneID.status == 2)
        #expect(twoKeysOneID.standardError.contains("two different public keys for the key id \"dev-1\""))

        let signatureIsAFolder = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.publicKey, "--signature", workspace.scratch.path("keys"),
        ])
        #expect(signatureIsAFolder.status == 2)
        #expect(signatureIsAFolder.standardError.contains("cannot read the signature file"))

        let signatureForURL = try await CLIProcess.run([
            "verify", "http://127.0.0.1:9/config.json", "--key", workspace.publicKey, "--signature", "x.sig",
        ])
        #expect(signatureForURL.status == 64)
        let hostless = try await CLIProcess.run(["verify", "http://", "--key", workspace.publicKey])
        #expect(hostless.status == 2)

        let servePublic = try await CLIProcess.run(["serve", workspace.config, "--port", "0", "--sign-with", workspace.publicKey])
        #expect(servePublic.status == 2)
        #expect(servePublic.standardError.contains("holds a public key, which cannot sign"))
    }

    @Test(
        "serve --sign-with signs what it serves (header and .sig); a client requiring signatures accepts it, and each edit is re-signed with a higher version",
        arguments: [HTTPFetcher.SignatureTransport.header, .sidecarFile])
    func serveSigned(transport: HTTPFetcher.SignatureTransport) async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        try await CLIServer.with([workspace.config, "--port", "0", "--sign-with", workspace.key]) { server in
            let announced = await server.waitForLine { $0.contains("Signing with key dev-1") }
            #expect(announced != nil, "\(server.output)")
            let url = try #require(URL(string: server.url()))
            let fetcher = try HTTPFetcher(url: url, configuration: .init(timeout: 10, signatureTransport: transport))
            let client = try RemoteConfigClient.builder(fetcher: fetcher)
                .verifyPayloads(with: try Ed25519Verifier(trustedKeys: [workspace.trustedKey()]))
                .register(Self.flag)
                .build()
            _ = try await client.refresh()
            #expect(client[Self.flag] == true)
            let first = try PayloadSignature(parsing: try #require(client.status.snapshot?.signature))
            #expect(first.keyID == "dev-1")

            try workspace.scratch.write("config.json", #"{"new_checkout": false}"#)
            let reloaded = await server.waitForLine { $0.contains("Reloaded /config.json") }
            #expect(reloaded != nil, "\(server.output)")
            #expect(try await client.refresh(force: true) == .updated(changedKeys: ["new_checkout"]))
            let second = try PayloadSignature(parsing: try #require(client.status.snapshot?.signature))
            #expect(second.version > first.version)
            await client.stop()

            let elsewhere = try await CLIHTTPClient.get(server.url("/nothing.json.sig"))
            #expect(elsewhere.status == 404, "only served documents have a signature file")

            let arguments = ["verify", server.url(), "--key", workspace.publicKey] + (transport == .header ? [] : ["--sidecar"])
            let verified = try await CLIProcess.run(arguments)
            #expect(verified.status == 0, "\(verified.standardError)")
            #expect(verified.standardOutput.contains("is signed for \"default\" by dev-1, version \(second.version)."))
        }
    }

    @Test(
        "without --sign-with nothing is signed: no header, no .sig, and verify of the URL fails as missing; a server that is down fails as a fetch"
    )
    func serveUnsigned() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        try await CLIServer.with([workspace.config, "--port", "0"]) { server in
            let response = try await CLIHTTPClient.get(server.url())
            #expect(response.status == 200 && response.header("X-Config-Signature") == nil)
            #expect(try await CLIHTTPClient.get(server.url("/config.json.sig")).status == 404)
            let missing = try await CLIProcess.run(["verify", server.url(), "--key", workspace.publicKey])
            #expect(missing.status == 1)
            #expect(missing.standardError.contains("there is no signature"))
        }
        let down = try await CLIProcess.run(["verify", "http://127.0.0.1:9/config.json", "--key", workspace.publicKey])
        #expect(down.status == 1)
        #expect(down.standardError.contains("fetch failed"))
    }

    @Test("the demo shows a tampered payload refused before parsing, and the last good value kept")
    func demoRefusesTampering() async throws {
        let outcome = try await CLIProcess.run(["demo"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let text = outcome.standardOutput
        for sentence in [
            "12. Sign the config: a tampered payload is refused",
            "200 OK with X-Config-Signature: keyid=demo-2026, config=default, version=",
            "new_checkout = true  from the remote",
            "The client refuses it before parsing, with a typed error: signature (not retryable).",
            "its signature does not match its bytes under the key \"demo-2026\"",
            "The last good configuration stays: new_checkout = true.",
        ] {
            #expect(text.contains(sentence), "missing: \(sentence)\n\(text)")
        }
    }

    @Test("keygen, sign and verify explain themselves in --help")
    func help() async throws {
        for command in ["keygen", "keyset", "sign", "verify"] {
            let help = try await CLIProcess.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.contains("USAGE: remote-config \(command)"))
        }
        let serve = try await CLIProcess.run(["serve", "--help"])
        #expect(serve.standardOutput.contains("--sign-with"))
        let root = try await CLIProcess.run(["--help"])
        for command in ["keygen", "keyset", "sign", "verify"] { #expect(root.standardOutput.contains("  \(command) ")) }
    }

    @Test(
        "interoperability: OpenSSL verifies what the tool signs, and the tool verifies what OpenSSL signs (standard Ed25519)",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs /usr/bin/openssl"))
    func openSSL() async throws {
        let workspace = try await Workspace.make()
        defer { workspace.scratch.remove() }
        let config = try Data(contentsOf: URL(fileURLWithPath: workspace.config))
        let message = workspace.scratch.url.appendingPathComponent("message.bin")

        // Ours, checked by OpenSSL: the signed message is the documented prefix, version and payload.
        _ = try await CLIProcess.run(["sign", workspace.config, "--key", workspace.key, "--version", "7"])
        let ours = try PayloadSignature(
            parsing: String(contentsOfFile: workspace.config + ".sig", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines))
        try PayloadSignature.signedMessage(payload: config, configurationName: "default", version: 7).write(to: message)
        try ours.signature.write(to: workspace.scratch.url.appendingPathComponent("ours.sig.bin"))
        // The DER SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410), then the 32 raw bytes.
        let derPrefix = Data([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00])
        let publicDER = derPrefix + (try workspace.trustedKey().rawRepresentation)
        try publicDER.write(to: workspace.scratch.url.appendingPathComponent("public.der"))
        let check = try await openssl(
            [
                "pkeyutl", "-verify", "-pubin", "-keyform", "DER", "-inkey", "public.der", "-rawin", "-in", "message.bin",
                "-sigfile", "ours.sig.bin",
            ], in: workspace.scratch.url)
        #expect(check.status == 0 && check.standardOutput.contains("Signature Verified Successfully"), "\(check.standardError)")

        // OpenSSL's, checked by the tool: a key made by OpenSSL, its raw public key in a key file.
        _ = try await openssl(["genpkey", "-algorithm", "ed25519", "-out", "ossl.pem"], in: workspace.scratch.url)
        _ = try await openssl(
            ["pkey", "-in", "ossl.pem", "-pubout", "-outform", "DER", "-out", "ossl.pub.der"], in: workspace.scratch.url)
        let raw = try Data(contentsOf: workspace.scratch.url.appendingPathComponent("ossl.pub.der")).suffix(32)
        try workspace.scratch.write("ossl.pub", "keyid=ossl, ed25519-public-key=\(raw.base64EncodedString())\n")
        try PayloadSignature.signedMessage(payload: config, configurationName: "default", version: 9).write(to: message)
        let signed = try await openssl(
            ["pkeyutl", "-sign", "-inkey", "ossl.pem", "-rawin", "-in", "message.bin", "-out", "ossl.sig.bin"],
            in: workspace.scratch.url)
        #expect(signed.status == 0, "\(signed.standardError)")
        let theirs = try Data(contentsOf: workspace.scratch.url.appendingPathComponent("ossl.sig.bin"))
        try workspace.scratch.write(
            "config.json.ossl", PayloadSignature(keyID: "ossl", configurationName: "default", version: 9, signature: theirs).text)
        let verified = try await CLIProcess.run([
            "verify", workspace.config, "--key", workspace.scratch.path("ossl.pub"), "--signature",
            workspace.scratch.path("config.json.ossl"),
        ])
        #expect(verified.status == 0, "\(verified.standardError)")
    }

    private func openssl(_ arguments: [String], in directory: URL) async throws -> ChildProcess.Outcome {
        try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/openssl"), arguments: arguments, environment: ProcessInfo.processInfo.environment,
            currentDirectory: directory)
    }
}
