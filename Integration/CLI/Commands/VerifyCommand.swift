import ArgumentParser
import ConfigDomain
import ConfigPorts
import Foundation
import HTTPAdapter
import SigningAdapter

/// `remote-config verify config.json --key prod-2026.pub`: checks a signature as a client would.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a config's signature with trusted public keys, as a client does before parsing.",
        discussion: """
            A file is checked against its signature file (<file>.sig, or --signature). A URL is fetched like \
            a client fetches it: the signature from the X-Config-Signature header, or with --sidecar from \
            <url>.sig. Give --key once per trusted key (public .pub, or private .key files), or --key-set \
            for a key set document (its keys and threshold, as an app with that key set checks it), and \
            --name for the configuration the client reads it as (default: default).

            With --after-version, a signature whose version is not above that number is refused as a replay, \
            as a client holding that version would.

            Exit status: 0 when the signature verifies; 1 when it is missing, malformed, by an unknown key, \
            does not match, has too few signatures for the key set's threshold, is for another configuration, \
            or is not newer than --after-version; 2 when a file or key cannot be read.

            Examples:
              remote-config verify config.json --key keys/prod-2026.pub
              remote-config verify config.json --key-set keyset-2.json
              remote-config verify https://cdn.example.com/app/experiments.json --sidecar --key keys/prod-2026.pub --name experiments
            """)

    @Argument(help: "A config file, or an http(s) URL to fetch.")
    var source: String

    @Option(help: "A trusted key file (repeat for several keys).")
    var key: [String] = []

    @Option(help: ArgumentHelp("A key set document to trust instead of --key: its keys and threshold.", valueName: "path"))
    var keySet: String?

    @Option(help: ArgumentHelp("The signature file for a local config (default <file>.sig).", valueName: "path"))
    var signature: String?

    @Flag(help: "For a URL: read the signature from <url>.sig instead of the X-Config-Signature header.")
    var sidecar = false

    @OptionGroup var configuration: ConfigurationNameOption

    @Option(help: ArgumentHelp("Refuse a signed version not above this one (a replay).", valueName: "number"))
    var afterVersion: UInt64?

    func validate() throws {
        guard !key.isEmpty || keySet != nil else {
            throw ValidationError("give at least one trusted key with --key, or a key set with --key-set")
        }
        if !key.isEmpty && keySet != nil { throw ValidationError("give --key or --key-set, not both") }
        if isURL && signature != nil { throw ValidationError("--signature is for a local file; a URL brings its own") }
        if !isURL && sidecar { throw ValidationError("--sidecar is for a URL; a local file uses --signature") }
    }

    private var isURL: Bool { source.hasPrefix("http://") || source.hasPrefix("https://") }

    func run() async throws {
        try await reportingFailures {
            let verifier: Ed25519Verifier
            if let keySet {
                verifier = Ed25519Verifier(keyRing: KeyRing(root: try KeySetFile.read(keySet).keySet))
            } else {
                let keys = try KeyFile.publicKeys(key)
                do throws(ConfigurationError) {
                    verifier = try Ed25519Verifier(trustedKeys: keys)
                } catch {
                    throw CLIFailure.input(error.message)
                }
            }
            let (bytes, text) = isURL ? try await fetch() : try readFile()
            let checked: [PayloadSignature]
            do throws(SignatureError) {
                guard let text else {
                    throw SignatureError(
                        .missing, "there is no signature; sign the file with `remote-config sign --name \(configuration.name)`")
                }
                checked = try PayloadSignature.list(parsing: text)
                try verifier.check(bytes, signatures: checked, configurationName: configuration.name, newerThan: afterVersion)
            } catch {
                throw CLIFailure.problem("\(source): \(error)")
            }
            let first = checked[0]
            let expiry = first.expiresAt.map { ", expires \($0.formatted(Date.ISO8601FormatStyle()))" } ?? ""
            Console.shared.line(
                Console.shared.styled("OK", .green) + ": \(source) (\(Formatting.bytes(bytes.count))) is signed for "
                    + "\"\(first.configurationName)\" by \(checked.map(\.keyID).joined(separator: ", ")), version "
                    + "\(first.version)\(expiry).")
        }
    }

    private func readFile() throws(CLIFailure) -> (Data, String?) {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw CLIFailure.input("cannot read \(source): \(FileProblem.describe(error))")
        }
        let signaturePath = signature ?? source + ".sig"
        guard FileManager.default.fileExists(atPath: signaturePath) else { return (bytes, nil) }
        do {
            let text = try String(contentsOf: URL(fileURLWithPath: signaturePath), encoding: .utf8)
            return (bytes, text.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw CLIFailure.input("cannot read the signature file \(signaturePath): \(FileProblem.describe(error))")
        }
    }

    private func fetch() async throws(CLIFailure) -> (Data, String?) {
        guard let url = URL(string: source) else { throw CLIFailure.input("\(source) is not a URL") }
        let fetcher: HTTPFetcher
        do throws(ConfigurationError) {
            fetcher = try HTTPFetcher(url: url, configuration: .init(signatureTransport: sidecar ? .sidecarFile : .header))
        } catch {
            throw CLIFailure.input(error.message)
        }
        let result: FetchResult
        do throws(FetchError) {
            result = try await fetcher.fetch(FetchRequest())
        } catch {
            throw CLIFailure.problem(error.description)
        }
        guard case .modified(let payload) = result else {
            throw CLIFailure.problem("\(source) answered \"not modified\" to an unconditional request")
        }
        return (payload.bytes, payload.signature)
    }
}
