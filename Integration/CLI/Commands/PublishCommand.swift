import ArgumentParser
import ConfigDomain
import EtcdAdapter
import Foundation

/// `remote-config publish <config.json> --etcd <url> --key <key>`: validates a config file, then writes it to etcd.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Validate a config file, then write it to one etcd key, where every watching client picks it up.",
        discussion: """
            The file must be a JSON object of keys to values. With --keys, every declared key is also \
            converted and checked against its rules, exactly as `validate` does; a single rejected value \
            stops the command and nothing is written.

            The document is written as the value of --key through etcd's v3 JSON gateway (etcd 3.4 or \
            later). Give several members with a comma (--etcd http://a:2379,http://b:2379): each is tried \
            in turn until one answers. For a cluster with authentication on, pass --user and put the \
            password in the REMOTE_CONFIG_ETCD_PASSWORD environment variable.

            Exit status: 0 when written (the revision is printed); 1 when the file is rejected (nothing \
            is written) or etcd refuses or cannot be reached; 2 when a file cannot be read or a setting \
            is unusable.

            Example:
              remote-config publish config.json --etcd http://127.0.0.1:2379 --key /app/config --keys manifest.json
            """)

    /// The environment variable the password is read from.
    static let passwordVariable = "REMOTE_CONFIG_ETCD_PASSWORD"

    @Argument(help: "The config file to publish: a JSON object of keys to values.")
    var config: String

    @Option(help: ArgumentHelp("The client URLs of etcd members, comma-separated.", valueName: "urls"))
    var etcd: String

    @Option(help: ArgumentHelp("The etcd key to write the document to.", valueName: "key"))
    var key: String

    @Option(
        name: .customLong("keys"),
        help: ArgumentHelp(
            "A key manifest (JSON): check every declared value against its rules first.", valueName: "manifest.json"))
    var keys: String?

    @Option(help: ArgumentHelp("The etcd user, when the cluster has authentication on.", valueName: "name"))
    var user: String?

    @Flag(help: "Allow plain http:// to hosts other than loopback (the document and the password travel unencrypted).")
    var allowInsecureHTTP = false

    @Option(help: ArgumentHelp("Give up on a member after this many seconds.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be more than zero seconds") }
        guard !key.isEmpty else { throw ValidationError("--key must name an etcd key, for example /app/config") }
    }

    func run() async throws {
        try await reportingFailures {
            let document = try checkedDocument()
            let publisher = try makePublisher()
            let revision: Int64
            do throws(EtcdError) {
                revision = try await publisher.publish(document, to: key)
            } catch {
                throw CLIFailure.problem("\(error.description); nothing was published")
            }
            Console.shared.line("Published \(config) to \(key) at revision \(revision) (\(etcd)).")
        }
    }

    /// The file's bytes once they pass the same checks as `validate` (with an empty manifest
    /// without --keys, which checks that it is a JSON object).
    private func checkedDocument() throws(CLIFailure) -> Data {
        let manifest =
            try keys.map { path throws(CLIFailure) in try CommandInputs.manifest(at: path) }
            ?? KeyManifest(source: "", keys: [])
        let bytes = try CommandInputs.config(at: config)
        let result: ConfigValidation
        do throws(ConfigFileError) {
            result = try ConfigValidation.check(bytes, source: config, manifest: manifest)
        } catch {
            throw CLIFailure.problem("\(error.description); nothing was published")
        }
        for rejection in result.problems {
            Console.shared.line(
                "\(Console.shared.styled("error  ", .red, .bold)) \(rejection.key): value \(rejection.value) rejected by "
                    + "\(rejection.rule): \(rejection.reason)")
        }
        if !result.isValid {
            let count = result.problems.count
            throw CLIFailure.problem(
                "\(count) value\(count == 1 ? " is" : "s are") rejected by \(keys ?? "the manifest"); nothing was published")
        }
        return bytes
    }

    /// The publisher for --etcd, --user and the password in the environment.
    private func makePublisher() throws(CLIFailure) -> EtcdPublisher {
        var endpoints: [URL] = []
        for text in etcd.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !text.isEmpty {
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw CLIFailure.input("\"\(text)\" is not an etcd client URL; use http://127.0.0.1:2379 or https://…")
            }
            endpoints.append(url)
        }
        var credentials: EtcdCredentials?
        if let user {
            guard let password = ProcessInfo.processInfo.environment[Self.passwordVariable] else {
                throw CLIFailure.input("--user \(user) needs the password in the \(Self.passwordVariable) environment variable")
            }
            credentials = EtcdCredentials(username: user, password: password)
        }
        let connection = EtcdConnection(
            endpoints: endpoints, credentials: credentials, requestTimeout: timeout,
            allowsInsecureHTTPForNonLoopbackHosts: allowInsecureHTTP)
        do throws(ConfigurationError) {
            return try EtcdPublisher(connection: connection)
        } catch {
            let hint = error.message.contains("plain http") ? " (or pass --allow-insecure-http)" : ""
            throw CLIFailure.input(error.message + hint)
        }
    }
}
