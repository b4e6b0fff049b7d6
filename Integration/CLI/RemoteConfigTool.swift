import ArgumentParser
import Foundation

/// `remote-config`: a local config server, a one-shot fetch, cache inspection, config validation and a demo.
@main
struct RemoteConfigTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote-config",
        abstract: "Serve, fetch, inspect, validate and sign remote configuration, and see the whole story in a demo.",
        discussion: """
            Start with the demo: it runs a local server, a client with a file cache, and walks through \
            defaults, remote values, 304 renewals, stale values, rejected values, overrides and live updates.

              remote-config demo

            Test your app's flags against a local server instead of production:

              remote-config serve config.json        # prints http://127.0.0.1:8080/config.json
              remote-config fetch http://127.0.0.1:8080/config.json --keys manifest.json
              remote-config validate config.json --keys manifest.json
              remote-config inspect ./cache-dir
              remote-config eval config.json --context '{"id":"u1","country":"DE"}'

            Sign configurations so that apps refuse a tampered payload:

              remote-config keygen --key-id prod-2026 --out keys/
              remote-config sign config.json --key keys/prod-2026.key     # writes config.json.sig
              remote-config verify config.json --key keys/prod-2026.pub
              remote-config serve config.json --sign-with keys/prod-2026.key

            The key manifest (--keys) declares each key's type, default and rules; see \
            Integration/CLI/README.md for its format and Integration/CLI/Examples for a sample.

            Compare two payloads before moving between vendors:

              remote-config compare growthbook.json flags.json --random 1000 --seed 7

            Exit status: 0 on success; 1 when the command ran and found a problem (a failed fetch, a \
            rejected value, a config that is not valid JSON, values that differ); 2 when its input is \
            unusable (a missing file, an invalid manifest, a port in use); 64 for wrong usage.
            """,
        version: "0.2.0",
        subcommands: [
            DemoCommand.self, ServeCommand.self, FetchCommand.self, InspectCommand.self, ValidateCommand.self,
            KeygenCommand.self,
            KeysetCommand.self,
            SignCommand.self,
            VerifyCommand.self,
            PublishCommand.self,
            EvalCommand.self,
            CompareCommand.self,
        ])

    /// Runs the command the arguments name, and reports a failure as the README says: one line starting
    /// with `error:` (a usage error adds the usage), a close name for a mistyped command, and the
    /// documented exit status.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let mistyped = UnknownCommand(arguments: arguments, commands: configuration.subcommands) {
            Console.shared.errorLine(mistyped.message(label: Console.shared.errorLabel))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error)
        }
    }

    /// Prints what `error` says (help to standard output, anything else to standard error) and exits with its code.
    private static func exit(reporting error: any Error) -> Never {
        let code = exitCode(for: error)
        let text = fullMessage(for: error)
        if code == .success {
            if !text.isEmpty { Console.shared.line(text) }
        } else if !text.isEmpty {
            Console.shared.errorLine(UsageMessage.relabel(text, label: Console.shared.errorLabel))
        }
        Foundation.exit(code.rawValue)
    }
}
