import ArgumentParser
import ConfigDomain
import Foundation
import SigningAdapter

/// `remote-config keygen --key-id prod-2026`: a new Ed25519 key pair for signing configurations.
struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 key pair for signing configurations: <key id>.key (private) and <key id>.pub.",
        discussion: """
            The private key file (mode 0600) signs: keep it where you publish configurations (a CI secret), \
            never in the app. The public key goes into the app, under its key id:

              Ed25519Verifier(base64Keys: ["prod-2026": "<the public key printed below>"])

            Both files hold one line, keyid=<id>, ed25519-private-key=<base64> or ed25519-public-key=<base64>: \
            the 32-byte keys of RFC 8032 in standard base64. An existing file is never replaced.

            To rotate: make a key with a new id, ship an app that trusts both, sign with the new key, and drop \
            the old key from a later release.

            Example:
              remote-config keygen --key-id prod-2026 --out keys/
            """)

    @Option(help: "The key id signatures will name: 1 to 64 letters, digits, '.', '_' or '-', such as prod-2026.")
    var keyId: String

    @Option(help: "The folder to write the two files to (created if missing).")
    var out: String = "."

    func validate() throws {
        guard PayloadSignature.isValidKeyID(keyId) else {
            throw ValidationError("--key-id must be 1 to 64 letters, digits, '.', '_' or '-', got \"\(keyId)\"")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let signer: Ed25519Signer
            do throws(ConfigurationError) {
                signer = try Ed25519Signer.generate(keyID: keyId)
            } catch {
                throw CLIFailure.input(error.message)
            }
            let folder = URL(fileURLWithPath: out)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIFailure.input("cannot create the folder \(out): \(FileProblem.describe(error))")
            }
            let privatePath = folder.appendingPathComponent("\(keyId).key").path
            let publicPath = folder.appendingPathComponent("\(keyId).pub").path
            try KeyFile.write(KeyFile.privateText(signer), to: privatePath, mode: 0o600)
            try KeyFile.write(KeyFile.publicText(signer.publicKey), to: publicPath, mode: 0o644)
            let console = Console.shared
            console.line("Wrote \(privatePath) (private: keep it secret, it signs) and \(publicPath) (public).")
            console.line("Public key \(console.styled(keyId, .bold)): \(signer.publicKey.base64)")
            console.line("In the app:")
            console.line("  try Ed25519Verifier(base64Keys: [\"\(keyId)\": \"\(signer.publicKey.base64)\"])")
        }
    }
}
