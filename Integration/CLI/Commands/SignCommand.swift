import ArgumentParser
import ConfigDomain
import Foundation
import HTTPAdapter
import SigningAdapter

/// `remote-config sign config.json --key prod-2026.key`: writes the detached signature `config.json.sig`.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a config file with an Ed25519 private key: writes <file>.sig and prints the signature line.",
        discussion: """
            The signature covers the file's exact bytes, the configuration's name and a version, in one line:

              keyid=prod-2026, config=default, version=1767225600000, sig=<base64>

            The name is the one the app's client keeps the configuration under: cache(_:name:), "default" \
            unless set, or the name of a provider added with fetcher(_:name:precedence:). A client refuses \
            the file under any other name, so one configuration's signed file cannot pass for another's.

            Publish it with the file, unchanged: as the sidecar file <file>.sig next to it (HTTPFetcher's \
            .sidecarFile transport; upload the .sig first), or as the value of the X-Config-Signature \
            response header (the default transport).

            The version must grow with every new payload: a client refuses a payload whose version is not \
            newer than the one it holds, so an old signed payload cannot be replayed. By default it is the \
            signing time in milliseconds since 1970.

            Examples:
              remote-config sign config.json --key keys/prod-2026.key
              remote-config sign experiments.json --key keys/prod-2026.key --name experiments
              remote-config sign config.json --key keys/prod-2026.key --version 42 --output -
            """)

    @Argument(help: "The config file to sign (its bytes are signed exactly as they are).")
    var file: String

    @Option(help: "The private key file keygen wrote (<key id>.key).")
    var key: String

    @OptionGroup var configuration: ConfigurationNameOption

    @Option(help: ArgumentHelp("The signed version (default: now, in milliseconds since 1970).", valueName: "number"))
    var version: UInt64?

    @Option(
        help: ArgumentHelp("Where to write the signature line (default <file>.sig); - prints only the line.", valueName: "path"))
    var output: String?

    func run() async throws {
        try await reportingFailures {
            let signer = try KeyFile.signer(key)
            let bytes: Data
            do {
                bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw CLIFailure.input("cannot read \(file): \(FileProblem.describe(error))")
            }
            let signature: PayloadSignature
            do throws(SigningError) {
                signature = try signer.sign(
                    bytes, configurationName: configuration.name,
                    version: version ?? UInt64(Date().timeIntervalSince1970 * 1000))
            } catch {
                throw CLIFailure.problem(error.description)
            }
            let destination = output ?? file + ".sig"
            if destination == "-" {
                Console.shared.line(signature.text)
                return
            }
            do {
                try Data((signature.text + "\n").utf8).write(to: URL(fileURLWithPath: destination), options: .atomic)
            } catch {
                throw CLIFailure.input("cannot write \(destination): \(FileProblem.describe(error))")
            }
            Console.shared.line(
                "Signed \(file) (\(Formatting.bytes(bytes.count))) for the configuration \"\(configuration.name)\" with "
                    + "\(signer.keyID), version \(signature.version).")
            Console.shared.line("Wrote \(destination); as a header:")
            Console.shared.line("\(HTTPFetcher.SignatureTransport.headerName): \(signature.text)")
        }
    }
}
