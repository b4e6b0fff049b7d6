import ArgumentParser
import ConfigDomain
import Foundation
import SigningAdapter

/// `remote-config keyset create|sign|verify`: k-of-n key sets, and their rotation.
struct KeysetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyset",
        abstract: "Make, sign and check key sets: the keys apps trust, how many must sign, and their rotation.",
        discussion: """
            A key set names the trusted public keys, a threshold (how many distinct keys must sign a \
            payload) and a version. Apps start from the key set they ship with (KeyRing(root:)); a newer \
            key set replaces it only when signed by a threshold of the trusted set's keys AND a threshold of \
            its own keys, with a higher version (KeyRing.rotate(to:)).

            A rotation:
              remote-config keyset create --version 2 --threshold 2 --key keys/ops-b.pub --key keys/ops-c.pub \\
                --key keys/ops-d.pub --out keyset-2.json
              remote-config keyset sign keyset-2.json --key keys/ops-a.key --key keys/ops-b.key   # the trusted set's
              remote-config keyset sign keyset-2.json --key keys/ops-c.key --key keys/ops-d.key   # its own
              remote-config keyset verify keyset-2.json --trusting keyset-1.json
            """,
        subcommands: [Create.self, Sign.self, Verify.self])

    /// `keyset create`: a new, unsigned key set document.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new key set document, unsigned: its keys, threshold and version.")

        @Option(help: "The key set's version: above the version apps trust now.")
        var version: UInt64

        @Option(help: "How many distinct keys of the set must sign a payload (1 to the number of keys).")
        var threshold: Int

        @Option(help: "A key file (public .pub, or private .key) of a key of the set; repeat for each key.")
        var key: [String] = []

        @Option(
            help: ArgumentHelp(
                "Where to write it (default keyset-<version>.json); never over an existing file.", valueName: "path"))
        var out: String?

        func validate() throws {
            guard !key.isEmpty else { throw ValidationError("give the set's keys with --key, once per key") }
        }

        func run() async throws {
            try await reportingFailures {
                let keys = try KeyFile.publicKeys(key)
                let keySet: KeySet
                do throws(ConfigurationError) {
                    keySet = try KeySet(version: version, threshold: threshold, keys: keys)
                } catch {
                    throw CLIFailure.input(error.message)
                }
                let path = out ?? "keyset-\(version).json"
                try KeySetFile.write(SignedKeySet(keySet: keySet), to: path, replacing: false)
                Console.shared.line(
                    "Wrote \(path): key set version \(version), \(threshold) of \(keySet.keys.count) keys "
                        + "(\(keySet.keys.map(\.keyID).joined(separator: ", "))), unsigned; sign it with `remote-config keyset sign`."
                )
            }
        }
    }

    /// `keyset sign`: adds signatures to a key set document, in place.
    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add signatures to a key set document, in place: one per private key given.")

        @Argument(help: "The key set document to sign.")
        var file: String

        @Option(help: "A private key file (<key id>.key); repeat for each key that signs.")
        var key: [String] = []

        func validate() throws {
            guard !key.isEmpty else { throw ValidationError("give the private keys that sign with --key") }
        }

        func run() async throws {
            try await reportingFailures {
                var signed = try KeySetFile.read(file)
                let signers = try KeyFile.signers(key)
                do throws(SigningError) {
                    for signer in signers { signed = try signed.signed(by: signer) }
                } catch {
                    throw CLIFailure.problem(error.description)
                }
                try KeySetFile.write(signed, to: file, replacing: true)
                Console.shared.line(
                    "Signed key set version \(signed.keySet.version) in \(file); it carries signatures by "
                        + "\(signed.signatures.map(\.keyID).joined(separator: ", ")).")
            }
        }
    }

    /// `keyset verify`: whether a key set follows from the trusted one, as an app checks it.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a key set as an app does: its own threshold, and with --trusting, that it may replace that set.",
            discussion: """
                Exit status: 0 when it is accepted; 1 when it is refused (too few signatures, a version not \
                above the trusted one); 2 when a file cannot be read or is not a key set.
                """)

        @Argument(help: "The key set document to check.")
        var file: String

        @Option(help: ArgumentHelp("The key set apps trust now, which this one would replace.", valueName: "path"))
        var trusting: String?

        func run() async throws {
            try await reportingFailures {
                let next = try KeySetFile.read(file)
                let own = next.signers(validIn: next.keySet)
                let summary =
                    "signed by \(own.count) of its own keys (\(own.joined(separator: ", "))), needs \(next.keySet.threshold)"
                guard let trusting else {
                    guard own.count >= next.keySet.threshold else {
                        throw CLIFailure.problem("\(file): key set version \(next.keySet.version) is \(summary)")
                    }
                    Console.shared.line(
                        Console.shared.styled("OK", .green) + ": key set version \(next.keySet.version) is \(summary).")
                    return
                }
                let trusted = try KeySetFile.read(trusting).keySet
                do throws(KeySetError) {
                    try KeyRing.check(next, replacing: trusted)
                } catch {
                    throw CLIFailure.problem("\(file): \(error.message)")
                }
                let byTrusted = next.signers(validIn: trusted)
                Console.shared.line(
                    Console.shared.styled("OK", .green) + ": key set version \(next.keySet.version) may replace version "
                        + "\(trusted.version): signed by \(byTrusted.count) of its keys (\(byTrusted.joined(separator: ", "))), "
                        + "needs \(trusted.threshold); \(summary).")
            }
        }
    }
}
