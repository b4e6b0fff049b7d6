import ArgumentParser
import ConfigDomain
import Foundation
import HTTPAdapter
import SigningAdapter

/// `remote-config sign config.json --key prod-2026.key --expires-in 7d`: writes the detached signature `config.json.sig`.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a config file with Ed25519 private keys: writes <file>.sig and prints the signature line.",
        discussion: """
            The signature covers the file's exact bytes, the configuration's name, a version and, when \
            given, an expiry, in one line:

              keyid=prod-2026, config=default, version=1767225600000, expires=2026-01-08T00:00:00Z, sig=<base64>

            The name is the one the app's client keeps the configuration under: cache(_:name:), "default" \
            unless set, or the name of a provider added with fetcher(_:name:precedence:). A client refuses \
            the file under any other name, so one configuration's signed file cannot pass for another's.

            Publish it with the file, unchanged: as the sidecar file <file>.sig next to it (HTTPFetcher's \
            .sidecarFile transport; upload the .sig first), or as the value of the X-Config-Signature \
            response header (the default transport).

            The version must grow with every new payload: a client refuses a payload whose version is not \
            newer than the one it holds, so an old signed payload cannot be replayed. By default it is the \
            signing time in milliseconds since 1970.

            The expiry (--expires-in or --expires-at) is when clients stop counting the payload as current, \
            whatever they fetched: a server or CDN that keeps serving an old payload cannot keep apps on it \
            for ever. Sign a new payload before it passes. Without one, the payload never expires by its \
            signature.

            Give --key once per key when the app's key set needs several signatures (a threshold of 2 of \
            3 keys, say): the line then holds one signature per key, separated by "; ".

            Examples:
              remote-config sign config.json --key keys/prod-2026.key --expires-in 7d
              remote-config sign experiments.json --key keys/prod-2026.key --name experiments
              remote-config sign config.json --key keys/ops-a.key --key keys/ops-b.key --version 42 --output -
            """)

    @Argument(help: "The config file to sign (its bytes are signed exactly as they are).")
    var file: String

    @Option(help: "A private key file keygen wrote (<key id>.key); repeat for one signature per key.")
    var key: [String] = []

    @OptionGroup var configuration: ConfigurationNameOption

    @Option(help: ArgumentHelp("The signed version (default: now, in milliseconds since 1970).", valueName: "number"))
    var version: UInt64?

    @OptionGroup var expiry: ExpiryOptions

    @Option(
        help: ArgumentHelp("Where to write the signature line (default <file>.sig); - prints only the line.", valueName: "path"))
    var output: String?

    func validate() throws {
        guard !key.isEmpty else { throw ValidationError("give a private key file with --key (repeat it for several keys)") }
    }

    func run() async throws {
        try await reportingFailures {
            let signers = try KeyFile.signers(key)
            let bytes: Data
            do {
                bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIFailure.input("cannot read \(file): \(FileProblem.describe(error))")
            }
            let now = Date()
            let expiresAt = try expiry.expiry(now: now)
            let signedVersion = version ?? UInt64(now.timeIntervalSince1970 * 1000)
            var signatures: [PayloadSignature] = []
            do throws(SigningError) {
                for signer in signers {
                    signatures.append(
                        try signer.sign(
                            bytes, configurationName: configuration.name, version: signedVersion, expiresAt: expiresAt))
                }
            } catch {
                throw CLIFailure.problem(error.description)
            }
            let text = PayloadSignature.text(of: signatures)
            let destination = output ?? file + ".sig"
            if destination == "-" {
                Console.shared.line(text)
                return
            }
            do {
                try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: destination), options: .atomic)
            } catch {
                throw CLIFailure.input("cannot write \(destination): \(FileProblem.describe(error))")
            }
            let until = signatures[0].expiresAt.map { ", expires \($0.formatted(Date.ISO8601FormatStyle()))" } ?? ", no expiry"
            Console.shared.line(
                "Signed \(file) (\(Formatting.bytes(bytes.count))) for the configuration \"\(configuration.name)\" with "
                    + "\(signers.map(\.keyID).joined(separator: ", ")), version \(signedVersion)\(until).")
            Console.shared.line("Wrote \(destination); as a header:")
            Console.shared.line("\(HTTPFetcher.SignatureTransport.headerName): \(text)")
        }
    }
}
